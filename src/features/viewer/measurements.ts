import type { PinnedMeasurement } from '@contract/main/opinions'
import {
  measureAngle,
  measureDistance,
  measureEllipse,
  type EllipseStats,
  type ImageInfo,
  type PixelData,
  type Point,
} from './core'
import type { ScreenShape } from './components/painter'
import { sliceKey, type Slice } from './hooks/frame-loader'
import { imageSize, type Measurement, type ViewState } from './view-state'
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

/** A modality value as read: whole numbers as they are, others to 0.1. */
function value(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1)
}

function meanText(stats: EllipseStats): string | null {
  if (stats.mean === null || stats.sd === null) return null
  return `${stats.mean.toFixed(1)} ± ${stats.sd.toFixed(1)}${stats.unit ? ` ${stats.unit}` : ''}`
}

function areaText(stats: EllipseStats): string {
  if (stats.areaMm2 === null) return `${stats.pixels} 像素`
  return `${stats.approximate ? '约 ' : ''}${stats.areaMm2.toFixed(1)} mm²`
}

/**
 * An ellipse ROI's label, two lines: 均值 mean ± SD (HU for CT, the stored scale otherwise), then
 * 最小/最大 and the area (mm², 约 mm², or the pixel count without spacing). While the frame
 * loads, and for RGB, the area alone.
 */
export function ellipseLabel(
  info: ImageInfo,
  pixels: PixelData | null,
  points: Point[],
): string | null {
  if (points.length < 2) return null
  const stats = measureEllipse(info, pixels, points[0]!, points[1]!)
  const mean = meanText(stats)
  const area = `面积 ${areaText(stats)}`
  if (mean === null || stats.min === null || stats.max === null) return area
  const unit = stats.unit ? ` ${stats.unit}` : ''
  return `均值 ${mean}\n最小 ${value(stats.min)} 最大 ${value(stats.max)}${unit} · ${area}`
}

export function measurementLabel(
  info: ImageInfo,
  pixels: PixelData | null,
  m: Pick<Measurement, 'kind' | 'points'>,
): string | null {
  switch (m.kind) {
    case 'distance':
      return distanceLabel(info, m.points)
    case 'angle':
      return angleLabel(m.points)
    case 'ellipse':
      return ellipseLabel(info, pixels, m.points)
  }
}

/** Between an ellipse and its label, CSS pixels. */
const LABEL_GAP_PX = 8

/** Segments of a drawn ellipse: smooth at any zoom a phone shows. */
const ELLIPSE_SEGMENTS = 64

/**
 * The ellipse as a closed polyline in image pixels: the screen maps it by the viewport (rotation
 * and flip included) exactly as it maps the image.
 */
export function ellipseOutline(a: Point, b: Point): Point[] {
  const cx = (a.x + b.x) / 2
  const cy = (a.y + b.y) / 2
  const rx = Math.abs(b.x - a.x) / 2
  const ry = Math.abs(b.y - a.y) / 2
  return Array.from({ length: ELLIPSE_SEGMENTS + 1 }, (_, i) => {
    const t = (2 * Math.PI * i) / ELLIPSE_SEGMENTS
    return { x: cx + rx * Math.cos(t), y: cy + ry * Math.sin(t) }
  })
}

/**
 * The lines, angles and ellipses of the shown slice and the one being drawn, placed on the screen
 * and labelled (mm, 约 mm, or why there are no mm; degrees; an ellipse's statistics over
 * `pixels`, the shown slice's own), for the overlay canvas.
 */
export function measurementShapes(
  state: Pick<ViewState, 'measurements' | 'draft' | 'viewport' | 'view'>,
  slice: Slice,
  pixels: PixelData | null = null,
): ScreenShape[] {
  const { measurements, draft, viewport, view } = state
  if (!viewport || !view) return []
  const key = sliceKey(slice)
  const image = imageSize(slice)
  const toScreen = (p: Point) => imageToScreen(viewport, view, image, p)
  const all = [...measurements.filter((m) => m.sliceKey === key), ...(draft ? [draft] : [])]
  return all.map((m) => {
    const label = measurementLabel(slice.info, pixels, m)
    if (m.kind !== 'ellipse') {
      return { points: m.points.map(toScreen), label, active: m === draft }
    }
    const outline = ellipseOutline(m.points[0]!, m.points[1]!).map(toScreen)
    // The label under the ellipse as it is on the screen (whatever the turn), clear of what it
    // measures; above it when there is no room below.
    const xs = outline.map((p) => p.x)
    const ys = outline.map((p) => p.y)
    const labelPlace = {
      left: Math.min(...xs),
      below: Math.max(...ys) + LABEL_GAP_PX,
      above: Math.min(...ys) - LABEL_GAP_PX,
    }
    return { points: outline, handles: [], labelPlace, label, active: m === draft }
  })
}

const round2 = (n: number) => Math.round(n * 100) / 100

/**
 * A measurement's numbers as an opinion pin stores them (TID 1500's numeric values): mm, degrees,
 * mm² and HU; null where the image cannot say (no pixel spacing, not CT, no pixels yet).
 */
export function pinnedValues(
  info: ImageInfo,
  pixels: PixelData | null,
  m: Pick<Measurement, 'kind' | 'points'>,
): PinnedMeasurement['values'] {
  const [a, b, c] = m.points
  switch (m.kind) {
    case 'distance': {
      const result = measureDistance(info, a!, b!)
      return { lengthMm: result.mm === null ? null : round2(result.mm) }
    }
    case 'angle':
      return { angleDeg: round2(measureAngle(a!, b!, c!)) }
    case 'ellipse': {
      const stats = measureEllipse(info, pixels, a!, b!)
      const hu = (n: number | null) => (n !== null && stats.unit === 'HU' ? round2(n) : null)
      return {
        areaMm2: stats.areaMm2 === null ? null : round2(stats.areaMm2),
        meanHu: hu(stats.mean),
        sdHu: hu(stats.sd),
        minHu: hu(stats.min),
        maxHu: hu(stats.max),
        pixels: stats.pixels,
      }
    }
  }
}

/** What a pinned sentence's marker says after 第 n 层: 8.2 mm, 32.5°, 45.2 ± 12.1 HU · 113.1 mm². */
export function shortLabel(
  info: ImageInfo,
  pixels: PixelData | null,
  m: Pick<Measurement, 'kind' | 'points'>,
): string {
  const [a, b] = m.points
  switch (m.kind) {
    case 'distance': {
      const result = measureDistance(info, a!, b!)
      if (result.mm === null) return '测距'
      return `${result.approximate ? '约 ' : ''}${result.mm.toFixed(1)} mm`
    }
    case 'angle':
      return angleLabel(m.points) ?? '测角'
    case 'ellipse': {
      const stats = measureEllipse(info, pixels, a!, b!)
      const mean = meanText(stats)
      const area = areaText(stats)
      return mean ? `${stats.unit ? '' : '均值 '}${mean} · ${area}` : `椭圆 ${area}`
    }
  }
}
