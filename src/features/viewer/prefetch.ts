import { useEffect } from 'react'

/**
 * Loading a page's module ahead (issue 8: tap → first pixels): while a page that opens the viewer
 * sits idle, the viewer page's chunk is fetched and evaluated, so the tap finds it ready instead of
 * waiting for it. Which module to load is the caller's (pages/personalImage/viewer-prefetch.h5.ts:
 * features never import pages); this is the once-per-document, when-idle part.
 */
const loads = new Map<() => Promise<unknown>, Promise<unknown>>()

/** Starts `load` once per document; a failure (offline) lets a later call try again. */
export function prefetchOnce(load: () => Promise<unknown>): Promise<unknown> {
  let loading = loads.get(load)
  if (!loading) {
    loading = load().catch(() => {
      loads.delete(load)
    })
    loads.set(load, loading)
  }
  return loading
}

interface IdleScheduler {
  requestIdleCallback?: (callback: () => void, options?: { timeout: number }) => number
  cancelIdleCallback?: (handle: number) => void
}

// Past this the module loads even if the page never goes idle (a busy low-end phone).
const IDLE_TIMEOUT_MS = 2000
// Without requestIdleCallback (Safari): after the page's own first paint and requests have started.
const FALLBACK_DELAY_MS = 300

/** Runs prefetchOnce(load) when the page is idle, while `when` holds (something to open). */
export function usePrefetchWhenIdle(load: () => Promise<unknown>, when: boolean): void {
  useEffect(() => {
    if (!when) return
    const run = () => void prefetchOnce(load)
    const idle = globalThis as IdleScheduler
    if (idle.requestIdleCallback && idle.cancelIdleCallback) {
      const handle = idle.requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS })
      return () => idle.cancelIdleCallback?.(handle)
    }
    const timer = setTimeout(run, FALLBACK_DELAY_MS)
    return () => clearTimeout(timer)
  }, [load, when])
}
