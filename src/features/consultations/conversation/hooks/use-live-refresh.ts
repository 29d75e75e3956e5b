import { useEffect, useRef } from 'react'
import { useDidHide, useDidShow } from '@tarojs/taro'

/** How often the fallback asks while the page is on screen. */
export const FALLBACK_POLL_MS = 5000

/**
 * What tells an open conversation (or 患者咨询) that something may be new: `onNew` is called and it
 * reads after its cursor, so a missed or repeated signal costs one request and never a duplicate.
 *
 * Fallback until the realtime client (src/services/realtime.ts, another branch) is on main: on every
 * page show, then every FALLBACK_POLL_MS while the page stays visible (no timer while it is hidden:
 * the mini-program cuts requests in the background anyway). Once the socket lands, the subscription
 * goes in the one place marked `realtime:` below and the poll can slow down to a safety net.
 */
export function useLiveRefresh(
  onNew: () => void,
  { consultationId }: { consultationId?: string } = {},
): void {
  const latest = useRef(onNew)
  latest.current = onNew
  const visible = useRef(true)
  const timer = useRef<ReturnType<typeof setInterval> | null>(null)

  const stop = () => {
    if (timer.current !== null) clearInterval(timer.current)
    timer.current = null
  }
  const start = () => {
    stop()
    timer.current = setInterval(() => {
      if (visible.current) latest.current()
    }, FALLBACK_POLL_MS)
  }

  useDidShow(() => {
    visible.current = true
    latest.current()
    start()
  })
  useDidHide(() => {
    visible.current = false
    stop()
  })

  useEffect(() => {
    start()
    // realtime: subscribe here with subscribeRealtime(listener); the listener calls latest.current()
    // on `resync` and on consultation.message / consultation.changed for this consultationId (any
    // consultation when none is given), and its unsubscribe is returned together with stop.
    return stop
    // start/stop only touch refs.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [consultationId])
}
