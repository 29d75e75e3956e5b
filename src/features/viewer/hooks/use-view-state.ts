import { useCallback, useRef, useState } from 'react'
import {
  initialViewState,
  reduceView,
  type Measurement,
  type ViewAction,
  type ViewState,
} from '../view-state'
import type { Slice } from './frame-loader'

/** Called with the state before and after the actions, before React is told of the change. */
export type BeforeRender = (before: ViewState, after: ViewState) => void

export interface ViewStore {
  /** The state React rendered last. */
  state: ViewState
  /** The state after every action so far, rendered or not (what an input event starts from). */
  latest: { readonly current: ViewState }
  /** Applies the actions in order; `beforeRender` runs when they changed anything. */
  dispatch: (actions: ViewAction[], beforeRender?: BeforeRender) => void
}

/**
 * The view state (view-state.ts) held for a component. Unlike useReducer, the reduced value is
 * known in the event itself: a fast wheel's second step, or a drag's next move, starts from the
 * first one's slice and window before React has rendered either, and the caller can draw the
 * frame before React is told (a state update in a browser event may render synchronously, and a
 * render of the viewer costs more than the drawing).
 */
export function useViewState(
  slices: Slice[],
  startIndex: number,
  /** Shown from the start (a pinned finding). */
  measurements: Measurement[] = [],
): ViewStore {
  const [state, setState] = useState(() => initialViewState(slices, startIndex, measurements))
  const latest = useRef(state)
  const dispatch = useCallback((actions: ViewAction[], beforeRender?: BeforeRender) => {
    const before = latest.current
    let after = before
    for (const action of actions) after = reduceView(after, action)
    if (after === before) return
    latest.current = after
    beforeRender?.(before, after)
    setState(after)
  }, [])
  return { state, latest, dispatch }
}
