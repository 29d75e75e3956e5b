import Taro from '@tarojs/taro'
import {
  MEASUREMENT_KINDS,
  type ImagePin,
  type ImagePoint,
  type MeasurementKind,
} from '@contract/main/opinions'

/*
 * The pin protocol between the viewer and the page that asks for a pin (pin.ts says how it is
 * used): the event that carries a pin back, and the `measure` param of show mode. Light on
 * purpose: the opinion page imports it, and it must not pull the viewer's render core into that
 * page's package.
 */

/** Taro's event centre carries a pin from the viewer back to the opinion page that opened it. */
export const OPINION_PIN_EVENT = 'viewer:opinion-pin'

export function handOverPin(pin: ImagePin): void {
  Taro.eventCenter.trigger(OPINION_PIN_EVENT, pin)
}

/** Listens for pins handed over; answers the function that stops listening. */
export function onPinHandedOver(listener: (pin: ImagePin) => void): () => void {
  const handler = (pin: ImagePin) => listener(pin)
  Taro.eventCenter.on(OPINION_PIN_EVENT, handler)
  return () => Taro.eventCenter.off(OPINION_PIN_EVENT, handler)
}

/** What a `measure` param carries: the kind and the points, in image pixels. */
export interface MeasureParam {
  kind: MeasurementKind
  points: ImagePoint[]
}

const POINT_COUNT: Record<MeasurementKind, number> = { distance: 2, angle: 3, ellipse: 2 }
/** Beyond any image's size (DICOM rows and columns are 16-bit): a hand-edited link, ignored. */
const MAX_COORDINATE = 65536

const tenth = (n: number) => String(Math.round(n * 10) / 10)

/** `ellipse:120.5,88;140,102` (`<kind>:<x>,<y>;<x>,<y>[;<x>,<y>]`, image pixels to 0.1). */
export function encodeMeasureParam(m: MeasureParam): string {
  return `${m.kind}:${m.points.map(([x, y]) => `${tenth(x)},${tenth(y)}`).join(';')}`
}

/** The measurement a `measure` param names, or null for anything else (it is then not drawn). */
export function decodeMeasureParam(text: string | undefined): MeasureParam | null {
  const match = /^([a-z]+):([^:]*)$/.exec(text?.trim() ?? '')
  if (!match) return null
  const kind = MEASUREMENT_KINDS.find((k) => k === match[1])
  if (!kind) return null
  const points: ImagePoint[] = []
  for (const pair of match[2]!.split(';')) {
    const parts = pair.split(',')
    if (parts.length !== 2 || parts.some((part) => !/^-?\d+(\.\d+)?$/.test(part.trim()))) {
      return null
    }
    const [x, y] = parts.map(Number) as [number, number]
    if (Math.abs(x) > MAX_COORDINATE || Math.abs(y) > MAX_COORDINATE) return null
    points.push([x, y])
  }
  return points.length === POINT_COUNT[kind] ? { kind, points } : null
}

/** The viewer's params for a pin (show mode); add `grantId` when the exam is seen through a grant. */
export interface PinViewerParams {
  examId: string
  studyUid: string
  seriesUid: string
  sop: string
  frame: number
  measure?: string
}

export function pinViewerParams(pin: ImagePin): PinViewerParams {
  return {
    examId: pin.examId,
    studyUid: pin.studyUid,
    seriesUid: pin.seriesUid,
    sop: pin.sop,
    frame: pin.frame,
    ...(pin.measurement
      ? {
          measure: encodeMeasureParam({
            kind: pin.measurement.kind,
            points: pin.measurement.points,
          }),
        }
      : {}),
  }
}
