import { measureAngle, measureDistance, type ImageInfo, type Point } from './core'
import type { ScreenShape } from './components/painter'
import { sliceKey, type Slice } from './hooks/frame-loader'
import { imageSize, type ViewState } from './view-state'
import { imageToScreen } from './viewport'

export function distanceLabel(info: ImageInfo, points: Point[]): string | null {
  if (points.length < 2) return null
  const result = measureDistance(info, points[0]!, points[1]!)
  if (result.mm === null) return result.reason
  return `${result.approximate ? '约 ' : ''}${result.mm.toFixed(1)} mm`
}

export function angleLabel(points: Point[]): string | null {
  if (points.length < 3) return null
  return `${measureAngle(points[0]!, points[1]!, points[2]!).toFixed(1)}°`
}

/**
 * The lines and angles of the shown slice and the one being drawn, placed on the screen and
 * labelled (mm, 约 mm, or why there are no mm; degrees), for the overlay canvas.
 */
export function measurementShapes(
  state: Pick<ViewState, 'measurements' | 'draft' | 'viewport' | 'view'>,
  slice: Slice,
): ScreenShape[] {
  const { measurements, draft, viewport, view } = state
  if (!viewport || !view) return []
  const key = sliceKey(slice)
  const image = imageSize(slice)
  const all = [...measurements.filter((m) => m.sliceKey === key), ...(draft ? [draft] : [])]
  return all.map((m) => ({
    points: m.points.map((p) => imageToScreen(viewport, view, image, p)),
    label: m.kind === 'distance' ? distanceLabel(slice.info, m.points) : angleLabel(m.points),
    active: m === draft,
  }))
}
