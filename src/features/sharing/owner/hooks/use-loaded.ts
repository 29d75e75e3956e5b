import { useCallback, useEffect, useRef, useState } from 'react'

export type Loaded<T> =
  | { status: 'loading'; reload: () => void }
  | { status: 'error'; error: unknown; reload: () => void }
  | { status: 'ready'; data: T; reload: () => void; replace: (data: T) => void }

/**
 * One list the owner's pages load: loading, error with retry, ready. `key` changing loads again and
 * an answer for an older key is dropped; a reload keeps the old data on screen until the new one
 * comes, so 撤销 does not flash the whole list. (The records feature has its own: features do not
 * import each other.)
 */
export function useLoaded<T>(key: string, load: () => Promise<T>): Loaded<T> {
  const [state, setState] = useState<
    { status: 'loading' } | { status: 'error'; error: unknown } | { status: 'ready'; data: T }
  >({ status: 'loading' })
  const generation = useRef(0)
  const loadRef = useRef(load)
  loadRef.current = load

  const run = useCallback((keep: boolean) => {
    const mine = ++generation.current
    if (!keep) setState({ status: 'loading' })
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
