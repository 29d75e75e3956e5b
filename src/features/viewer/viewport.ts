/**
 * The view transform of the viewer: where the image sits on the canvas. Pure functions over a small
 * value, so gestures, drawing, measuring and the pixel probe all agree on one mapping and it can be
 * tested without a canvas.
 *
 * Image coordinates are (column, row) pixel positions of the image; screen coordinates are CSS
 * pixels of the view, origin at its top left, y down. The mapping of an image point p is
 *   screen = viewCentre + offset + scale · R(rotation) · F(flip) · (p − imageCentre)
 * with R a clockwise rotation (y down) and F a left–right mirror in image space.
 */

export interface Size {
  width: number
  height: number
}

export interface ScreenPoint {
  x: number
  y: number
}

/** The stage's box on screen (getBoundingClientRect: after any CSS transform). */
export interface StageBox {
  left: number
  top: number
  width: number
  height: number
}

/**
 * A client (window) point in the stage's own CSS pixels. Turned (横屏全屏 by CSS: the viewer
 * rotated 90° clockwise), the stage's x axis runs down the screen and its y axis to the left,
 * from the box's top right corner.
 */
export function clientToStage(point: ScreenPoint, box: StageBox, turned: boolean): ScreenPoint {
  if (!turned) return { x: point.x - box.left, y: point.y - box.top }
  return { x: point.y - box.top, y: box.left + box.width - point.x }
}

export type Rotation = 0 | 90 | 180 | 270

export interface Viewport {
  /** Screen pixels per image pixel. */
  scale: number
  /** Where the image centre is, relative to the view centre (screen pixels). */
  offsetX: number
  offsetY: number
  /** Clockwise, as the person sees it turn. */
  rotation: Rotation
  /** Mirrored left–right in image space (applied before the rotation). */
  flipped: boolean
}

/** Past these the image is a dot or one pixel fills the screen: neither helps anyone read it. */
export const MIN_ZOOM_OF_FIT = 0.25
export const MAX_SCALE = 32

function turns(rotation: Rotation): { cos: number; sin: number } {
  switch (rotation) {
    case 90:
      return { cos: 0, sin: 1 }
    case 180:
      return { cos: -1, sin: 0 }
    case 270:
      return { cos: 0, sin: -1 }
    default:
      return { cos: 1, sin: 0 }
  }
}

/** The image's size as it stands on screen (width and height swap at 90° and 270°). */
export function rotatedSize(image: Size, rotation: Rotation): Size {
  return rotation === 90 || rotation === 270
    ? { width: image.height, height: image.width }
    : { width: image.width, height: image.height }
}

/** The scale at which the whole image fits the view. */
export function fitScale(view: Size, image: Size, rotation: Rotation = 0): number {
  const size = rotatedSize(image, rotation)
  if (size.width <= 0 || size.height <= 0 || view.width <= 0 || view.height <= 0) return 1
  return Math.min(view.width / size.width, view.height / size.height)
}

/** Fitted and centred, keeping the rotation and flip (double tap). */
export function fit(view: Size, image: Size, current?: Viewport): Viewport {
  const rotation = current?.rotation ?? 0
  return {
    scale: fitScale(view, image, rotation),
    offsetX: 0,
    offsetY: 0,
    rotation,
    flipped: current?.flipped ?? false,
  }
}

/** Fitted, centred, upright, unmirrored (复位). */
export function initialViewport(view: Size, image: Size): Viewport {
  return fit(view, image)
}

/** The canvas transform (a, b, c, d, e, f) that draws the image at 0,0 where it belongs. */
export function imageTransform(
  viewport: Viewport,
  view: Size,
  image: Size,
): [number, number, number, number, number, number] {
  const { cos, sin } = turns(viewport.rotation)
  const fx = viewport.flipped ? -1 : 1
  const s = viewport.scale
  const a = s * cos * fx
  const b = s * sin * fx
  const c = -s * sin
  const d = s * cos
  const cx = image.width / 2
  const cy = image.height / 2
  const e = view.width / 2 + viewport.offsetX - (a * cx + c * cy)
  const f = view.height / 2 + viewport.offsetY - (b * cx + d * cy)
  return [a, b, c, d, e, f]
}

export function imageToScreen(
  viewport: Viewport,
  view: Size,
  image: Size,
  point: ScreenPoint,
): ScreenPoint {
  const [a, b, c, d, e, f] = imageTransform(viewport, view, image)
  return { x: a * point.x + c * point.y + e, y: b * point.x + d * point.y + f }
}

export function screenToImage(
  viewport: Viewport,
  view: Size,
  image: Size,
  point: ScreenPoint,
): ScreenPoint {
  const [a, b, c, d, e, f] = imageTransform(viewport, view, image)
  const det = a * d - b * c
  const x = point.x - e
  const y = point.y - f
  return { x: (d * x - c * y) / det, y: (-b * x + a * y) / det }
}

/** The image pixel (column, row) under a screen point, or null outside the image. */
export function pixelAt(
  viewport: Viewport,
  view: Size,
  image: Size,
  point: ScreenPoint,
): ScreenPoint | null {
  const p = screenToImage(viewport, view, image, point)
  const x = Math.floor(p.x)
  const y = Math.floor(p.y)
  if (x < 0 || y < 0 || x >= image.width || y >= image.height) return null
  return { x, y }
}

function clampScale(scale: number, view: Size, image: Size, rotation: Rotation): number {
  const min = fitScale(view, image, rotation) * MIN_ZOOM_OF_FIT
  return Math.min(MAX_SCALE, Math.max(min, scale))
}

/**
 * Zoomed by `factor` around a screen point (the fingers' midpoint, the mouse): the image point under
 * it stays under it.
 */
export function zoomAt(
  viewport: Viewport,
  view: Size,
  image: Size,
  factor: number,
  at: ScreenPoint,
): Viewport {
  if (!Number.isFinite(factor) || factor <= 0) return viewport
  const scale = clampScale(viewport.scale * factor, view, image, viewport.rotation)
  const ratio = scale / viewport.scale
  const px = at.x - view.width / 2
  const py = at.y - view.height / 2
  return {
    ...viewport,
    scale,
    offsetX: px - (px - viewport.offsetX) * ratio,
    offsetY: py - (py - viewport.offsetY) * ratio,
  }
}

export function pan(viewport: Viewport, dx: number, dy: number): Viewport {
  return { ...viewport, offsetX: viewport.offsetX + dx, offsetY: viewport.offsetY + dy }
}

/** Turned 90° clockwise about the view centre. */
export function rotateClockwise(viewport: Viewport): Viewport {
  return {
    ...viewport,
    rotation: ((viewport.rotation + 90) % 360) as Rotation,
    offsetX: -viewport.offsetY,
    offsetY: viewport.offsetX,
  }
}

/**
 * Mirrored left–right as the person sees it, whatever the rotation: mirroring the screen x of
 * R(θ)·F equals R(−θ)·F' (the other flip), so the rotation changes sign with the flip.
 */
export function flipHorizontal(viewport: Viewport): Viewport {
  return {
    ...viewport,
    rotation: ((360 - viewport.rotation) % 360) as Rotation,
    flipped: !viewport.flipped,
    offsetX: -viewport.offsetX,
  }
}

const NICE_MM = [1, 2, 5, 10, 20, 50, 100, 200, 500]

/**
 * The longest round length (1, 2, 5, 10 … mm) whose bar is at most `maxPx` screen pixels long at
 * this scale, for the overlay's scale bar; null without a spacing or when not even 1 mm fits.
 */
export function scaleBar(
  columnSpacingMm: number | null,
  scale: number,
  maxPx: number,
): { mm: number; px: number } | null {
  if (!columnSpacingMm || columnSpacingMm <= 0 || scale <= 0) return null
  const pxPerMm = scale / columnSpacingMm
  let best: { mm: number; px: number } | null = null
  for (const mm of NICE_MM) {
    const px = mm * pxPerMm
    if (px <= maxPx) best = { mm, px }
  }
  return best
}
