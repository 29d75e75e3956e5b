import { useCallback, useRef, useState } from 'react'
import { showToast } from '@/platform/ui'
import { describeError } from '@/services/api'
import { addFavourite, type FavouriteKind, removeFavourite } from '@/services/favourites'

export interface Toggle {
  on: boolean
  count: number
  toggle: () => Promise<void>
}

/**
 * A like or a favourite: shown at once (optimistic), sent, and put back if the server refused.
 * A second tap while one is on its way is ignored, so a double tap never counts twice; the
 * server is idempotent as well.
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

/** 收藏 of an article or a video (the count the server answers after adding). */
export function useFavourite(
  kind: FavouriteKind,
  targetId: string,
  initial: { on: boolean; count: number },
) {
  return useToggle(initial, async (on) => {
    if (on) return addFavourite(kind, targetId)
    await removeFavourite(kind, targetId)
    return undefined
  })
}
