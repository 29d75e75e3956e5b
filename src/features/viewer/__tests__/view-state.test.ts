import { sliceKey } from '../hooks/frame-loader'
import { initialViewState, reduceView, WL_SENSITIVITY, type ViewState } from '../view-state'
import { imageToScreen } from '../viewport'
import { ctSlices, VIEW, viewOf } from './view-support'

const slices = ctSlices(5)
const FIT = 390 / 200

/** Where an image point is on the stage in `state` (to press there). */
function onScreen(state: ViewState, x: number, y: number) {
  return imageToScreen(state.viewport!, state.view!, { width: 200, height: 100 }, { x, y })
}

describe('view state (reduceView)', () => {
  it('starts on the start slice, unmeasured, and fits the image once its stage is known', () => {
    const start = initialViewState(slices, 2)
    expect(start).toMatchObject({ index: 2, window: null, viewport: null, tool: 'none' })
    // Nothing to zoom, pan or fit before the stage is measured.
    expect(reduceView(start, { type: 'zoom', factor: 2, at: { x: 0, y: 0 } })).toBe(start)
    expect(reduceView(start, { type: 'pan', dx: 5, dy: 5 })).toBe(start)
    expect(reduceView(start, { type: 'fit' })).toBe(start)
    const staged = reduceView(start, { type: 'stage', view: VIEW })
    expect(staged.viewport).toEqual({
      scale: FIT,
      offsetX: 0,
      offsetY: 0,
      rotation: 0,
      flipped: false,
    })
  })

  it('a new stage (full screen) refits the image but keeps its turn and flip', () => {
    const turned = viewOf(
      slices,
      0,
      { type: 'rotate' },
      { type: 'flip' },
      { type: 'pan', dx: 9, dy: 0 },
    )
    const landscape = reduceView(turned, { type: 'stage', view: { width: 844, height: 390 } })
    // Turned a quarter, the 200×100 image stands 100 wide and 200 high: 390 / 200.
    expect(landscape.viewport).toEqual({
      scale: 390 / 200,
      offsetX: 0,
      offsetY: 0,
      rotation: turned.viewport!.rotation,
      flipped: true,
    })
    expect(turned.viewport!.rotation).toBe(270)
  })

  it('goes to a slice, rounded and kept inside the stack; the same slice is no change', () => {
    const state = viewOf(slices, 2)
    expect(reduceView(state, { type: 'goTo', index: 3.4 }).index).toBe(3)
    expect(reduceView(state, { type: 'goTo', index: -7 }).index).toBe(0)
    expect(reduceView(state, { type: 'goTo', index: 99 }).index).toBe(4)
    expect(reduceView(state, { type: 'goTo', index: 2 })).toBe(state)
  })

  it('a window drag changes width and centre by a share of the width, never below 1', () => {
    const state = viewOf(slices, 0, {
      type: 'window',
      window: { center: 40, width: 400, voiLut: 0 },
    })
    const k = 400 * WL_SENSITIVITY
    const dragged = reduceView(state, { type: 'windowDrag', dx: 30, dy: -15 })
    // A drag from a VOI LUT table's preset continues as a plain linear window.
    expect(dragged.window).toEqual({ width: 400 + 30 * k, center: 40 - 15 * k })
    const narrowest = reduceView(state, { type: 'windowDrag', dx: -10_000, dy: 0 })
    expect(narrowest.window!.width).toBe(1)
    // Colour images have no window: nothing to drag.
    const colour = viewOf(slices)
    expect(reduceView(colour, { type: 'windowDrag', dx: 30, dy: 0 })).toBe(colour)
  })

  it('zooms about a point, keeping the image point under it', () => {
    const state = viewOf(slices)
    const before = onScreen(state, 150, 20)
    const zoomed = reduceView(state, { type: 'zoom', factor: 3, at: before })
    expect(zoomed.viewport!.scale).toBeCloseTo(FIT * 3)
    const after = onScreen(zoomed, 150, 20)
    expect(after.x).toBeCloseTo(before.x)
    expect(after.y).toBeCloseTo(before.y)
    const fitted = reduceView(reduceView(zoomed, { type: 'pan', dx: 40, dy: 0 }), { type: 'fit' })
    expect(fitted.viewport).toEqual(state.viewport)
  })

  it('复位 makes the image upright and fitted, not inverted, with the frame window, no lines', () => {
    const messy = viewOf(
      slices,
      1,
      { type: 'rotate' },
      { type: 'zoom', factor: 2, at: { x: 10, y: 10 } },
      { type: 'invert' },
      { type: 'window', window: { center: 0, width: 10 } },
      { type: 'tool', tool: 'angle' },
      { type: 'anglePoint', at: { x: 100, y: 200 } },
    )
    expect(messy.draft).not.toBeNull()
    const reset = reduceView(messy, { type: 'reset', window: { center: 40, width: 400 } })
    expect(reset).toMatchObject({
      viewport: viewOf(slices).viewport,
      invert: false,
      window: { center: 40, width: 400 },
      measurements: [],
      draft: null,
      index: 1,
      // The tool stays on.
      tool: 'angle',
    })
  })

  it('a tool button turns its tool on, then off, dropping a half-drawn line', () => {
    const on = viewOf(
      slices,
      0,
      { type: 'tool', tool: 'angle' },
      { type: 'anglePoint', at: { x: 100, y: 200 } },
    )
    expect(on.tool).toBe('angle')
    const distance = reduceView(on, { type: 'tool', tool: 'distance' })
    expect(distance).toMatchObject({ tool: 'distance', draft: null })
    expect(reduceView(distance, { type: 'tool', tool: 'distance' }).tool).toBe('none')
  })

  it('measures a distance in image pixels on the slice it was drawn on', () => {
    const state = viewOf(slices, 3, { type: 'tool', tool: 'distance' })
    const steps = [
      { type: 'measureStart', at: onScreen(state, 10, 20) },
      { type: 'measureMove', at: onScreen(state, 50, 20) },
      { type: 'measureMove', at: onScreen(state, 60, 50) },
    ] as const
    const drawing = steps.reduce<ViewState>(reduceView, state)
    expect(drawing.draft!.points[0]!.x).toBeCloseTo(10)
    expect(drawing.draft!.points[1]!.y).toBeCloseTo(50)
    expect(drawing.measurements).toEqual([])
    const done = reduceView(drawing, { type: 'measureEnd' })
    expect(done.draft).toBeNull()
    expect(done.measurements).toHaveLength(1)
    expect(done.measurements[0]!).toMatchObject({
      kind: 'distance',
      sliceKey: sliceKey(slices[3]!),
    })
    expect(done.measurements[0]!.points[1]!.x).toBeCloseTo(60)
    // Without the tool, a drag measures nothing.
    const plain = viewOf(slices)
    expect(reduceView(plain, { type: 'measureStart', at: { x: 10, y: 10 } })).toBe(plain)
  })

  it('an angle is three points, the vertex in the middle, kept once the third is set', () => {
    let state = viewOf(slices, 0, { type: 'tool', tool: 'angle' })
    for (const [x, y] of [
      [10, 10],
      [50, 50],
      [90, 10],
    ] as const)
      state = reduceView(state, { type: 'anglePoint', at: onScreen(state, x, y) })
    expect(state.draft).toBeNull()
    expect(state.measurements).toHaveLength(1)
    expect(state.measurements[0]!.kind).toBe('angle')
    expect(state.measurements[0]!.points.map((p) => Math.round(p.x))).toEqual([10, 50, 90])
    expect(reduceView(state, { type: 'clearMeasurements' }).measurements).toEqual([])
  })

  it('an ellipse is dragged by its bounding box, kept to 0.1 pixel; a tap draws none', () => {
    const state = viewOf(slices, 2, { type: 'tool', tool: 'ellipse' })
    const done = [
      { type: 'measureStart', at: onScreen(state, 20.123, 30.456) },
      { type: 'measureMove', at: onScreen(state, 40, 40) },
      { type: 'measureMove', at: onScreen(state, 60.04, 70.26) },
      { type: 'measureEnd' },
    ].reduce<ViewState>((s, action) => reduceView(s, action as never), state)
    expect(done.draft).toBeNull()
    expect(done.measurements).toEqual([
      {
        kind: 'ellipse',
        sliceKey: sliceKey(slices[2]!),
        points: [
          { x: 20.1, y: 30.5 },
          { x: 60, y: 70.3 },
        ],
      },
    ])
    const tap = [
      { type: 'measureStart', at: onScreen(state, 20, 30) },
      { type: 'measureEnd' },
    ].reduce<ViewState>((s, action) => reduceView(s, action as never), state)
    expect(tap).toMatchObject({ measurements: [], draft: null })
  })

  it('a stack may start with a measurement shown (a pinned finding); the same one is no change', () => {
    const pinned = {
      sliceKey: sliceKey(slices[1]!),
      kind: 'ellipse' as const,
      points: [
        { x: 10, y: 10 },
        { x: 30, y: 20 },
      ],
    }
    const measurements = [pinned]
    expect(initialViewState(slices, 1, measurements).measurements).toBe(measurements)
    const next = reduceView(viewOf(slices), {
      type: 'series',
      slices,
      startIndex: 1,
      measurements,
    })
    expect(next.measurements).toEqual([pinned])
    expect(reduceView(next, { type: 'series', slices, startIndex: 1, measurements })).toBe(next)
    expect(reduceView(next, { type: 'series', slices, startIndex: 1 }).measurements).toEqual([])
  })

  it('another stack starts again at its start slice with its own window and no lines', () => {
    const used = viewOf(
      slices,
      0,
      { type: 'goTo', index: 4 },
      { type: 'window', window: { center: 1, width: 2 } },
      { type: 'invert' },
      { type: 'tool', tool: 'distance' },
      { type: 'measureStart', at: { x: 100, y: 250 } },
      { type: 'measureEnd' },
    )
    expect(used.measurements).toHaveLength(1)
    const other = ctSlices(3)
    const next = reduceView(used, { type: 'series', slices: other, startIndex: 1 })
    expect(next).toMatchObject({
      slices: other,
      index: 1,
      window: null,
      measurements: [],
      draft: null,
    })
    // What the person set for the viewer as a whole stays.
    expect(next).toMatchObject({ invert: true, tool: 'distance', viewport: used.viewport })
    // The same stack at its start, untouched, is no change (no render).
    expect(reduceView(next, { type: 'series', slices: other, startIndex: 1 })).toBe(next)
  })

  it('hides and shows the information, and clears a probe once', () => {
    const state = viewOf(slices)
    expect(reduceView(state, { type: 'toggleInfo' }).showInfo).toBe(false)
    const probed = reduceView(state, { type: 'probe', probe: { x: 1, y: 2, text: '40 HU' } })
    expect(probed.probe).toEqual({ x: 1, y: 2, text: '40 HU' })
    expect(reduceView(state, { type: 'probe', probe: null })).toBe(state)
  })
})
