import type { PixelData } from '../core'
import { createGestureRecognizer, LONG_PRESS_MS, type TouchPoint } from '../hooks/gestures'
import { gestureActions, touchesOf, wheelActions } from '../input'
import { initialViewState, reduceView, WL_SENSITIVITY, type ViewState } from '../view-state'
import { imageToScreen } from '../viewport'
import { ctSlices, VIEW, viewOf } from './view-support'

const slices = ctSlices(10)
const CT_WINDOW = { center: 40, width: 400 }
const IMAGE = { width: 200, height: 100 }

/** A CT frame (stored = HU + 1024) whose pixel (x, y) holds HU 10·x − y. */
function ctFrame(): PixelData {
  const frame = new Uint16Array(IMAGE.width * IMAGE.height)
  for (let y = 0; y < IMAGE.height; y += 1)
    for (let x = 0; x < IMAGE.width; x += 1) frame[y * IMAGE.width + x] = 1024 + 10 * x - y
  return frame
}

const t = (x: number, y: number, id = 1): TouchPoint => ({ id, x, y })

/**
 * Fingers on the stage as the component feeds them: the recognizer's gestures, each mapped
 * against the state the previous one left and applied, as image-viewer.tsx does.
 */
function feel(state: ViewState, pixels: PixelData | null = null) {
  const recognizer = createGestureRecognizer(() => VIEW.width)
  let now = 0
  const run = (actions: ReturnType<typeof recognizer.move>) => {
    for (const action of actions)
      state = gestureActions(action, state, pixels).reduce(reduceView, state)
  }
  return {
    start: (...points: TouchPoint[]) => run(recognizer.start(points, (now += 16))),
    move: (...points: TouchPoint[]) => run(recognizer.move(points, (now += 16))),
    end: (...points: TouchPoint[]) => run(recognizer.end(points, (now += 16))),
    hold: () => run(recognizer.longPressDue((now += LONG_PRESS_MS))),
    get state() {
      return state
    },
  }
}

describe('input: gestures to view actions', () => {
  it('means nothing before the stage is measured', () => {
    const state = initialViewState(slices, 0)
    for (const action of [
      { type: 'drag', x: 1, y: 1, dx: 5, dy: 5 },
      { type: 'slices', delta: 1 },
      { type: 'doubleTap', x: 1, y: 1 },
    ] as const)
      expect(gestureActions(action, state, null)).toEqual([])
  })

  it('one finger dragged is window/level: right widens, down raises the centre', () => {
    const hand = feel(viewOf(slices, 0, { type: 'window', window: CT_WINDOW }))
    hand.start(t(100, 200))
    hand.move(t(130, 200))
    const k = 400 * WL_SENSITIVITY
    expect(hand.state.window).toEqual({ width: 400 + 30 * k, center: 40 })
    const widened = hand.state.window!
    hand.move(t(130, 260))
    hand.end()
    expect(hand.state.window!.width).toBe(widened.width)
    expect(hand.state.window!.center).toBeCloseTo(40 + 60 * widened.width * WL_SENSITIVITY)
  })

  it('a colour image (no window) or a measuring tool does not change the window', () => {
    const colour = viewOf(slices)
    expect(gestureActions({ type: 'drag', x: 0, y: 0, dx: 30, dy: 0 }, colour, null)).toEqual([])
    const angle = viewOf(
      slices,
      0,
      { type: 'window', window: CT_WINDOW },
      { type: 'tool', tool: 'angle' },
    )
    expect(gestureActions({ type: 'drag', x: 0, y: 0, dx: 30, dy: 0 }, angle, null)).toEqual([])
  })

  it('with 测距 a drag draws a line in image pixels, kept when the finger lifts', () => {
    const state = viewOf(
      slices,
      2,
      { type: 'window', window: CT_WINDOW },
      { type: 'tool', tool: 'distance' },
    )
    const at = (x: number, y: number) => imageToScreen(state.viewport!, VIEW, IMAGE, { x, y })
    const hand = feel(state)
    const from = at(20, 50)
    const to = at(120, 50)
    hand.start(t(from.x, from.y))
    hand.move(t((from.x + to.x) / 2, from.y))
    hand.move(t(to.x, to.y))
    expect(hand.state.draft!.points[1]!.x).toBeCloseTo(120)
    hand.end()
    expect(hand.state.window).toEqual(CT_WINDOW)
    expect(hand.state.measurements).toHaveLength(1)
    const [a, b] = hand.state.measurements[0]!.points
    expect(a!.x).toBeCloseTo(20)
    expect(b!.x).toBeCloseTo(120)
  })

  it('with 椭圆 a drag draws an ellipse by its bounding box in image pixels', () => {
    const state = viewOf(
      slices,
      1,
      { type: 'window', window: CT_WINDOW },
      { type: 'tool', tool: 'ellipse' },
    )
    const at = (x: number, y: number) => imageToScreen(state.viewport!, VIEW, IMAGE, { x, y })
    const hand = feel(state, ctFrame())
    const from = at(40, 20)
    const to = at(80, 60)
    hand.start(t(from.x, from.y))
    hand.move(t((from.x + to.x) / 2, (from.y + to.y) / 2))
    hand.move(t(to.x, to.y))
    expect(hand.state.draft).toMatchObject({ kind: 'ellipse' })
    hand.end()
    // The window stays: the drag was the ellipse's.
    expect(hand.state.window).toEqual(CT_WINDOW)
    expect(hand.state.measurements.map((m) => m.kind)).toEqual(['ellipse'])
    const [a, b] = hand.state.measurements[0]!.points
    expect(a!.x).toBeCloseTo(40, 0)
    expect(a!.y).toBeCloseTo(20, 0)
    expect(b!.x).toBeCloseTo(80, 0)
    expect(b!.y).toBeCloseTo(60, 0)
    // A tap while 椭圆 is on adds nothing.
    expect(gestureActions({ type: 'tap', x: from.x, y: from.y }, hand.state, null)).toEqual([])
  })

  it('with 测角 three taps make an angle', () => {
    const hand = feel(viewOf(slices, 0, { type: 'tool', tool: 'angle' }))
    for (const [x, y] of [
      [100, 200],
      [200, 300],
      [300, 200],
    ] as const) {
      hand.start(t(x, y))
      hand.end()
      // Far apart and slow: three taps, not a double tap.
      hand.hold()
    }
    expect(hand.state.measurements.map((m) => m.kind)).toEqual(['angle'])
  })

  it('a swipe along the right edge steps slices, within the stack', () => {
    const hand = feel(viewOf(slices, 5))
    hand.start(t(VIEW.width - 10, 100))
    hand.move(t(VIEW.width - 10, 100 + 12 * 3))
    expect(hand.state.index).toBe(8)
    hand.move(t(VIEW.width - 10, 100 + 12 * 10))
    expect(hand.state.index).toBe(9)
    hand.move(t(VIEW.width - 10, 100 - 12 * 20))
    expect(hand.state.index).toBe(0)
  })

  it('two fingers pinch about their midpoint and pan; a double tap fits again', () => {
    const fitted = viewOf(slices)
    const hand = feel(fitted)
    hand.start(t(145, 250, 1), t(245, 250, 2))
    hand.move(t(95, 260, 1), t(295, 260, 2))
    // Spread 100 → 200: zoomed ×2 about the new midpoint (195, 260), 10 below the centre (the
    // image centre moves to 10 − 2·10 = −10), then panned by the midpoint's 10 px down.
    expect(hand.state.viewport!.scale).toBeCloseTo(fitted.viewport!.scale * 2)
    expect(hand.state.viewport!.offsetX).toBeCloseTo(0)
    expect(hand.state.viewport!.offsetY).toBeCloseTo(-10 + 10)
    hand.move(t(95, 290, 1), t(295, 290, 2))
    expect(hand.state.viewport!.offsetY).toBeCloseTo(30)
    hand.end()
    hand.start(t(50, 50))
    hand.end()
    hand.start(t(52, 51))
    hand.end()
    expect(hand.state.viewport).toEqual(fitted.viewport)
  })

  it('a finger held still shows the HU under it, following it, gone when it lifts', () => {
    const state = viewOf(slices, 0, { type: 'window', window: CT_WINDOW })
    const hand = feel(state, ctFrame())
    const at = imageToScreen(state.viewport!, VIEW, IMAGE, { x: 30.5, y: 40.5 })
    hand.start(t(at.x, at.y))
    hand.hold()
    expect(hand.state.probe).toEqual({ x: at.x, y: at.y, text: '260 HU' })
    const next = imageToScreen(state.viewport!, VIEW, IMAGE, { x: 50.5, y: 40.5 })
    hand.move(t(next.x, next.y))
    expect(hand.state.probe!.text).toBe('460 HU')
    // Off the image: no value.
    hand.move(t(next.x, 5))
    expect(hand.state.probe).toBeNull()
    hand.end()
    expect(hand.state.probe).toBeNull()
  })

  it('probes nothing while the slice has no pixels of its own yet', () => {
    const state = viewOf(slices, 0, { type: 'window', window: CT_WINDOW })
    expect(gestureActions({ type: 'probe', x: 195, y: 250 }, state, null)).toEqual([
      { type: 'probe', probe: null },
    ])
  })
})

describe('input: the wheel (desktop H5)', () => {
  it('steps one slice a notch either way, however large the delta', () => {
    const state = viewOf(slices, 4)
    expect(wheelActions({ deltaY: 300, zoom: false, at: null }, state)).toEqual([
      { type: 'goTo', index: 5 },
    ])
    expect(wheelActions({ deltaY: -3, zoom: false, at: null }, state)).toEqual([
      { type: 'goTo', index: 3 },
    ])
    expect(wheelActions({ deltaY: 0, zoom: false, at: null }, state)).toEqual([])
  })

  it('with ctrl zooms about the pointer, e per 300 px', () => {
    const state = viewOf(slices)
    const [action] = wheelActions({ deltaY: -300, zoom: true, at: { x: 10, y: 20 } }, state)
    expect(action).toEqual({ type: 'zoom', factor: Math.E, at: { x: 10, y: 20 } })
    expect(reduceView(state, action!).viewport!.scale).toBeCloseTo(state.viewport!.scale * Math.E)
  })
})

describe('input: touches on the stage', () => {
  const box = { left: 10, top: 100, width: 390, height: 500 }

  it("reads H5's clientX/Y and the mini-program's x/y, relative to the stage", () => {
    const touches = [
      { identifier: 7, clientX: 60, clientY: 300 },
      { x: 20, y: 110 },
    ]
    expect(touchesOf({ touches }, box, false)).toEqual([
      { id: 7, x: 50, y: 200 },
      { id: 1, x: 10, y: 10 },
    ])
  })

  it('maps onto the turned axes when 横屏全屏 turned the viewer with CSS', () => {
    // Turned a quarter clockwise: the stage's x runs down the screen, its y leftwards.
    expect(
      touchesOf({ touches: [{ identifier: 0, clientX: 390, clientY: 130 }] }, box, true),
    ).toEqual([{ id: 0, x: 30, y: 10 }])
  })
})
