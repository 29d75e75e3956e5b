import { canvasNode, offscreenCanvas, pixelRatio, type SizedCanvas } from '@/platform/canvas'
import {
  imageFor,
  type ImageDataContext,
  type PixelData,
  type Renderer,
  type WindowLevel,
} from '../core'
import { imageTransform, type ScreenPoint, type Size, type Viewport } from '../viewport'

/**
 * Draws the viewer's stage on a `Canvas type="2d"` of either platform: the frame is rendered at the
 * image's own size into an off-screen canvas (putImageData ignores transforms), which is then drawn
 * onto the visible canvas through the view transform, then the measurements on top in screen
 * pixels. A W/L change re-renders the frame; a zoom or pan only redraws the off-screen image.
 */

/** What the viewer needs of a 2D context; the DOM's and the mini-program's Canvas 2D both have it. */
export interface StageContext extends ImageDataContext {
  setTransform(a: number, b: number, c: number, d: number, e: number, f: number): void
  fillRect(x: number, y: number, width: number, height: number): void
  drawImage(image: unknown, x: number, y: number): void
  beginPath(): void
  moveTo(x: number, y: number): void
  lineTo(x: number, y: number): void
  arc(x: number, y: number, radius: number, start: number, end: number): void
  stroke(): void
  fill(): void
  fillText(text: string, x: number, y: number): void
  fillStyle: unknown
  strokeStyle: unknown
  lineWidth: number
  font: string
  imageSmoothingEnabled: boolean
}

/** A measurement already mapped to the screen: a polyline with a label at its end. */
export interface ScreenShape {
  points: ScreenPoint[]
  label: string | null
  active: boolean
}

export interface Painter {
  readonly view: Size
  /** Renders the frame into the off-screen image (the W/L step). */
  renderFrame(renderer: Renderer, pixels: PixelData, window: WindowLevel, invert: boolean): void
  /** Composes the stage: black, the image through the viewport, the shapes. */
  compose(viewport: Viewport, shapes: ScreenShape[]): void
  /** Whether a frame has been rendered into the off-screen image since it was sized. */
  readonly hasFrame: boolean
}

const ACCENT = '#0DB4AA'
const ACTIVE = '#ffd54a'

export async function createPainter(id: string, image: Size): Promise<Painter | null> {
  const found = await canvasNode(id)
  if (!found || found.width <= 0 || found.height <= 0) return null
  const context = found.canvas.getContext('2d') as StageContext | null
  const backing: SizedCanvas | null = offscreenCanvas(image.width, image.height)
  const backingContext = backing?.getContext('2d') as StageContext | null | undefined
  if (!context || !backing || !backingContext) return null
  const ratio = Math.min(3, pixelRatio())
  const view = { width: found.width, height: found.height }
  found.canvas.width = Math.round(view.width * ratio)
  found.canvas.height = Math.round(view.height * ratio)
  let hasFrame = false

  return {
    view,
    get hasFrame() {
      return hasFrame
    },
    renderFrame(renderer, pixels, window, invert) {
      const target = imageFor(backingContext, image.width, image.height)
      renderer.render(pixels, window, invert, target.data)
      backingContext.putImageData(target, 0, 0)
      hasFrame = true
    },
    compose(viewport, shapes) {
      context.setTransform(1, 0, 0, 1, 0, 0)
      context.fillStyle = '#000'
      context.fillRect(0, 0, found.canvas.width, found.canvas.height)
      if (hasFrame) {
        const [a, b, c, d, e, f] = imageTransform(viewport, view, image)
        context.setTransform(a * ratio, b * ratio, c * ratio, d * ratio, e * ratio, f * ratio)
        // Enlarged pixels stay square (a radiologist wants to see them); smoothing when reduced.
        context.imageSmoothingEnabled = viewport.scale < 2
        context.drawImage(backing, 0, 0)
      }
      context.setTransform(ratio, 0, 0, ratio, 0, 0)
      for (const shape of shapes) drawShape(context, shape)
    },
  }
}

function drawShape(context: StageContext, shape: ScreenShape): void {
  const colour = shape.active ? ACTIVE : ACCENT
  context.strokeStyle = colour
  context.fillStyle = colour
  context.lineWidth = 2
  context.beginPath()
  shape.points.forEach((p, i) => (i === 0 ? context.moveTo(p.x, p.y) : context.lineTo(p.x, p.y)))
  context.stroke()
  for (const p of shape.points) {
    context.beginPath()
    context.arc(p.x, p.y, 4, 0, Math.PI * 2)
    context.fill()
  }
  const end = shape.points[shape.points.length - 1]
  if (shape.label && end) {
    context.font = '14px sans-serif'
    context.fillText(shape.label, end.x + 8, end.y - 8)
  }
}
