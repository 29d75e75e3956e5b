/**
 * User Timing entries of the viewer, readable by any browser tool and by the bench:
 * `viewer-first-pixels` (from the tap that opened the viewer, or from the page's start when the
 * opener passed no `t`, to the first painted image) and `viewer-render` (each frame render).
 * Only where `performance.measure` exists (H5); the mini-program has no User Timing.
 */

interface Timeline {
  now(): number
  timeOrigin?: number
  measure(name: string, options: { start: number; end: number }): unknown
  clearMeasures(name?: string): void
}

function timeline(): Timeline | null {
  const perf = (globalThis as { performance?: Partial<Timeline> }).performance
  if (!perf || typeof perf.measure !== 'function' || typeof perf.now !== 'function') return null
  return perf as Timeline
}

export function timelineNow(): number {
  return timeline()?.now() ?? Date.now()
}

/** A tap's Date.now() on the page's timeline (same document in H5), or null if not usable. */
export function tapOnTimeline(tapAt: number | undefined): number | null {
  const perf = timeline()
  if (!perf || !tapAt || !perf.timeOrigin) return null
  const start = tapAt - perf.timeOrigin
  // A stale or foreign `t` (a shared link opened later) would report nonsense: fall back.
  return start >= 0 && start <= perf.now() ? start : null
}

function measure(name: string, start: number): void {
  const perf = timeline()
  if (!perf) return
  try {
    perf.measure(name, { start, end: perf.now() })
  } catch {
    // Old engines accept only mark names; the figure is then simply not recorded.
  }
}

// The start each opening's first pixels were recorded from: the page (painting the handed-over
// thumbnail) and ImageViewer (its preview or first frame) both report, and only the first counts.
let firstPixelsRecordedFrom: number | null = null

/** Records tap → first pixels once per opening (one `start`); later calls are no-ops. */
export function recordFirstPixels(start: number): void {
  if (firstPixelsRecordedFrom === start) return
  firstPixelsRecordedFrom = start
  measure('viewer-first-pixels', start)
}

// A long W/L drag renders at 60 Hz: keep the buffer bounded, the latest entries are what tools read.
const RENDER_ENTRIES_KEPT = 2000
let renders = 0

export function recordRender(start: number): void {
  const perf = timeline()
  if (!perf) return
  renders += 1
  if (renders > RENDER_ENTRIES_KEPT) {
    renders = 1
    perf.clearMeasures('viewer-render')
  }
  measure('viewer-render', start)
}
