import { useEffect, useState } from 'react'
import { describeError } from '@/services/api'
import { HttpError } from '@/services/http'
import { useAuthorisedImage } from '@/components/authorised-image/use-authorised-image'
import { getExamDetail, type ExamDetail, type SeriesSummary } from '@/services/records'
import { fetchSeriesMetadata, renderedPath } from '@/services/viewer'
import {
  NO_IMAGE,
  UNSUPPORTED_IMAGE,
  ViewerError,
  parseInstanceMetadata,
  sortInstances,
  type ImageInfo,
} from '../core'
import { slicesOf, type Slice } from './frame-loader'

export interface ViewerRequest {
  examId: string
  seriesUid?: string
  sop?: string
  /** 1-based */
  frame?: number
}

export interface ViewerSeries {
  exam: ExamDetail
  series: SeriesSummary
  studyUid: string
  slices: Slice[]
  /** Where the viewer opens: the asked slice, else the middle one. */
  startIndex: number
}

export type ViewerData =
  | { status: 'loading'; previewPath: string | null }
  | { status: 'error'; message: string }
  | ({ status: 'ready'; previewPath: string | null } & ViewerSeries)

const LOAD_FAILED = '加载失败，请检查网络后重试'

function messageOf(error: unknown): string {
  if (error instanceof ViewerError) return error.message
  if (error instanceof HttpError && (error.statusCode === 404 || error.statusCode === 403)) {
    return NO_IMAGE
  }
  return describeError(error, LOAD_FAILED)
}

/** The series asked for, else the first one with images. */
export function pickSeries(exam: ExamDetail, seriesUid?: string): SeriesSummary | null {
  if (seriesUid) return exam.series.find((s) => s.seriesUid === seriesUid) ?? null
  return exam.series.find((s) => s.instanceCount > 0) ?? null
}

/**
 * The preview painted before any raw frame: the asked slice's server rendering, else the series
 * thumbnail's instance (the server picks the middle one) at full size.
 */
export function previewPathOf(
  studyUid: string,
  series: SeriesSummary,
  sop?: string,
  frame?: number,
): string | null {
  if (sop) return renderedPath(studyUid, series.seriesUid, sop, frame ?? 1)
  if (!series.thumbnailPath) return null
  return series.thumbnailPath.replace(/\/thumbnail$/, '/rendered')
}

/** Parses every instance; those that cannot be shown are left out unless none can. */
export function parseSeries(datasets: Record<string, unknown>[]): ImageInfo[] {
  const infos: ImageInfo[] = []
  let firstError: unknown = null
  for (const dataset of datasets) {
    try {
      infos.push(parseInstanceMetadata(dataset))
    } catch (error) {
      firstError ??= error
    }
  }
  if (infos.length === 0) {
    throw firstError instanceof ViewerError ? firstError : new ViewerError(NO_IMAGE)
  }
  return sortInstances(infos)
}

export function startIndexOf(slices: Slice[], sop?: string, frame?: number): number {
  if (sop) {
    const at = slices.findIndex((s) => s.info.sopInstanceUid === sop && s.frame === (frame ?? 1))
    if (at >= 0) return at
    const instance = slices.findIndex((s) => s.info.sopInstanceUid === sop)
    if (instance >= 0) return instance
  }
  return Math.floor((slices.length - 1) / 2)
}

/** Exam detail → series → its WADO metadata, parsed and in display order. */
export function useViewerData(request: ViewerRequest, attempt: number): ViewerData {
  const { examId, seriesUid, sop, frame } = request
  const [data, setData] = useState<ViewerData>({ status: 'loading', previewPath: null })

  useEffect(() => {
    let live = true
    setData({ status: 'loading', previewPath: null })
    void (async () => {
      try {
        const exam = await getExamDetail(examId)
        const series = pickSeries(exam, seriesUid)
        if (!exam.studyUid || !series) throw new ViewerError(NO_IMAGE)
        if (series.previewStatus === 'unsupported' && series.instanceCount > 0) {
          // The server could not decode it either: no frame will come.
          throw new ViewerError(series.previewMessage ?? UNSUPPORTED_IMAGE)
        }
        const studyUid = exam.studyUid
        const previewPath = previewPathOf(studyUid, series, sop, frame)
        if (!live) return
        setData({ status: 'loading', previewPath })
        const infos = parseSeries(await fetchSeriesMetadata(studyUid, series.seriesUid))
        const slices = slicesOf(infos)
        if (!live) return
        setData({
          status: 'ready',
          previewPath,
          exam,
          series,
          studyUid,
          slices,
          startIndex: startIndexOf(slices, sop, frame),
        })
      } catch (error) {
        if (live) setData({ status: 'error', message: messageOf(error) })
      }
    })()
    return () => {
      live = false
    }
  }, [examId, seriesUid, sop, frame, attempt])

  return data
}

/**
 * An authorised image (the preview, a thumbnail) as a src once it is here, released when no longer
 * shown: the records pages' hook, reduced to what the viewer shows.
 */
export function useAuthorisedImageSrc(path: string | null): string | null {
  const image = useAuthorisedImage(path)
  return image.status === 'ready' ? image.src : null
}
