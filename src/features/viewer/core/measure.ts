import { modalityValue } from './lut'
import type { ImageInfo, PixelData, Point } from './types'

/**
 * The modality value under image pixel (x, y): HU for CT (through the modality LUT sequence or
 * rescale); the stored
 * index for PALETTE COLOR; null outside the image and for RGB (no single value to give).
 */
export function valueAt(
  info: ImageInfo,
  pixels: PixelData,
  x: number,
  y: number,
): { value: number; unit: 'HU' | '' } | null {
  const column = Math.floor(x)
  const row = Math.floor(y)
  if (!(column >= 0 && row >= 0 && column < info.columns && row < info.rows)) return null
  if (info.samplesPerPixel !== 1) return null
  const stored = pixels[row * info.columns + column]
  if (stored === undefined) return null
  if (info.photometric === 'PALETTE COLOR') return { value: stored, unit: '' }
  const value = modalityValue(info, stored)
  return { value, unit: info.modality?.toUpperCase() === 'CT' ? 'HU' : '' }
}

/**
 * Distance in mm from PixelSpacing (row spacing scales the vertical step, column spacing the
 * horizontal one). ImagerPixelSpacing alone is at the detector, not the patient (magnification):
 * `approximate` (约). Neither: null with the reason to show.
 */
export function measureDistance(
  info: ImageInfo,
  a: Point,
  b: Point,
): { mm: number; approximate: boolean } | { mm: null; reason: string } {
  const spacing = info.pixelSpacing
  if (!spacing) return { mm: null, reason: '该图像未记录像素间距，无法换算为毫米' }
  const dx = (b.x - a.x) * spacing.column
  const dy = (b.y - a.y) * spacing.row
  return { mm: Math.hypot(dx, dy), approximate: spacing.source === 'imager' }
}

/** The angle at `vertex` between the rays to `a` and `b`, in degrees 0..180 (0 if a ray is empty). */
export function measureAngle(a: Point, vertex: Point, b: Point): number {
  const ux = a.x - vertex.x
  const uy = a.y - vertex.y
  const vx = b.x - vertex.x
  const vy = b.y - vertex.y
  if ((ux === 0 && uy === 0) || (vx === 0 && vy === 0)) return 0
  // atan2 of cross and dot stays exact near 0° and 180°, where acos loses digits.
  return (Math.abs(Math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)) * 180) / Math.PI
}

/** What an ellipse ROI holds: the pixels whose centres are inside, their values and its area. */
export interface EllipseStats {
  /** Pixels whose centre (column + 0.5, row + 0.5) is inside the ellipse or on its edge. */
  pixels: number
  /**
   * Over those pixels, the modality value the probe shows (HU for CT); null for RGB (no single
   * value) and when no pixel centre is inside. SD is the population one (divided by n).
   */
  mean: number | null
  sd: number | null
  min: number | null
  max: number | null
  unit: 'HU' | ''
  /** π·a·b in mm² from PixelSpacing; null without any spacing. */
  areaMm2: number | null
  /** Only ImagerPixelSpacing (at the detector): 约. */
  approximate: boolean
}

/**
 * The ellipse whose bounding box has corners `a` and `b` (image pixels): its statistics over the
 * frame's `pixels` (null while they load: area only) and its area.
 */
export function measureEllipse(
  info: ImageInfo,
  pixels: PixelData | null,
  a: Point,
  b: Point,
): EllipseStats {
  const cx = (a.x + b.x) / 2
  const cy = (a.y + b.y) / 2
  const rx = Math.abs(b.x - a.x) / 2
  const ry = Math.abs(b.y - a.y) / 2
  const spacing = info.pixelSpacing
  const unit = info.modality?.toUpperCase() === 'CT' ? 'HU' : ''
  const stats: EllipseStats = {
    pixels: 0,
    mean: null,
    sd: null,
    min: null,
    max: null,
    unit,
    areaMm2: spacing ? Math.PI * rx * spacing.column * ry * spacing.row : null,
    approximate: spacing?.source === 'imager',
  }
  if (rx === 0 || ry === 0) return stats
  const grey = info.samplesPerPixel === 1
  const palette = info.photometric === 'PALETTE COLOR'
  const values: number[] = []
  const firstRow = Math.max(0, Math.ceil(cy - ry - 0.5))
  const lastRow = Math.min(info.rows - 1, Math.floor(cy + ry - 0.5))
  for (let row = firstRow; row <= lastRow; row += 1) {
    const dy = (row + 0.5 - cy) / ry
    const half = rx * Math.sqrt(Math.max(0, 1 - dy * dy))
    const first = Math.max(0, Math.ceil(cx - half - 0.5))
    const last = Math.min(info.columns - 1, Math.floor(cx + half - 0.5))
    if (last < first) continue
    stats.pixels += last - first + 1
    if (!pixels || !grey) continue
    for (let column = first; column <= last; column += 1) {
      const stored = pixels[row * info.columns + column]
      if (stored === undefined) continue
      values.push(palette ? stored : modalityValue(info, stored))
    }
  }
  if (values.length === 0) return stats
  let sum = 0
  let min = Infinity
  let max = -Infinity
  for (const value of values) {
    sum += value
    if (value < min) min = value
    if (value > max) max = value
  }
  const mean = sum / values.length
  // Two passes: the squares of HU around −1000 would lose digits in a one-pass sum.
  let squares = 0
  for (const value of values) squares += (value - mean) * (value - mean)
  return { ...stats, mean, sd: Math.sqrt(squares / values.length), min, max }
}
