import { useEffect, useMemo, useRef } from 'react'
import { domStage, measureStage } from '../components/stage'
import { touchesOf, type WheelInput } from '../input'
import { clientToStage, type StageBox } from '../viewport'
import {
  createGestureRecognizer,
  LONG_PRESS_MS,
  type GestureAction,
  type TouchPoint,
} from './gestures'

export interface StageInputOptions {
  /** The stage's width in CSS pixels (the slice strip is its right edge); 0 before it is measured. */
  viewWidth: () => number
  /** The stage's box on screen (measured by the painter; a browser's is measured again per touch). */
  stageBox: { current: StageBox }
  /** 横屏全屏 turned by CSS: touches and the mouse map onto the turned axes. */
  turned: boolean
  /** A finger held still probes the value under it (not while a measuring tool is on). */
  canProbe: () => boolean
  onGestures: (actions: GestureAction[]) => void
  onWheel: (wheel: WheelInput) => void
}

export interface StageTouchHandlers {
  onTouchStart: (event: unknown) => void
  onTouchMove: (event: unknown) => void
  onTouchEnd: (event: unknown) => void
  onTouchCancel: (event: unknown) => void
}

/** A touch screen sends mouse events after a touch too: within this long they are not a mouse. */
const MOUSE_AFTER_TOUCH_MS = 1000

/**
 * The stage's input on both platforms, turned into gesture actions (hooks/gestures.ts): touches
 * from the Taro handlers this answers, the long-press timer, and on desktop H5 the mouse (a drag is
 * a one-finger drag) and the wheel, listened to on the document so a drag may leave the stage.
 */
export function useStageInput(options: StageInputOptions): StageTouchHandlers {
  const latest = useRef(options)
  latest.current = options
  const recognizer = useMemo(() => createGestureRecognizer(() => latest.current.viewWidth()), [])
  const longPressTimer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const touchAt = useRef(0)

  const handlers = useMemo(() => {
    const act = (actions: GestureAction[]) => latest.current.onGestures(actions)
    const clearLongPress = () => {
      if (longPressTimer.current) clearTimeout(longPressTimer.current)
      longPressTimer.current = null
    }
    const start = (points: TouchPoint[]) => {
      act(recognizer.start(points, Date.now()))
      clearLongPress()
      if (points.length === 1 && latest.current.canProbe()) {
        longPressTimer.current = setTimeout(
          () => act(recognizer.longPressDue(Date.now())),
          LONG_PRESS_MS,
        )
      }
    }
    const move = (points: TouchPoint[]) => {
      const actions = recognizer.move(points, Date.now())
      if (actions.length > 0 && actions[0]!.type !== 'probe') clearLongPress()
      act(actions)
    }
    const end = (points: TouchPoint[]) => {
      clearLongPress()
      act(recognizer.end(points, Date.now()))
    }
    const touch = (handler: (points: TouchPoint[]) => void) => (event: unknown) => {
      touchAt.current = Date.now()
      const { stageBox, turned } = latest.current
      // A browser's layout can move (the address bar); the mini-program's is measured once.
      if (domStage()) measureStage(stageBox)
      handler(touchesOf(event as { touches?: ArrayLike<unknown> }, stageBox.current, turned))
    }
    return {
      start,
      move,
      end,
      clearLongPress,
      touch: {
        onTouchStart: touch(start),
        onTouchMove: touch(move),
        onTouchEnd: touch(end),
        onTouchCancel: touch(end),
      },
    }
  }, [recognizer])

  // Desktop H5: drag = W/L (the same path as one finger), wheel = slices, ctrl+wheel = zoom.
  useEffect(() => {
    const element = domStage()
    if (!element) return undefined
    let down = false
    const fromTouch = () => Date.now() - touchAt.current < MOUSE_AFTER_TOUCH_MS
    const local = (event: MouseEvent) =>
      clientToStage(
        { x: event.clientX, y: event.clientY },
        element.getBoundingClientRect(),
        latest.current.turned,
      )
    const point = (event: MouseEvent): TouchPoint[] => [{ id: -1, ...local(event) }]
    const onDown = (event: MouseEvent) => {
      if (fromTouch() || event.button !== 0) return
      down = true
      handlers.start(point(event))
    }
    const onMove = (event: MouseEvent) => {
      if (down) handlers.move(point(event))
    }
    const onUp = () => {
      if (!down) return
      down = false
      handlers.end([])
    }
    const onWheel = (event: WheelEvent) => {
      event.preventDefault()
      const zoom = event.ctrlKey || event.metaKey
      // The pointer only for a zoom: reading the layout in every slice step would cost a reflow.
      latest.current.onWheel({ deltaY: event.deltaY, zoom, at: zoom ? local(event) : null })
    }
    element.addEventListener('mousedown', onDown)
    document.addEventListener('mousemove', onMove)
    document.addEventListener('mouseup', onUp)
    element.addEventListener('wheel', onWheel, { passive: false })
    return () => {
      element.removeEventListener('mousedown', onDown)
      document.removeEventListener('mousemove', onMove)
      document.removeEventListener('mouseup', onUp)
      element.removeEventListener('wheel', onWheel)
    }
  }, [handlers])

  useEffect(() => () => handlers.clearLongPress(), [handlers])

  return handlers.touch
}
