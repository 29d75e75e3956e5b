import { useCallback, useEffect, useRef, useState } from 'react'
import { describeError } from '@/services/api'

/** What a screen shows while one thing loads: loading, the error, the data. */
export type ResourceState<T> =
  | { status: 'loading' }
  | { status: 'error'; error: unknown; message: string }
  | { status: 'ready'; data: T }

export interface ResourceActions<T> {
  /**
   * Asks again, at once. From ready the old data stays on screen until the new answer comes (a
   * retry after an action does not flash the page); from an error it shows loading. Resolves when
   * the answer is in.
   */
  reload: () => Promise<void>
  /** Asks again showing loading, even over data on screen (the answer will be another screen). */
  restart: () => Promise<void>
  /** Changes the data on screen without asking the server (after a change the server confirmed). */
  replace: (next: T | ((current: T) => T)) => void
}

export type Resource<T> = ResourceState<T> & ResourceActions<T>
/** A resource that may not be asked for yet (its key is null): 'idle' until it is. */
export type OptionalResource<T> = (ResourceState<T> | { status: 'idle' }) & ResourceActions<T>

/**
 * Handed to `load`: `aborted` turns true once its answer will be dropped (the key changed, a newer
 * reload started, the screen closed). It marks the answer stale and cancels nothing on the network
 * (the services take no signal). A load that does more than return its answer (sets a second
 * piece of state, starts a follow-up request) checks it first.
 */
export interface ResourceSignal {
  readonly aborted: boolean
}

export interface ResourceOptions {
  /** The message for an error that carries no words of the server's (see describeError). */
  errorMessage?: string
  /**
   * After the key changes, show loading at once but ask only once the key has stayed for this
   * long (a search box: one request when typing stops, not one a keystroke). A reload asks at once.
   */
  delayMs?: number
  /**
   * An error this says is no answer (a request hook cancelled the request: isCancelled) is not
   * shown: the state stays what it was when the load began, so loading for a first load (the
   * cancelling hook shows the way on, e.g. to login), the old data for a reload.
   */
  ignoreError?: (error: unknown) => boolean
}

const IDLE = { status: 'idle' } as const
const LOADING = { status: 'loading' } as const

/**
 * One thing a screen loads. `key` names what is asked (an id, a filter written as a string): when it
 * changes the thing is loaded again and an answer for an older key, or one arriving after the
 * screen closed, is dropped (and its `signal` aborted). A `null` key asks nothing (a sheet that is
 * closed). The error comes with the server's own Chinese words (`message`), or `errorMessage` when
 * it has none.
 */
export function useResource<T>(
  key: string,
  load: (signal: ResourceSignal) => Promise<T>,
  options?: ResourceOptions,
): Resource<T>
export function useResource<T>(
  key: string | null,
  load: (signal: ResourceSignal) => Promise<T>,
  options?: ResourceOptions,
): OptionalResource<T>
export function useResource<T>(
  key: string | null,
  load: (signal: ResourceSignal) => Promise<T>,
  options: ResourceOptions = {},
): OptionalResource<T> {
  const [state, setState] = useState<ResourceState<T> | typeof IDLE>(key === null ? IDLE : LOADING)
  const generation = useRef(0)
  const inFlight = useRef<{ aborted: boolean } | null>(null)
  /** The ask waiting out `delayMs`; a newer ask (a reload meanwhile) cancels it. */
  const waiting = useRef<ReturnType<typeof setTimeout> | null>(null)
  const latest = useRef({ load, options, state })
  latest.current = { load, options, state }

  /** Whatever is in flight or waiting answers an old question from now on. */
  const drop = useCallback(() => {
    if (waiting.current !== null) clearTimeout(waiting.current)
    waiting.current = null
    generation.current += 1
    if (inFlight.current) inFlight.current.aborted = true
    inFlight.current = null
  }, [])

  const run = useCallback(
    async (keepData: boolean): Promise<void> => {
      drop()
      const mine = generation.current
      const signal = { aborted: false }
      inFlight.current = signal
      if (!keepData) setState(LOADING)
      try {
        const data = await latest.current.load(signal)
        if (mine === generation.current) setState({ status: 'ready', data })
      } catch (error) {
        if (mine !== generation.current) return
        const { errorMessage, ignoreError } = latest.current.options
        if (ignoreError?.(error)) return
        setState({ status: 'error', error, message: describeError(error, errorMessage) })
      } finally {
        if (inFlight.current === signal) inFlight.current = null
      }
    },
    [drop],
  )

  useEffect(() => {
    if (key === null) {
      setState(IDLE)
      return
    }
    const delayMs = latest.current.options.delayMs ?? 0
    if (delayMs <= 0) {
      void run(false)
      return drop
    }
    setState(LOADING)
    waiting.current = setTimeout(() => {
      waiting.current = null
      void run(false)
    }, delayMs)
    return drop
  }, [key, run, drop])

  const reload = useCallback(async () => {
    if (key === null) return
    await run(latest.current.state.status === 'ready')
  }, [key, run])

  const restart = useCallback(async () => {
    if (key === null) return
    await run(false)
  }, [key, run])

  const replace = useCallback((next: T | ((current: T) => T)) => {
    setState((current) => {
      if (current.status !== 'ready') return current
      const data = typeof next === 'function' ? (next as (current: T) => T)(current.data) : next
      return { status: 'ready', data }
    })
  }, [])

  return { ...state, reload, restart, replace }
}
