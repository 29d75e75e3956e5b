import { useEffect, useRef } from 'react'
import { type RealtimeListener, subscribeRealtime } from '@/services/realtime'

/**
 * Live events while the calling screen is mounted (one app-wide socket underneath). `listener` may
 * change on every render; the latest one is called. On `resync`, refetch after your cursor.
 */
export function useRealtime(listener: RealtimeListener): void {
  const latest = useRef(listener)
  latest.current = listener
  useEffect(() => subscribeRealtime((notice) => latest.current(notice)), [])
}
