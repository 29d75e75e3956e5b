/**
 * In-page helpers of the viewer bench (bench/viewer.ts bundles the pages with esbuild and runs them in
 * Chromium). Both renderers get the same windows in the same order, each render a window not seen
 * before, so neither can answer from a cached lookup table.
 */

export interface RenderRun {
  /** Wall time of each timed render, ms (performance.now, so 5 µs steps at best in Chromium). */
  times: number[]
  /** Distinct grey values read back at the image centre over the run: proof the pixels changed. */
  distinctCentre: number
}

declare global {
  interface Window {
    /** Set by each page once its renderer is ready; bench/viewer.ts calls it. */
    __viewerBench?: (renders: number, warmUp: number) => RenderRun
    /** Why the page could not get ready (shown by bench/viewer.ts). */
    __viewerBenchError?: string
  }
}

/** The i-th window of the sequence: each one new, all of them sensible for a CT in HU. */
export function windowAt(i: number): { center: number; width: number } {
  return { center: 40 + (i % 97), width: 350 + 3 * i }
}

/**
 * Times `render(i)` for warmUp + renders windows; after each render one pixel of the canvas the
 * user sees is read back, which makes Chromium finish the canvas work inside the timing (a 2D
 * canvas otherwise defers it to the next paint) for both renderers alike.
 */
export function timeRenders(
  render: (i: number) => void,
  display: CanvasRenderingContext2D,
  renders: number,
  warmUp: number,
): RenderRun {
  const times: number[] = []
  const centre = new Set<number>()
  const x = Math.floor(display.canvas.width / 2)
  const y = Math.floor(display.canvas.height / 2)
  for (let i = 0; i < warmUp + renders; i++) {
    const started = performance.now()
    render(i)
    const grey = display.getImageData(x, y, 1, 1).data[0]!
    const elapsed = performance.now() - started
    if (i >= warmUp) {
      times.push(elapsed)
      centre.add(grey)
    }
  }
  return { times, distinctCentre: centre.size }
}

/** The square canvas the user sees, in device pixels (a 390 pt phone at 1×). */
export const DISPLAY_SIZE = 390
