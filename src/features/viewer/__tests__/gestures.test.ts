import {
  createGestureRecognizer,
  DOUBLE_TAP_MS,
  LONG_PRESS_MS,
  SLICE_STEP_PX,
  type GestureAction,
} from '../hooks/gestures'

const WIDTH = 390
const t = (id: number, x: number, y: number) => ({ id, x, y })

function types(actions: GestureAction[]) {
  return actions.map((a) => a.type)
}

describe('gesture recognizer', () => {
  it('one finger: a drag with movement since the last event, after the slop', () => {
    const g = createGestureRecognizer(() => WIDTH)
    expect(g.start([t(1, 100, 100)], 0)).toEqual([])
    expect(g.move([t(1, 102, 101)], 10)).toEqual([])
    expect(g.move([t(1, 120, 90)], 20)).toEqual([
      { type: 'dragStart', x: 100, y: 100 },
      { type: 'drag', x: 120, y: 90, dx: 20, dy: -10 },
    ])
    expect(g.move([t(1, 125, 95)], 30)).toEqual([{ type: 'drag', x: 125, y: 95, dx: 5, dy: 5 }])
    expect(g.end([], 40)).toEqual([{ type: 'dragEnd', x: 125, y: 95 }])
  })

  it('a vertical swipe in the right-edge strip scrolls slices, one per step', () => {
    const g = createGestureRecognizer(() => WIDTH)
    g.start([t(1, WIDTH - 10, 300)], 0)
    const out = [
      ...g.move([t(1, WIDTH - 10, 300 + SLICE_STEP_PX)], 10),
      ...g.move([t(1, WIDTH - 12, 300 + SLICE_STEP_PX * 3.5)], 20),
      ...g.move([t(1, WIDTH - 12, 300 + SLICE_STEP_PX * 1.4)], 30),
    ]
    expect(out).toEqual([
      { type: 'slices', delta: 1 },
      { type: 'slices', delta: 2 },
      { type: 'slices', delta: -1 },
    ])
    expect(g.end([], 40)).toEqual([])
  })

  it('a horizontal drag starting in the strip is still window/level', () => {
    const g = createGestureRecognizer(() => WIDTH)
    g.start([t(1, WIDTH - 10, 300)], 0)
    expect(types(g.move([t(1, WIDTH - 60, 302)], 10))).toEqual(['dragStart', 'drag'])
  })

  it('two fingers: pinch factor around the midpoint and pan of the midpoint', () => {
    const g = createGestureRecognizer(() => WIDTH)
    g.start([t(1, 100, 100)], 0)
    expect(g.start([t(1, 100, 100), t(2, 200, 100)], 5)).toEqual([])
    const out = g.move([t(1, 90, 110), t(2, 230, 110)], 10)
    expect(out[0]).toMatchObject({ type: 'pinch', x: 160, y: 110 })
    expect((out[0] as { factor: number }).factor).toBeCloseTo(1.4)
    expect(out[1]).toEqual({ type: 'pan', dx: 10, dy: 10 })
    // Lifting one finger ends it; the remaining finger does not turn into window/level.
    expect(g.end([t(2, 230, 110)], 20)).toEqual([])
    expect(g.move([t(2, 260, 140)], 30)).toEqual([])
    expect(g.end([], 40)).toEqual([])
  })

  it('a second finger during a drag ends the drag and pinches', () => {
    const g = createGestureRecognizer(() => WIDTH)
    g.start([t(1, 100, 100)], 0)
    g.move([t(1, 130, 100)], 10)
    expect(g.move([t(1, 130, 100), t(2, 200, 200)], 20)).toEqual([
      { type: 'dragEnd', x: 130, y: 100 },
    ])
  })

  it('taps, and a quick second tap nearby is a double tap; a slow one is not', () => {
    const g = createGestureRecognizer(() => WIDTH)
    g.start([t(1, 50, 50)], 0)
    expect(g.end([], 80)).toEqual([{ type: 'tap', x: 50, y: 50 }])
    g.start([t(1, 55, 52)], 150)
    expect(g.end([], 200)).toEqual([{ type: 'doubleTap', x: 55, y: 52 }])
    g.start([t(1, 55, 52)], 1000)
    g.end([], 1050)
    g.start([t(1, 55, 52)], 1050 + DOUBLE_TAP_MS + 1)
    expect(types(g.end([], 1050 + DOUBLE_TAP_MS + 50))).toEqual(['tap'])
  })

  it('holding still becomes a probe that follows the finger until it lifts', () => {
    const g = createGestureRecognizer(() => WIDTH)
    g.start([t(1, 70, 80)], 0)
    expect(g.longPressDue(LONG_PRESS_MS - 1)).toEqual([])
    expect(g.longPressDue(LONG_PRESS_MS)).toEqual([{ type: 'probe', x: 70, y: 80 }])
    expect(g.move([t(1, 90, 85)], 600)).toEqual([{ type: 'probe', x: 90, y: 85 }])
    expect(g.end([], 700)).toEqual([{ type: 'probeEnd' }])
  })

  it('a finger that moved before the long press is a drag, never a probe', () => {
    const g = createGestureRecognizer(() => WIDTH)
    g.start([t(1, 70, 80)], 0)
    g.move([t(1, 100, 80)], 100)
    expect(g.longPressDue(LONG_PRESS_MS)).toEqual([])
  })
})
