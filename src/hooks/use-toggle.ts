import { useCallback, useRef, useState } from 'react'
import { showToast } from '@/platform/ui'
import { describeError } from '@/services/api'

export interface Toggle {
  on: boolean
  count: number
  toggle: () => Promise<void>
}

/**
 * A like or a favourite (an article, a video, an expert): shown at once (optimistic), sent, and
 * put back if the server refused. A second tap while one is on its way is ignored, so a double tap
 * never counts twice; the server is idempotent as well. `send` answers the server's count, or
 * undefined to keep the optimistic one.
 */
export function useToggle(
  initial: { on: boolean; count: number },
  send: (on: boolean) => Promise<number | undefined>,
): Toggle & { reset: (value: { on: boolean; count: number }) => void } {
  const [state, setState] = useState(initial)
  const busy = useRef(false)
  const toggle = useCallback(async () => {
    if (busy.current) return
    busy.current = true
    const before = state
    const on = !state.on
    setState({ on, count: Math.max(0, state.count + (on ? 1 : -1)) })
    try {
      const count = await send(on)
      if (count !== undefined) setState({ on, count })
    } catch (error) {
      setState(before)
      showToast(describeError(error))
    } finally {
      busy.current = false
    }
  }, [state, send])
  return { ...state, toggle, reset: setState }
}
