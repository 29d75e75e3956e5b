import { useEffect, useRef } from 'react'
import { useDidHide, useDidShow } from '@tarojs/taro'
import { type RealtimeNotice, subscribeRealtime } from '@/services/realtime'

/**
 * How often the safety net asks while the page is on screen. It was the whole live source (5 s)
 * until the socket landed; now the socket carries news and this only covers a socket that cannot
 * open (a blocked network, a server without it).
 */
export const FALLBACK_POLL_MS = 15000

/** Whether a live notice may concern this screen (one consultation, or any when none is named). */
export function concerns(notice: RealtimeNotice, consultationId: string | undefined): boolean {
  if (notice.kind === 'resync') return true
  if (!('consultationId' in notice)) return false
  return consultationId === undefined || notice.consultationId === consultationId
}

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
    // realtime: the one subscription; a notice is only a pointer, the screen reads by cursor.
    const unsubscribe = subscribeRealtime((notice) => {
      if (visible.current && concerns(notice, consultationId)) latest.current()
    })
    return () => {
      unsubscribe()
      stop()
    }
    // start/stop only touch refs.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [consultationId])
}
