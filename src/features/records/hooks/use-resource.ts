import { useCallback, useEffect, useRef, useState } from 'react'

export type Resource<T> =
  | { status: 'loading'; reload: () => void }
  | { status: 'error'; error: unknown; reload: () => void }
  | { status: 'ready'; data: T; reload: () => void; replace: (data: T) => void }

/**
 * One thing a page loads (an exam, a report): loading, error with retry, ready. `key` changing loads
 * again; an answer for an older key is dropped. `reload` keeps showing the old data until the new
 * answer comes, so a retry after an action does not flash the whole page.
 */
export function useResource<T>(key: string, load: () => Promise<T>): Resource<T> {
  const [state, setState] = useState<
    { status: 'loading' } | { status: 'error'; error: unknown } | { status: 'ready'; data: T }
  >({ status: 'loading' })
  const generation = useRef(0)
  const loadRef = useRef(load)
  loadRef.current = load

  const run = useCallback((keepData: boolean) => {
    const mine = ++generation.current
    if (!keepData) setState({ status: 'loading' })
    loadRef.current().then(
      (data) => {
        if (mine === generation.current) setState({ status: 'ready', data })
      },
      (error: unknown) => {
        if (mine === generation.current) setState({ status: 'error', error })
      },
    )
  }, [])

  useEffect(() => {
    run(false)
  }, [key, run])

  const reload = useCallback(() => run(state.status === 'ready'), [run, state.status])
  const replace = useCallback((data: T) => setState({ status: 'ready', data }), [])

  if (state.status === 'ready') return { ...state, reload, replace }
  return { ...state, reload }
}
