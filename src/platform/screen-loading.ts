import { hideLoading, showLoading, showModal } from './ui'

/**
 * SPEC section 9: "Screens load lazily. A screen load times out after 60000 ms (with a loading delay
 * of 200 ms) … a timeout counts as a chunk-load error." On H5 every page is its own webpack chunk,
 * fetched when the page is first opened; this wraps webpack's chunk loader so that
 * - a chunk that takes longer than 200 ms shows 加载中 (a fast one shows nothing, so no flicker);
 * - a chunk that has not arrived after 60000 ms fails as a ChunkLoadError, like one that could not be
 *   fetched at all, instead of leaving a blank page for webpack's own 120 s;
 * - a failed screen offers to load again, since a page whose code never came cannot recover.
 * In the mini-program WeChat downloads subpackages itself, with its own progress and limits.
 */

export const SCREEN_LOAD_TIMEOUT_MS = 60000
export const SCREEN_LOADING_DELAY_MS = 200
export const SCREEN_LOADING_TEXT = '加载中'

/** What webpack calls a chunk that could not be loaded; a timeout is one too. */
export class ScreenLoadError extends Error {
  constructor(
    readonly timedOut: boolean,
    readonly cause?: unknown,
  ) {
    super(timedOut ? 'screen load timed out' : 'screen load failed')
    this.name = 'ChunkLoadError'
  }
}

export interface ScreenLoadUi {
  showLoading: () => void
  hideLoading: () => void
  /** The screen cannot be shown (its code did not arrive in time, or not at all). */
  failed: (error: ScreenLoadError) => void
}

export interface ScreenLoadTimers {
  setTimeout: (callback: () => void, ms: number) => unknown
  clearTimeout: (handle: unknown) => void
}

const realTimers: ScreenLoadTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}

export interface ScreenLoadOptions {
  timeoutMs?: number
  delayMs?: number
  timers?: ScreenLoadTimers
}

/** Wraps a chunk loader (`(chunkId) => Promise`) with the delay, the timeout and the failure UI. */
export function withScreenLoading<A extends unknown[]>(
  load: (...args: A) => Promise<unknown>,
  ui: ScreenLoadUi,
  options: ScreenLoadOptions = {},
): (...args: A) => Promise<unknown> {
  const timers = options.timers ?? realTimers
  const timeoutMs = options.timeoutMs ?? SCREEN_LOAD_TIMEOUT_MS
  const delayMs = options.delayMs ?? SCREEN_LOADING_DELAY_MS
  let pending = 0
  let visible = false

  function settle(): void {
    pending -= 1
    if (pending === 0 && visible) {
      visible = false
      ui.hideLoading()
    }
  }

  return (...args: A) => {
    pending += 1
    let done = false
    const delay = timers.setTimeout(() => {
      if (!done && !visible) {
        visible = true
        ui.showLoading()
      }
    }, delayMs)
    let timeout: unknown
    const timedOut = new Promise<never>((_resolve, reject) => {
      timeout = timers.setTimeout(() => reject(new ScreenLoadError(true)), timeoutMs)
    })
    const cleanup = () => {
      done = true
      timers.clearTimeout(delay)
      timers.clearTimeout(timeout)
      settle()
    }
    return Promise.race([load(...args), timedOut]).then(
      (value) => {
        cleanup()
        return value
      },
      (error: unknown) => {
        // The loading goes first: hiding it afterwards could also close what `failed` shows.
        cleanup()
        const failure = error instanceof ScreenLoadError ? error : new ScreenLoadError(false, error)
        ui.failed(failure)
        throw failure
      },
    )
  }
}

const taroScreenUi: ScreenLoadUi = {
  showLoading: () => showLoading(SCREEN_LOADING_TEXT, false),
  hideLoading,
  failed: (error) => {
    void showModal({
      title: error.timedOut ? '页面加载超时' : '页面加载失败',
      content: '网络不给力，页面没有加载出来，请检查网络后重新加载',
      showCancel: false,
      confirmText: '重新加载',
    }).then(() => window.location.reload())
  },
}

interface WebpackRequire {
  e?: (chunkId: unknown) => Promise<unknown>
}

/** H5: wraps webpack's chunk loader once, at start-up (app.ts). Elsewhere it does nothing. */
export function installScreenLoading(): void {
  if (process.env.TARO_ENV !== 'h5') return
  if (typeof __webpack_require__ === 'undefined') return
  const runtime = __webpack_require__ as WebpackRequire
  if (typeof runtime.e !== 'function') return
  runtime.e = withScreenLoading(runtime.e, taroScreenUi)
}
