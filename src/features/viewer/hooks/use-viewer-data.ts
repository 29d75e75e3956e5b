import { useState } from 'react'
import { useResource } from '@/hooks/use-resource'
import { describeError } from '@/services/api'
import { HttpError } from '@/services/http'
import { useAuthorisedImage } from '@/components/authorised-image/use-authorised-image'
import { getExamDetail, type ExamDetail, type SeriesSummary } from '@/services/records'
import { fetchSeriesMetadata, renderedPath, seriesPath } from '@/services/viewer'
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
  /** Handed over by the opener: the exam's study, so the metadata is asked for at once. */
  studyUid?: string
  /** Handed over by the opener: the thumbnail it shows of this series (see handedOverThumbnail). */
  thumb?: string
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

/**
 * The opener's thumbnail when it is an image of the series asked for (a hand-edited or stale link
 * could name any address), else null: the viewer paints it before anything else has answered.
 */
export function handedOverThumbnail(request: ViewerRequest): string | null {
  const { studyUid, seriesUid, thumb } = request
  if (!studyUid || !seriesUid || !thumb) return null
  const prefix = `${seriesPath(studyUid, seriesUid)}/instances/`
  const sop = thumb.startsWith(prefix) ? thumb.slice(prefix.length, -'/thumbnail'.length) : ''
  return thumb.endsWith('/thumbnail') && sop.length > 0 && !sop.includes('/') ? thumb : null
}

/** The preview path known before the exam answers: from the handed-over study, else null. */
export function earlyPreviewPath(request: ViewerRequest): string | null {
  const { studyUid, seriesUid, sop, frame } = request
  if (studyUid && seriesUid && sop) return renderedPath(studyUid, seriesUid, sop, frame ?? 1)
  return handedOverThumbnail(request)?.replace(/\/thumbnail$/, '/rendered') ?? null
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

/** A number per exam loader, so a different loader (another grant) is another key. */
const loaderIds = new WeakMap<object, number>()
let loaders = 0
function loaderId(loader: object): number {
  let id = loaderIds.get(loader)
  if (id === undefined) {
    id = ++loaders
    loaderIds.set(loader, id)
  }
  return id
}

/**
 * Exam detail → series → its WADO metadata, parsed and in display order. When the opener handed
 * over the study, the metadata is fetched alongside the exam instead of after it (used only if the
 * exam confirms that study and series).
 */
export function useViewerData(
  request: ViewerRequest,
  attempt: number,
  /** Through a grant (issue 9): the shared exam instead of the person's own. Keep it stable: a new
   * loader is a new question, asked again. */
  loadExam: (examId: string) => Promise<ExamDetail> = getExamDetail,
): ViewerData {
  const { examId, seriesUid, sop, frame, studyUid: givenStudy, thumb } = request
  const key = JSON.stringify([
    examId,
    seriesUid,
    sop,
    frame,
    givenStudy,
    thumb,
    attempt,
    loaderId(loadExam),
  ])
  // Known once the exam answered, while the metadata still loads (for that key only).
  const [preview, setPreview] = useState<{ key: string; path: string | null } | null>(null)

  const series = useResource(key, async (signal) => {
    const ahead = givenStudy && seriesUid ? fetchSeriesMetadata(givenStudy, seriesUid) : null
    // Awaited only when used; a failure then is the exam's answer to give, not an unhandled one.
    ahead?.catch(() => undefined)
    const exam = await loadExam(examId)
    const series = pickSeries(exam, seriesUid)
    if (!exam.studyUid || !series) throw new ViewerError(NO_IMAGE)
    if (series.previewStatus === 'unsupported' && series.instanceCount > 0) {
      // The server could not decode it either: no frame will come.
      throw new ViewerError(series.previewMessage ?? UNSUPPORTED_IMAGE)
    }
    const studyUid = exam.studyUid
    const previewPath = previewPathOf(studyUid, series, sop, frame)
    // Another series asked meanwhile (or the viewer closed): nobody waits for this one's metadata.
    if (signal.aborted) throw new ViewerError(NO_IMAGE)
    setPreview({ key, path: previewPath })
    const confirmed = ahead && givenStudy === studyUid && seriesUid === series.seriesUid
    const infos = parseSeries(
      await (confirmed ? ahead : fetchSeriesMetadata(studyUid, series.seriesUid)),
    )
    const slices = slicesOf(infos)
    return {
      previewPath,
      exam,
      series,
      studyUid,
      slices,
      startIndex: startIndexOf(slices, sop, frame),
    }
  })

  if (series.status === 'ready') return { status: 'ready', ...series.data }
  if (series.status === 'error') return { status: 'error', message: messageOf(series.error) }
  return {
    status: 'loading',
    previewPath: preview?.key === key ? preview.path : earlyPreviewPath(request),
  }
}

/**
 * An authorised image (the preview, a thumbnail) as a src once it is here, released when no longer
 * shown: the records pages' hook, reduced to what the viewer shows.
 */
export function useAuthorisedImageSrc(path: string | null): string | null {
  const image = useAuthorisedImage(path)
  return image.status === 'ready' ? image.src : null
}
