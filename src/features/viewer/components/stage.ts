import Taro from '@tarojs/taro'
import { isBrowser } from '@/platform/runtime'
import type { StageBox } from '../viewport'

/** The element that takes the viewer's touches (and, in a browser, the mouse). */
export const STAGE_ID = 'image-viewer-stage'
/** The image at its own size (CSS-transformed); the measurements on the overlay above it. */
export const CANVAS_ID = 'image-viewer-canvas'
export const OVERLAY_ID = 'image-viewer-overlay'

/**
 * The stage as a real DOM element (H5), else null: the mini-program's runtime has a `document`
 * too, whose elements have no layout (no getBoundingClientRect) and no mouse.
 */
export function domStage(): HTMLElement | null {
  if (typeof document === 'undefined') return null
  const element = document.getElementById(STAGE_ID) as HTMLElement | null
  return element && typeof element.getBoundingClientRect === 'function' ? element : null
}

/**
 * Measures the stage's box on screen into `box`: at once in a browser, by a selector query in
 * the mini-program (its touches are page coordinates, so only the corner is needed there).
 */
export function measureStage(box: { current: StageBox }): void {
  const element = domStage()
  if (element) {
    const rect = element.getBoundingClientRect()
    box.current = { left: rect.left, top: rect.top, width: rect.width, height: rect.height }
    return
  }
  Taro.createSelectorQuery()
    .select(`#${STAGE_ID}`)
    .boundingClientRect((rect) => {
      const found = (Array.isArray(rect) ? rect[0] : rect) as { left?: number; top?: number } | null
      if (found) box.current = { left: found.left ?? 0, top: found.top ?? 0, width: 0, height: 0 }
    })
    .exec()
}

/**
 * Whether the browser window is taller than wide (H5), where 横屏全屏 turns the viewer with CSS
 * when the browser cannot turn itself; the mini-program turns the page (pageOrientation: 'auto').
 */
export function portraitWindow(): { width: number; height: number } | null {
  if (!isBrowser() || typeof globalThis.innerWidth !== 'number') return null
  const { innerWidth: width, innerHeight: height } = globalThis
  return width > 0 && height > width ? { width, height } : null
}
