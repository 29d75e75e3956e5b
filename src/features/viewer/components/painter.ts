import { canvasNode, pixelRatio } from '@/platform/canvas'
import { THEME } from '@/theme'
import {
  imageFor,
  type ImageDataContext,
  type PixelData,
  type Renderer,
  type WindowLevel,
} from '../core'
import { imageTransform, type ScreenPoint, type Size, type Viewport } from '../viewport'

/**
 * Draws the viewer's stage on two `Canvas type="2d"` of either platform:
 * - the image canvas holds the frame at the image's own size (one canvas pixel per image pixel):
 *   a W/L change is render() + putImageData and nothing else; zoom, pan, rotation and flip are a
 *   CSS transform of that canvas (`imageStyle`), so they redraw nothing at all;
 * - the overlay canvas, the stage's size at the device's pixel ratio, holds the measurements,
 *   drawn only when they change.
 * Scaling a 512² frame onto a 390-wide canvas at 3× with drawImage cost more than the W/L render
 * itself; the compositor does that scaling for free.
 */

/** What the viewer needs of a 2D context; the DOM's and the mini-program's Canvas 2D both have it. */
export interface StageContext extends ImageDataContext {
  setTransform(a: number, b: number, c: number, d: number, e: number, f: number): void
  clearRect(x: number, y: number, width: number, height: number): void
  beginPath(): void
  moveTo(x: number, y: number): void
  lineTo(x: number, y: number): void
  arc(x: number, y: number, radius: number, start: number, end: number): void
  stroke(): void
  fill(): void
  fillText(text: string, x: number, y: number): void
  fillRect(x: number, y: number, width: number, height: number): void
  measureText(text: string): { width: number }
  fillStyle: unknown
  strokeStyle: unknown
  lineWidth: number
  font: string
}

/** A measurement already mapped to the screen: a polyline with a label at its end. */
export interface ScreenShape {
  /** The polyline (an ellipse: its outline, closed). */
  points: ScreenPoint[]
  /** Where the dots go; default every point (a line's ends, an angle's three). */
  handles?: ScreenPoint[]
  /**
   * Where the label goes: its left edge, and its top at `below` (under the shape) or, when that
   * would leave the stage, its bottom at `above`. Default: beside the last point.
   */
  labelPlace?: { left: number; below: number; above: number }
  /** Lines separated by \n. */
  label: string | null
  active: boolean
}

export interface Painter {
  /** The stage's size, CSS pixels. */
  readonly view: Size
  /** The image's size: the image canvas's pixels. */
  readonly image: Size
  /** Renders the frame onto the image canvas (the W/L step, and a slice change). */
  renderFrame(renderer: Renderer, pixels: PixelData, window: WindowLevel, invert: boolean): void
  /** Draws the measurements on the overlay canvas (cleared first). */
  drawShapes(shapes: ScreenShape[]): void
  /** Whether a frame has been rendered since the painter was made. */
  readonly hasFrame: boolean
}

const ACCENT = THEME.primary
const ACTIVE = '#ffd54a'

/** Past this many screen pixels per image pixel, pixels are shown square (not blurred). */
export const PIXELATED_FROM_SCALE = 2

/**
 * The image canvas's style for a viewport: its CSS box is the image's size at the stage's top
 * left, moved by the same matrix a canvas would have drawn it through (viewport.ts). Enlarged
 * pixels stay square (a radiologist wants to see them); reduced ones are smoothed.
 */
export function imageStyle(
  viewport: Viewport | null,
  view: Size | null,
  image: Size,
): Record<string, string> {
  const box = { width: `${image.width}px`, height: `${image.height}px` }
  if (!viewport || !view) return { ...box, visibility: 'hidden' }
  const m = imageTransform(viewport, view, image).map((n) => Number(n.toFixed(6)))
  return {
    ...box,
    transformOrigin: '0 0',
    transform: `matrix(${m.join(',')})`,
    imageRendering: viewport.scale >= PIXELATED_FROM_SCALE ? 'pixelated' : 'auto',
  }
}

export async function createPainter(
  imageId: string,
  overlayId: string,
  image: Size,
): Promise<Painter | null> {
  const [imageNode, overlayNode] = await Promise.all([canvasNode(imageId), canvasNode(overlayId)])
  if (!imageNode || !overlayNode || overlayNode.width <= 0 || overlayNode.height <= 0) return null
  const imageContext = imageNode.canvas.getContext('2d') as StageContext | null
  const overlay = overlayNode.canvas.getContext('2d') as StageContext | null
  if (!imageContext || !overlay) return null
  imageNode.canvas.width = image.width
  imageNode.canvas.height = image.height
  const ratio = Math.min(3, pixelRatio())
  const view = { width: overlayNode.width, height: overlayNode.height }
  overlayNode.canvas.width = Math.round(view.width * ratio)
  overlayNode.canvas.height = Math.round(view.height * ratio)
  let hasFrame = false
  let hadShapes = true

  return {
    view,
    image,
    get hasFrame() {
      return hasFrame
    },
    renderFrame(renderer, pixels, window, invert) {
      const target = imageFor(imageContext, image.width, image.height)
      renderer.render(pixels, window, invert, target.data)
      imageContext.putImageData(target, 0, 0)
      hasFrame = true
    },
    drawShapes(shapes) {
      // Nothing drawn and nothing to draw: leave the canvas alone (most W/L drags and pans).
      if (shapes.length === 0 && !hadShapes) return
      hadShapes = shapes.length > 0
      overlay.setTransform(1, 0, 0, 1, 0, 0)
      overlay.clearRect(0, 0, overlayNode.canvas.width, overlayNode.canvas.height)
      overlay.setTransform(ratio, 0, 0, ratio, 0, 0)
      for (const shape of shapes) drawShape(overlay, shape, view)
    },
  }
}

const LABEL_FONT_PX = 14
const LABEL_LINE_PX = 18
const LABEL_MARGIN_PX = 4
const LABEL_PAD_PX = 4
const LABEL_BACKING = 'rgba(0, 0, 0, 0.6)'

function clamp(value: number, low: number, high: number): number {
  return Math.max(low, Math.min(value, high))
}

function drawShape(context: StageContext, shape: ScreenShape, view: Size): void {
  const colour = shape.active ? ACTIVE : ACCENT
  context.strokeStyle = colour
  context.fillStyle = colour
  context.lineWidth = 2
  context.beginPath()
  shape.points.forEach((p, i) => (i === 0 ? context.moveTo(p.x, p.y) : context.lineTo(p.x, p.y)))
  context.stroke()
  for (const p of shape.handles ?? shape.points) {
    context.beginPath()
    context.arc(p.x, p.y, 4, 0, Math.PI * 2)
    context.fill()
  }
  const end = shape.points[shape.points.length - 1]
  if (!shape.label || !end) return
  context.font = `${LABEL_FONT_PX}px sans-serif`
  const lines = shape.label.split('\n')
  const width = Math.max(...lines.map((line) => context.measureText(line).width))
  const height = lines.length * LABEL_LINE_PX
  const place = shape.labelPlace
  const wanted = place
    ? {
        left: place.left,
        top:
          place.below + height <= view.height - LABEL_MARGIN_PX
            ? place.below
            : place.above - height,
      }
    : { left: end.x + 8, top: end.y - 8 - LABEL_FONT_PX }
  // Kept on the stage: a label cut off at the edge cannot be read.
  const inset = LABEL_MARGIN_PX + LABEL_PAD_PX
  const left = clamp(wanted.left, inset, view.width - width - inset)
  const top = clamp(wanted.top, inset, view.height - height - inset)
  // A dark backing, as the overlay texts' outline: readable on bone and on a lung window alike.
  context.fillStyle = LABEL_BACKING
  context.fillRect(
    left - LABEL_PAD_PX,
    top - LABEL_PAD_PX,
    width + 2 * LABEL_PAD_PX,
    height + LABEL_PAD_PX,
  )
  context.fillStyle = colour
  lines.forEach((line, i) => context.fillText(line, left, top + LABEL_FONT_PX + i * LABEL_LINE_PX))
}
