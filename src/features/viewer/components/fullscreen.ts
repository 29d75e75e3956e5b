/**
 * 横屏全屏 in a browser: the Fullscreen API, then a landscape lock where the browser allows one
 * (Android Chrome in full screen). iOS Safari and WeChat's browser have neither: the viewer then
 * fills the page turned 90° with CSS (hooks/use-fullscreen.ts). The mini-program turns the
 * page with the phone through `pageOrientation: 'auto'` in the page config, so there is nothing
 * to call there: both functions are capability checks, not platform checks.
 */

interface FullscreenDocument {
  documentElement?: { requestFullscreen?: () => Promise<void> }
  fullscreenElement?: unknown
  exitFullscreen?: () => Promise<void>
}

interface LockableScreen {
  orientation?: { lock?: (orientation: string) => Promise<void>; unlock?: () => void }
}

function doc(): FullscreenDocument | null {
  return typeof document === 'undefined' ? null : (document as unknown as FullscreenDocument)
}

function orientation() {
  return typeof screen === 'undefined'
    ? undefined
    : (screen as unknown as LockableScreen).orientation
}

/**
 * Answers whether the browser turned to landscape by itself; false where it has no way to (then
 * the viewer turns itself with CSS). A missing API is not a success.
 */
export async function enterFullscreen(): Promise<boolean> {
  const root = doc()?.documentElement
  if (root?.requestFullscreen) {
    try {
      await root.requestFullscreen()
    } catch {
      return false
    }
  }
  const screenOrientation = orientation()
  if (!screenOrientation?.lock) return false
  try {
    await screenOrientation.lock('landscape')
    return true
  } catch {
    return false
  }
}

export async function exitFullscreen(): Promise<void> {
  try {
    orientation()?.unlock?.()
  } catch {
    // Nothing was locked.
  }
  const d = doc()
  if (d?.fullscreenElement && d.exitFullscreen) await d.exitFullscreen().catch(() => undefined)
}
