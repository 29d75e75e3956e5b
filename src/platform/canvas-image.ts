/**
 * A drawn canvas as an image address, where a page can lay an `<img>` over it for 长按保存 (H5).
 * The mini-program's canvas is a native node without toDataURL: null there, and the page says to
 * use the share card or a screenshot instead.
 */
export function canvasImageUrl(canvasId: string): string | null {
  if (process.env.TARO_ENV === 'weapp' || typeof document === 'undefined') return null
  const host = document.getElementById(canvasId)
  const canvas = host instanceof HTMLCanvasElement ? host : host?.querySelector('canvas')
  if (!canvas || typeof canvas.toDataURL !== 'function') return null
  try {
    const url = canvas.toDataURL('image/png')
    // jsdom (and a browser that refuses) answers without image data.
    return url.startsWith('data:image/png') ? url : null
  } catch {
    return null
  }
}
