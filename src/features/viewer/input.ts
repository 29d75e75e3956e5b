import { valueAt, type PixelData } from './core'
import type { GestureAction, TouchPoint } from './hooks/gestures'
import { imageSize, isDragTool, shownSlice, type ViewAction, type ViewState } from './view-state'
import { clientToStage, pixelAt, type ScreenPoint, type StageBox } from './viewport'

/**
 * What the person's input means for the view, as pure functions: a recognised gesture
 * (hooks/gestures.ts) or a mouse wheel step, read against the current view state, becomes view
 * actions (view-state.ts). hooks/use-stage-input.ts feeds them the platform's events.
 *
 * - one finger dragged: window/level, or the line (测距) or ellipse (椭圆) being measured
 * - a tap: the next point of an angle while 测角 is on
 * - the edge strip swiped or the wheel turned: the next slices
 * - two fingers: zoom about their midpoint and pan; a double tap fits; ctrl+wheel zooms
 * - held still: the value under the finger (HU for CT)
 */

/** Wheel zoom: a factor of e per 300 px of wheel delta (one notch of a mouse is about 100). */
export const WHEEL_ZOOM_PX = 300

function round(value: number): string {
  return String(Math.round(value))
}

/**
 * The view actions of one gesture action. `pixels` are the shown slice's own (null while it
 * loads: nothing is probed then). Before the stage is measured, no gesture means anything.
 */
export function gestureActions(
  action: GestureAction,
  state: ViewState,
  pixels: PixelData | null,
): ViewAction[] {
  const { viewport, view, tool } = state
  if (!viewport || !view) return []
  switch (action.type) {
    case 'dragStart':
      return isDragTool(tool) ? [{ type: 'measureStart', at: action }] : []
    case 'drag':
      if (isDragTool(tool) && state.draft) return [{ type: 'measureMove', at: action }]
      if (tool !== 'none' || !state.window) return []
      return [{ type: 'windowDrag', dx: action.dx, dy: action.dy }]
    case 'dragEnd':
      return isDragTool(tool) && state.draft ? [{ type: 'measureEnd' }] : []
    case 'tap':
      return tool === 'angle' ? [{ type: 'anglePoint', at: action }] : []
    case 'slices':
      return [{ type: 'goTo', index: state.index + action.delta }]
    case 'pinch':
      return [{ type: 'zoom', factor: action.factor, at: { x: action.x, y: action.y } }]
    case 'pan':
      return [{ type: 'pan', dx: action.dx, dy: action.dy }]
    case 'doubleTap':
      return [{ type: 'fit' }]
    case 'probe': {
      const info = shownSlice(state).info
      const at = pixels ? pixelAt(viewport, view, imageSize(shownSlice(state)), action) : null
      const value = at && pixels ? valueAt(info, pixels, at.x, at.y) : null
      const text = value ? `${round(value.value)}${value.unit ? ` ${value.unit}` : ''}` : null
      return [{ type: 'probe', probe: text ? { x: action.x, y: action.y, text } : null }]
    }
    case 'probeEnd':
      return [{ type: 'probe', probe: null }]
  }
}

export interface WheelInput {
  deltaY: number
  /** ctrl or ⌘ held (a trackpad's pinch arrives as a ctrl+wheel too). */
  zoom: boolean
  /** The pointer in the stage's CSS pixels (read for a zoom only). */
  at: ScreenPoint | null
}

/** Desktop H5: the wheel steps one slice a notch; with ctrl it zooms about the pointer. */
export function wheelActions(wheel: WheelInput, state: ViewState): ViewAction[] {
  if (wheel.zoom) {
    if (!state.viewport || !state.view || !wheel.at) return []
    return [{ type: 'zoom', factor: Math.exp(-wheel.deltaY / WHEEL_ZOOM_PX), at: wheel.at }]
  }
  if (wheel.deltaY === 0) return []
  return [{ type: 'goTo', index: state.index + Math.sign(wheel.deltaY) }]
}

/**
 * The touches of a touch event in the stage's own CSS pixels: H5 gives clientX/clientY, the
 * mini-program x/y (already page coordinates); `turned` for 横屏全屏 turned by CSS.
 */
export function touchesOf(
  event: { touches?: ArrayLike<unknown> },
  stage: StageBox,
  turned: boolean,
): TouchPoint[] {
  const list = event.touches ?? []
  const out: TouchPoint[] = []
  for (let i = 0; i < list.length; i += 1) {
    const t = list[i] as {
      identifier?: number
      clientX?: number
      clientY?: number
      x?: number
      y?: number
    }
    const x = t.clientX ?? t.x ?? 0
    const y = t.clientY ?? t.y ?? 0
    out.push({ id: t.identifier ?? i, ...clientToStage({ x, y }, stage, turned) })
  }
  return out
}
