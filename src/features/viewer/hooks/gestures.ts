/**
 * Touch gestures of the viewer as a pure state machine: the component feeds it touches (CSS pixels
 * relative to the view) and timestamps and acts on what it answers, so every gesture can be tested
 * without a device and both platforms share one reading of the fingers.
 *
 * - one finger dragged: `drag` (the page makes it window/level, or a measurement while a measuring
 *   tool is on); started in the right-edge strip and mostly vertical: `slices` instead (the stack
 *   scrolls one slice per SLICE_STEP_PX, like a scroll bar under the thumb)
 * - two fingers: `pinch` (zoom factor around their midpoint) and `pan` (the midpoint's movement)
 * - a quick second tap near the first: `doubleTap` (fit)
 * - one finger held still for LONG_PRESS_MS: `probe` while it stays down (the pixel value under it)
 */

export interface TouchPoint {
  id: number
  x: number
  y: number
}

export type GestureAction =
  | { type: 'dragStart'; x: number; y: number }
  | { type: 'drag'; x: number; y: number; dx: number; dy: number }
  | { type: 'dragEnd'; x: number; y: number }
  | { type: 'slices'; delta: number }
  | { type: 'pinch'; factor: number; x: number; y: number }
  | { type: 'pan'; dx: number; dy: number }
  | { type: 'tap'; x: number; y: number }
  | { type: 'doubleTap'; x: number; y: number }
  | { type: 'probe'; x: number; y: number }
  | { type: 'probeEnd' }

/** Movement below this is a finger resting, not a drag. */
export const SLOP_PX = 6
export const LONG_PRESS_MS = 500
export const DOUBLE_TAP_MS = 300
export const DOUBLE_TAP_PX = 30
/** The slice strip: the right edge of the view, wide enough for a thumb. */
export const EDGE_STRIP_PX = 48
export const SLICE_STEP_PX = 12

type Mode = 'idle' | 'pending' | 'drag' | 'slices' | 'pinch' | 'probe' | 'done'

export interface GestureRecognizer {
  start(touches: TouchPoint[], now: number): GestureAction[]
  move(touches: TouchPoint[], now: number): GestureAction[]
  end(remaining: TouchPoint[], now: number): GestureAction[]
  /** Called by a timer LONG_PRESS_MS after a one-finger start; answers a probe if still held. */
  longPressDue(now: number): GestureAction[]
}

function midpoint(a: TouchPoint, b: TouchPoint) {
  return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 }
}

function distance(a: TouchPoint, b: TouchPoint): number {
  return Math.hypot(a.x - b.x, a.y - b.y)
}

export function createGestureRecognizer(viewWidth: () => number): GestureRecognizer {
  let mode: Mode = 'idle'
  let origin = { x: 0, y: 0 }
  let last = { x: 0, y: 0 }
  let startedAt = 0
  let sliceRest = 0
  let pinchLast: { mid: { x: number; y: number }; spread: number } | null = null
  let lastTap: { x: number; y: number; at: number } | null = null

  function beginPinch(touches: TouchPoint[]): GestureAction[] {
    const out: GestureAction[] = []
    if (mode === 'drag') out.push({ type: 'dragEnd', x: last.x, y: last.y })
    if (mode === 'probe') out.push({ type: 'probeEnd' })
    mode = 'pinch'
    pinchLast = {
      mid: midpoint(touches[0]!, touches[1]!),
      spread: distance(touches[0]!, touches[1]!),
    }
    lastTap = null
    return out
  }

  return {
    start(touches, now) {
      if (touches.length >= 2) return beginPinch(touches)
      const touch = touches[0]
      if (!touch) return []
      mode = 'pending'
      origin = { x: touch.x, y: touch.y }
      last = origin
      startedAt = now
      sliceRest = 0
      return []
    },

    move(touches) {
      if (touches.length >= 2) {
        if (mode !== 'pinch' || !pinchLast) return beginPinch(touches)
        const mid = midpoint(touches[0]!, touches[1]!)
        const spread = distance(touches[0]!, touches[1]!)
        const out: GestureAction[] = []
        if (pinchLast.spread > 0 && spread > 0 && spread !== pinchLast.spread) {
          out.push({ type: 'pinch', factor: spread / pinchLast.spread, x: mid.x, y: mid.y })
        }
        const dx = mid.x - pinchLast.mid.x
        const dy = mid.y - pinchLast.mid.y
        if (dx !== 0 || dy !== 0) out.push({ type: 'pan', dx, dy })
        pinchLast = { mid, spread }
        return out
      }
      const touch = touches[0]
      if (!touch) return []
      if (mode === 'pending') {
        const moved = Math.hypot(touch.x - origin.x, touch.y - origin.y)
        if (moved < SLOP_PX) return []
        // A finger that rested long enough already became a probe (longPressDue); moving before
        // that is a drag.
        const inStrip = origin.x >= viewWidth() - EDGE_STRIP_PX
        const vertical = Math.abs(touch.y - origin.y) > Math.abs(touch.x - origin.x)
        if (inStrip && vertical) {
          mode = 'slices'
          last = origin
        } else {
          mode = 'drag'
          const out: GestureAction[] = [{ type: 'dragStart', x: origin.x, y: origin.y }]
          out.push({
            type: 'drag',
            x: touch.x,
            y: touch.y,
            dx: touch.x - origin.x,
            dy: touch.y - origin.y,
          })
          last = { x: touch.x, y: touch.y }
          return out
        }
      }
      if (mode === 'drag') {
        const action: GestureAction = {
          type: 'drag',
          x: touch.x,
          y: touch.y,
          dx: touch.x - last.x,
          dy: touch.y - last.y,
        }
        last = { x: touch.x, y: touch.y }
        return [action]
      }
      if (mode === 'slices') {
        sliceRest += touch.y - last.y
        last = { x: touch.x, y: touch.y }
        const steps = Math.trunc(sliceRest / SLICE_STEP_PX)
        if (steps === 0) return []
        sliceRest -= steps * SLICE_STEP_PX
        return [{ type: 'slices', delta: steps }]
      }
      if (mode === 'probe') {
        last = { x: touch.x, y: touch.y }
        return [{ type: 'probe', x: touch.x, y: touch.y }]
      }
      return []
    },

    end(remaining, now) {
      const out: GestureAction[] = []
      if (mode === 'pinch') {
        // One finger of two lifted: the gesture is over; the other finger must lift before a new one.
        if (remaining.length < 2) mode = remaining.length === 0 ? 'idle' : 'done'
        pinchLast = null
        return out
      }
      if (remaining.length > 0) return out
      if (mode === 'drag') out.push({ type: 'dragEnd', x: last.x, y: last.y })
      if (mode === 'probe') out.push({ type: 'probeEnd' })
      if (mode === 'pending' && now - startedAt < LONG_PRESS_MS) {
        if (
          lastTap &&
          now - lastTap.at <= DOUBLE_TAP_MS &&
          Math.hypot(origin.x - lastTap.x, origin.y - lastTap.y) <= DOUBLE_TAP_PX
        ) {
          out.push({ type: 'doubleTap', x: origin.x, y: origin.y })
          lastTap = null
        } else {
          out.push({ type: 'tap', x: origin.x, y: origin.y })
          lastTap = { x: origin.x, y: origin.y, at: now }
        }
      }
      mode = 'idle'
      return out
    },

    longPressDue(now) {
      if (mode !== 'pending' || now - startedAt < LONG_PRESS_MS) return []
      mode = 'probe'
      lastTap = null
      return [{ type: 'probe', x: last.x, y: last.y }]
    },
  }
}
