import Taro from '@tarojs/taro'
import type { ImagePin, ImagePoint } from '@contract/main/opinions'
import { findRoute, routeByName } from '@/routes'
import { back } from '@/services/navigate'
import { guid } from '@/utils/guid'
import type { PixelData } from './core'
import { sliceKey, type Slice } from './hooks/frame-loader'
import { pinnedValues, shortLabel } from './measurements'
import type { Measurement } from './view-state'
import { handOverPin, type MeasureParam } from './pin-protocol'

export * from './pin-protocol'

/*
 * Findings pinned to the image (issue 23): the viewer's side of an opinion's pins.
 *
 * Pin mode (the expert attaches a slice or a measurement to a sentence). Open the viewer with
 * `pin=<fieldId>` besides its usual params:
 *   navigate('imageViewer', { examId, pin: fieldId })            // an exam of the signed-in user
 *   navigate('imageViewer', { examId, grantId, pin: fieldId })   // through a grant
 *   navigate('shareExam', { grantId, examId, pin: fieldId })     // via 影像详情: its series keep `pin`
 * Listen first, then navigate: `const stop = onPinHandedOver((pin) => { ...; stop() })`. The viewer
 * shows 附到意见; tapping it hands the `ImagePin` over and goes back (`attachToOpinion`). A pin is the
 * shown slice and the latest measurement drawn on it, if any.
 *
 * Show mode (the patient taps a pinned sentence):
 *   navigate('imageViewer', pinViewerParams(pin))                // the patient's own exam
 *   navigate('imageViewer', { ...pinViewerParams(pin), grantId }) // through a grant
 * The viewer opens on the pin's slice with its measurement drawn and its values recomputed from
 * the pixels by the same code the expert's viewer used (measurements.ts), so they read the same.
 */

/** The viewer's measurement for a param, on `slice`. */
export function measurementOf(param: MeasureParam, slice: Slice): Measurement {
  return {
    sliceKey: sliceKey(slice),
    kind: param.kind,
    points: param.points.map(([x, y]) => ({ x, y })),
  }
}

/** What the viewer shows when 附到意见 is tapped. */
export interface PinSource {
  fieldId: string
  examId: string
  studyUid: string
  seriesUid: string
  slice: Slice
  /** 0-based position in the stack (the label's 第 n 层 counts from 1, as 图像 n/N). */
  index: number
  /** The shown slice's own pixels (an ellipse's statistics), null while they load. */
  pixels: PixelData | null
  /** Every measurement: the latest one on the shown slice is pinned. */
  measurements: Measurement[]
}

const LABEL_MAX = 80

/** The pin of the shown slice and its latest measurement (TID 1500's content, no SR object). */
export function buildPin(source: PinSource): ImagePin {
  const { slice, pixels, index } = source
  const key = sliceKey(slice)
  const latest = source.measurements.filter((m) => m.sliceKey === key).pop() ?? null
  const where = `第 ${index + 1} 层`
  const label = latest ? `${where} · ${shortLabel(slice.info, pixels, latest)}` : where
  return {
    id: guid(32),
    fieldId: source.fieldId,
    examId: source.examId,
    studyUid: source.studyUid,
    seriesUid: source.seriesUid,
    sop: slice.info.sopInstanceUid,
    frame: slice.frame,
    measurement: latest
      ? {
          kind: latest.kind,
          points: latest.points.map((p): ImagePoint => [p.x, p.y]),
          values: pinnedValues(slice.info, pixels, latest),
        }
      : null,
    label: label.slice(0, LABEL_MAX),
  }
}

/** 附到意见: the pin handed over to the opinion page, then back to it. Answers the pin. */
export function attachToOpinion(source: PinSource): ImagePin {
  const pin = buildPin(source)
  handOverPin(pin)
  void backToOpinion()
  return pin
}

/**
 * Back to the page that asked for the pin: past the viewer and the shared 影像详情 it was opened
 * from (the expert's path through a grant is opinion → shareExam → viewer), else one page back.
 */
export async function backToOpinion(): Promise<void> {
  const openers = new Set([routeByName('shareExam').path])
  let pages: { route?: string; path?: string }[] = []
  try {
    pages = Taro.getCurrentPages() as { route?: string; path?: string }[]
  } catch {
    // H5 before its router has a stack (component tests): one page back.
  }
  let delta = 1
  while (delta < pages.length - 1) {
    const below = pages[pages.length - 1 - delta]!
    const route = findRoute(below.route ?? below.path ?? '')
    if (!route || !openers.has(route.path)) break
    delta += 1
  }
  if (delta > 1) {
    try {
      await Taro.navigateBack({ delta })
      return
    } catch {
      // Fall through to the ordinary back.
    }
  }
  await back()
}
