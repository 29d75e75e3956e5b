import { useCallback, useEffect, useRef, useState } from 'react'
import { describeError } from '@/services/api'

/** What a screen shows while one thing loads: loading, the error, the data. */
export type ResourceState<T> =
  | { status: 'loading' }
  | { status: 'error'; error: unknown; message: string }
  | { status: 'ready'; data: T }

export interface ResourceActions<T> {
  /**
   * Asks again. From ready the old data stays on screen until the new answer comes (a retry after an
   * action does not flash the page); from an error it shows loading. Resolves when the answer is in.
   */
  reload: () => Promise<void>
  /** Changes the data on screen without asking the server (after a change the server confirmed). */
  replace: (next: T | ((current: T) => T)) => void
}

export type Resource<T> = ResourceState<T> & ResourceActions<T>
/** A resource that may not be asked for yet (its key is null): 'idle' until it is. */
export type OptionalResource<T> = (ResourceState<T> | { status: 'idle' }) & ResourceActions<T>

export interface ResourceOptions {
  /** The message for an error that carries no words of the server's (see describeError). */
  errorMessage?: string
}

const IDLE = { status: 'idle' } as const
const LOADING = { status: 'loading' } as const

/**
 * One thing a screen loads. `key` names what is asked (an id, a filter written as a string): when it
 * changes the thing is loaded again and an answer for an older key, or one arriving after the
 * screen closed, is dropped. A `null` key asks nothing (a sheet that is closed). The error comes with
 * the server's own Chinese words (`message`), or `errorMessage` when it has none.
 */
export function useResource<T>(
  key: string,
  load: () => Promise<T>,
  options?: ResourceOptions,
): Resource<T>
export function useResource<T>(
  key: string | null,
  load: () => Promise<T>,
  options?: ResourceOptions,
): OptionalResource<T>
export function useResource<T>(
  key: string | null,
  load: () => Promise<T>,
  options: ResourceOptions = {},
): OptionalResource<T> {
  const [state, setState] = useState<ResourceState<T> | typeof IDLE>(key === null ? IDLE : LOADING)
  const generation = useRef(0)
  const latest = useRef({ load, errorMessage: options.errorMessage, state })
  latest.current = { load, errorMessage: options.errorMessage, state }

  const run = useCallback(async (keepData: boolean): Promise<void> => {
    const mine = ++generation.current
    if (!keepData) setState(LOADING)
    try {
      const data = await latest.current.load()
      if (mine === generation.current) setState({ status: 'ready', data })
    } catch (error) {
      if (mine !== generation.current) return
      const message = describeError(error, latest.current.errorMessage)
      setState({ status: 'error', error, message })
    }
  }, [])

  useEffect(() => {
    if (key === null) {
      setState(IDLE)
      return
    }
    void run(false)
    return () => {
      // Unmounted, or the key changed: whatever is in flight answers an old question.
      generation.current += 1
    }
  }, [key, run])

  const reload = useCallback(async () => {
    if (key === null) return
    await run(latest.current.state.status === 'ready')
  }, [key, run])

  const replace = useCallback((next: T | ((current: T) => T)) => {
    setState((current) => {
      if (current.status !== 'ready') return current
      const data = typeof next === 'function' ? (next as (current: T) => T)(current.data) : next
      return { status: 'ready', data }
    })
  }, [])

  return { ...state, reload, replace }
}
