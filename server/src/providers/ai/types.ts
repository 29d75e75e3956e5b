import type { AiProvider, OpinionValues } from '@contract/main/opinions'

/*
 * The AI analysis provider interface (issue 23, "AI only as a draft"). An adapter analyses one
 * study's images and answers draft text for some fields of a report template plus what it really
 * computed; the domain (domain/ai) stores it and shows it to the expert of a consultation only,
 * never to the patient. Adapters: `demo` (演示算法, a local threshold measurement, demo.ts) and
 * `unconfigured` (未配置AI分析服务). A vendor's or a hospital's service is a new adapter here (see
 * README.md): it gets the same AiStudy and answers the same AiAnalysisResult.
 */

export const AI_NOT_CONFIGURED = '未配置AI分析服务'

/** Thrown by the unconfigured provider; the domain answers 503 with AI_NOT_CONFIGURED. */
export class AiNotConfigured extends Error {
  override name = 'AiNotConfigured'
  constructor() {
    super(AI_NOT_CONFIGURED)
  }
}

/** The decoded stored values of one frame (rescale not applied), as server/src/dicom decodes them. */
export type StoredPixels = Uint8Array | Uint16Array | Int16Array

/** One image (instance) of a series, with what a measurement needs from its DICOM attributes. */
export interface AiSlice {
  sopInstanceUid: string
  instanceNumber: number | null
  rows: number
  columns: number
  frameCount: number
  /** Modality LUT (0028,1053 / 0028,1052): HU = stored × slope + intercept for CT. */
  rescaleSlope: number
  rescaleIntercept: number
  /** (0028,0030) row spacing, column spacing in mm; null when the image does not say. */
  pixelSpacing: [number, number] | null
  /** (0020,0032) and (0020,0037); null when absent. */
  imagePosition: number[] | null
  imageOrientation: number[] | null
  /** (0018,0050) and (0018,0088) in mm; null when absent. */
  sliceThickness: number | null
  spacingBetweenSlices: number | null
  /** Reads the first frame's stored values; null when the image has no decoded pixels. */
  readPixels: (() => Promise<StoredPixels>) | null
}

export interface AiSeries {
  seriesUid: string
  modality: string | null
  bodyPart: string | null
  description: string | null
  slices: AiSlice[]
}

export interface AiStudy {
  examId: string
  modalities: string[]
  series: AiSeries[]
}

export interface AiComputedValue {
  label: string
  value: string
  unit: string
}

export type AiAnalysisResult =
  | {
      ok: true
      /** The report template the draft fills (`chest-ct`). */
      templateId: string
      /** The series analysed. */
      seriesUid: string
      /** Draft text by template field id: only what was computed, never an uncomputed finding. */
      values: OpinionValues
      computed: AiComputedValue[]
    }
  | {
      ok: false
      /** Why it could not analyse this study, in Chinese for the patient (no finding in it). */
      reason: string
    }

export interface AiAnalysisProvider {
  /** Who analyses (stored with each request, named in the draft and the signed opinion); null: none. */
  readonly info: AiProvider | null
  /** Modalities it accepts (an exam without one is refused at the request). */
  readonly modalities: readonly string[]
  /** Analyses one study. Throws AiNotConfigured when unconfigured; an abort stops it. */
  analyse(study: AiStudy, signal: AbortSignal): Promise<AiAnalysisResult>
}
