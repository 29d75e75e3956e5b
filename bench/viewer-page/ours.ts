/**
 * Our viewer's window/level re-render (src/features/viewer/core, the code the app ships), timed the
 * way the H5 viewer draws (src/features/viewer/components/painter.ts): the core's renderer writes
 * RGBA into the ImageData of the canvas on screen, which has the image's own size, and
 * putImageData puts it there; the canvas is shown at the screen's size by CSS (the app places it
 * with a CSS transform), so no drawImage. dwv draws its own way. Input: the instance's DICOM JSON
 * (WADO-RS /metadata) and the frame's bytes (one part of a WADO-RS /frames answer), made by
 * bench/viewer.ts with the server's own code.
 */
import { createRenderer, framePixels, parseInstanceMetadata } from '../../src/features/viewer/core'
import { DISPLAY_SIZE, timeRenders, windowAt } from './timing'

type Stage = 'render' | 'put' | 'draw'

declare global {
  interface Window {
    /** The core's render() alone (no canvas), for the same windows. */
    __viewerBenchCore?: (renders: number, warmUp: number) => number[]
    /** Where the time of one canvas render goes: render(), putImageData, read-back. */
    __viewerBenchStages?: (renders: number, warmUp: number) => Record<Stage, number[]>
  }
}

async function start(): Promise<void> {
  const [json, frame] = await Promise.all([
    fetch('ct.json').then((response) => response.json() as Promise<Record<string, unknown>>),
    fetch('ct.raw').then((response) => response.arrayBuffer()),
  ])
  const info = parseInstanceMetadata(json)
  const pixels = framePixels(info, frame)
  const renderer = createRenderer(info)

  // The canvas on screen: the image's pixels, scaled to DISPLAY_SIZE CSS pixels by the browser.
  const screen = document.createElement('canvas')
  screen.width = info.columns
  screen.height = info.rows
  const scale = Math.min(DISPLAY_SIZE / info.columns, DISPLAY_SIZE / info.rows)
  screen.style.cssText =
    `position:absolute;left:0;top:0;width:${info.columns}px;height:${info.rows}px;` +
    `transform-origin:0 0;transform:matrix(${scale},0,0,${scale},0,0)`
  document.body.appendChild(screen)
  const display = screen.getContext('2d')!
  const image = display.createImageData(info.columns, info.rows)

  window.__viewerBench = (renders, warmUp) =>
    timeRenders(
      (i) => {
        renderer.render(pixels, windowAt(i), false, image.data)
        display.putImageData(image, 0, 0)
      },
      display,
      renders,
      warmUp,
    )
  window.__viewerBenchCore = (renders, warmUp) => {
    const times: number[] = []
    // Lung windows, not the ones the canvas run used, so every LUT is built anew.
    for (let i = 0; i < warmUp + renders; i++) {
      const started = performance.now()
      renderer.render(pixels, { center: -600 - i, width: 1500 + i }, false, image.data)
      if (i >= warmUp) times.push(performance.now() - started)
    }
    return times
  }
  window.__viewerBenchStages = (renders, warmUp) => {
    const stages: Record<Stage, number[]> = { render: [], put: [], draw: [] }
    for (let i = 0; i < warmUp + renders; i++) {
      const t0 = performance.now()
      renderer.render(pixels, { center: 40 - i, width: 80 + i }, false, image.data)
      const t1 = performance.now()
      display.putImageData(image, 0, 0)
      const t2 = performance.now()
      display.getImageData(info.columns / 2, info.rows / 2, 1, 1)
      const t3 = performance.now()
      if (i < warmUp) continue
      stages.render.push(t1 - t0)
      stages.put.push(t2 - t1)
      stages.draw.push(t3 - t2)
    }
    return stages
  }
}

start().catch((error: unknown) => {
  window.__viewerBenchError = `ours: ${error instanceof Error ? error.message : String(error)}`
})
