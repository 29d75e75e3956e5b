import Taro from '@tarojs/taro'

/**
 * A 2D drawing surface on a `<Canvas type="2d" id={id}>`, on both platforms: the bar code and the
 * exam QR code draw the same rectangles everywhere, never an image made elsewhere.
 *
 * - weapp: the canvas node from a selector query (Canvas 2D API, base library 2.9+).
 * - H5: Taro's Canvas is a `taro-canvas-core` element holding a real `<canvas>`.
 *
 * Either way the backing store is sized to the device's pixel ratio and the context scaled, so the
 * caller draws in CSS pixels and the bars stay sharp on a 3x screen.
 */

/** What drawing needs of a 2D context; both platforms' contexts have it. */
export interface Context2D {
  fillStyle: unknown
  fillRect(x: number, y: number, width: number, height: number): void
  clearRect(x: number, y: number, width: number, height: number): void
  setTransform(a: number, b: number, c: number, d: number, e: number, f: number): void
}

export interface Surface {
  context: Context2D
  /** CSS pixels. */
  width: number
  height: number
}

export interface SizedCanvas {
  width: number
  height: number
  getContext(kind: '2d'): unknown
  /** weapp: the node's CSS size from the selector query (the node's width is its backing store). */
  cssWidth?: number
  cssHeight?: number
}

function pixelRatio(): number {
  if (process.env.TARO_ENV === 'weapp') {
    try {
      const ratio = Taro.getWindowInfo().pixelRatio
      return Number.isFinite(ratio) && ratio > 0 ? ratio : 2
    } catch {
      return 2
    }
  }
  const ratio = typeof window === 'undefined' ? 1 : window.devicePixelRatio
  return Number.isFinite(ratio) && ratio > 0 ? ratio : 1
}

function prepare(canvas: SizedCanvas, width: number, height: number): Surface | null {
  const context = canvas.getContext('2d') as Context2D | null
  if (!context) return null
  const ratio = Math.min(3, pixelRatio())
  canvas.width = Math.round(width * ratio)
  canvas.height = Math.round(height * ratio)
  context.setTransform(ratio, 0, 0, ratio, 0, 0)
  return { context, width, height }
}

function weappNode(id: string): Promise<SizedCanvas | null> {
  return new Promise((resolve) => {
    Taro.createSelectorQuery()
      .select(`#${id}`)
      .fields({ node: true, size: true })
      .exec((result: unknown[] | null) => {
        const first = result?.[0] as
          { node?: SizedCanvas; width?: number; height?: number } | null | undefined
        const node = first?.node ?? null
        if (node) {
          node.cssWidth = first?.width
          node.cssHeight = first?.height
        }
        resolve(node)
      })
  })
}

function domCanvas(id: string): SizedCanvas | null {
  if (typeof document === 'undefined') return null
  const host = document.getElementById(id)
  if (!host) return null
  if (host instanceof HTMLCanvasElement) return host
  return host.querySelector('canvas')
}

// The mini-program draws React's tree a setData later than the effect runs: look for up to 1 s.
const ATTEMPTS = 10
const RETRY_MS = 100

/**
 * The raw canvas node with that id (looked for a few times, as for a surface) and its CSS size,
 * for drawing that needs more than rectangles (the image viewer: ImageData, paths).
 */
export async function canvasNode(
  id: string,
): Promise<{ canvas: SizedCanvas; width: number; height: number } | null> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    if (process.env.TARO_ENV === 'weapp') {
      const found = await weappNode(id)
      if (found) return { canvas: found, width: found.cssWidth ?? 0, height: found.cssHeight ?? 0 }
    } else {
      const canvas = domCanvas(id) as HTMLCanvasElement | null
      if (canvas) {
        // The layout size, which a CSS transform (the viewer turned to landscape) does not
        // change; the bounding box would be the turned one. jsdom has no layout: the box then.
        if (canvas.clientWidth > 0 && canvas.clientHeight > 0)
          return { canvas, width: canvas.clientWidth, height: canvas.clientHeight }
        const rect = canvas.getBoundingClientRect()
        return { canvas, width: rect.width, height: rect.height }
      }
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS))
  }
  return null
}

export { pixelRatio }

/**
 * The surface of the canvas with that id, `width` × `height` CSS pixels, or null when the platform
 * gives none (it is looked for a few times: the node appears a frame after the first render).
 */
export async function canvasSurface(
  id: string,
  width: number,
  height: number,
): Promise<Surface | null> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const canvas = process.env.TARO_ENV === 'weapp' ? await weappNode(id) : domCanvas(id)
    if (canvas) return prepare(canvas, width, height)
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS))
  }
  return null
}
