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
