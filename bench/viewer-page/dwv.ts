/**
 * dwv 0.36's window/level re-render, the reference of the viewer bench: the app loads the CT file
 * the way dwv's own viewer does (loadURLs), then each timed render is ViewController.setWindowLevel,
 * which in dwv regenerates the RGBA image, puts it on its backing canvas and draws that scaled onto
 * the canvas on screen, synchronously (ViewLayer's wlchange handler calls draw()).
 */
import { App, AppOptions, ViewConfig, WindowLevel } from 'dwv'
import { DISPLAY_SIZE, timeRenders, windowAt } from './timing'

function start(): void {
  const container = document.createElement('div')
  container.id = 'layerGroup0'
  container.style.width = `${DISPLAY_SIZE}px`
  container.style.height = `${DISPLAY_SIZE}px`
  document.body.appendChild(container)

  const app = new App()
  app.init(new AppOptions({ '*': [new ViewConfig('layerGroup0')] }))
  app.addEventListener('error', (event: { error?: unknown }) => {
    window.__viewerBenchError = `dwv: ${String(event.error)}`
  })
  app.addEventListener('load', () => {
    const layer = app.getActiveLayerGroup()?.getActiveViewLayer()
    const canvas = container.querySelector('canvas')
    const display = canvas?.getContext('2d')
    if (!layer || !display) {
      window.__viewerBenchError = 'dwv: no view layer after load'
      return
    }
    const controller = layer.getViewController()
    let drawn = 0
    app.addEventListener('renderend', () => {
      drawn += 1
    })
    window.__viewerBench = (renders, warmUp) => {
      drawn = 0
      const run = timeRenders(
        (i) => {
          const { center, width } = windowAt(i)
          controller.setWindowLevel(new WindowLevel(center, width))
        },
        display,
        renders,
        warmUp,
      )
      // Every window must have produced a draw, or the times measure nothing.
      if (drawn !== renders + warmUp) throw new Error(`dwv drew ${drawn} of ${renders + warmUp}`)
      return run
    }
  })
  app.loadURLs(['ct.dcm'])
}

start()
