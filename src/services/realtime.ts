import Taro from '@tarojs/taro'
import {
  REALTIME_PATH,
  type RealtimeEvent,
  RealtimeServerMessageSchema,
} from '@contract/main/realtime'
import { getAccessToken, useSessionStore } from '@/stores/session-store'
import { hostOf } from './hosts'

/**
 * Live delivery: ONE WebSocket per app (the mini-program allows five and cuts them in the
 * background), opened while some screen listens and someone is signed in, closed in the
 * background and on logout. Events are pointers: a screen refetches by cursor over HTTP. `resync`
 * means "events may have been missed" (the socket (re)opened, the app came back to the
 * foreground, the server's fan-out reconnected): refetch after the cursor you hold, and drop what
 * you already show by id, so nothing shows twice.
 */
export type RealtimeNotice = RealtimeEvent | { kind: 'resync' }
export type RealtimeListener = (notice: RealtimeNotice) => void

/** What the client needs of Taro's SocketTask (the same on weapp and H5). */
export interface SocketLike {
  send(option: { data: string }): unknown
  close(option: { code?: number; reason?: string }): unknown
  onOpen(callback: () => void): void
  onClose(callback: (result: { code?: number; reason?: string }) => void): void
  onError(callback: (error: unknown) => void): void
  onMessage(callback: (result: { data: unknown }) => void): void
}

export interface RealtimeDeps {
  connect(url: string): Promise<SocketLike>
  url(): string
  token(): string | null
  /** Calls back with the new token whenever it changes (login, refresh, logout); returns the stop. */
  watchToken(callback: (token: string | null) => void): () => void
  onAppShow(callback: () => void): void
  onAppHide(callback: () => void): void
}

/** Reconnect delays while someone listens: 1 s, 2 s, 5 s, then every 10 s. */
export const RECONNECT_DELAYS_MS = [1_000, 2_000, 5_000, 10_000] as const
/** An app-level ping this often; no answer within PONG_TIMEOUT_MS and the socket is replaced. */
export const PING_INTERVAL_MS = 25_000
export const PONG_TIMEOUT_MS = 10_000

export interface RealtimeClient {
  subscribe(listener: RealtimeListener): () => void
  /** Hooks app show/hide and the session (once; the first subscribeRealtime calls it). */
  start(): void
  /** What the client is doing now (tests and diagnostics). */
  status(): 'idle' | 'connecting' | 'authenticating' | 'ready' | 'waiting'
}

export function createRealtimeClient(deps: RealtimeDeps): RealtimeClient {
  const listeners = new Set<RealtimeListener>()
  let foreground = true
  let started = false
  let token: string | null = null
  /** A token the server refused (or a socket another copy of the app displaced): wait for a change. */
  let refusedToken: string | null = null
  let displaced = false
  let socket: SocketLike | undefined
  let connecting = false
  let ready = false
  let attempt = 0
  let generation = 0
  let retryTimer: ReturnType<typeof setTimeout> | undefined
  let pingTimer: ReturnType<typeof setInterval> | undefined
  let pongTimer: ReturnType<typeof setTimeout> | undefined

  const emit = (notice: RealtimeNotice) => {
    for (const listener of [...listeners]) {
      try {
        listener(notice)
      } catch (error) {
        console.error('realtime listener failed', error)
      }
    }
  }

  const currentToken = () => (started ? token : deps.token())

  const wanted = () => {
    const value = currentToken()
    return listeners.size > 0 && foreground && !!value && value !== refusedToken && !displaced
  }

  const stopTimers = () => {
    if (pingTimer) clearInterval(pingTimer)
    if (pongTimer) clearTimeout(pongTimer)
    pingTimer = undefined
    pongTimer = undefined
  }

  /** Drops the socket (if any) without reconnecting; its late callbacks are ignored. */
  const drop = () => {
    generation += 1
    stopTimers()
    const current = socket
    socket = undefined
    connecting = false
    ready = false
    if (current) {
      try {
        current.close({ code: 1000, reason: 'bye' })
      } catch {
        // already closed
      }
    }
  }

  const scheduleRetry = () => {
    if (retryTimer || !wanted()) return
    const delay = RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)]
    attempt += 1
    retryTimer = setTimeout(() => {
      retryTimer = undefined
      evaluate()
    }, delay)
  }

  const cancelRetry = () => {
    if (retryTimer) clearTimeout(retryTimer)
    retryTimer = undefined
  }

  const lost = (mine: number) => {
    if (mine !== generation) return
    drop()
    scheduleRetry()
  }

  const open = () => {
    const mine = (generation += 1)
    const signInWith = currentToken()!
    connecting = true
    deps.connect(deps.url()).then(
      (task) => {
        if (mine !== generation) {
          task.close({ code: 1000, reason: 'bye' })
          return
        }
        socket = task
        task.onOpen(() => {
          if (mine !== generation) return
          task.send({ data: JSON.stringify({ type: 'auth', token: signInWith }) })
        })
        task.onMessage(({ data }) => {
          if (mine !== generation) return
          receive(mine, signInWith, data)
        })
        task.onError(() => lost(mine))
        task.onClose(() => lost(mine))
      },
      () => {
        if (mine !== generation) return
        connecting = false
        scheduleRetry()
      },
    )
  }

  const receive = (mine: number, signedInWith: string, data: unknown) => {
    if (pongTimer) clearTimeout(pongTimer)
    pongTimer = undefined
    let parsed: unknown
    try {
      parsed = typeof data === 'string' ? JSON.parse(data) : undefined
    } catch {
      return
    }
    const result = RealtimeServerMessageSchema.safeParse(parsed)
    if (!result.success) return
    const message = result.data
    switch (message.type) {
      case 'ready':
        connecting = false
        ready = true
        attempt = 0
        startPings(mine)
        // Whatever happened while there was no socket (or before this one signed in) is read now.
        emit({ kind: 'resync' })
        return
      case 'event':
        emit(message.event)
        return
      case 'resync':
        emit({ kind: 'resync' })
        return
      case 'error':
        // H5's SocketTask reports every server close as 1006, so the reason comes in this message.
        if (message.reason === 'unauthorized' || message.reason === 'session-ended') {
          refusedToken = signedInWith
        } else if (message.reason === 'too-many-sockets') {
          displaced = true
        }
        return
      case 'pong':
        return
    }
  }

  const startPings = (mine: number) => {
    stopTimers()
    pingTimer = setInterval(() => {
      if (mine !== generation || !socket) return
      socket.send({ data: JSON.stringify({ type: 'ping' }) })
      if (!pongTimer) pongTimer = setTimeout(() => lost(mine), PONG_TIMEOUT_MS)
    }, PING_INTERVAL_MS)
  }

  /** Opens or closes the socket to match what is wanted now. */
  const evaluate = () => {
    if (!wanted()) {
      cancelRetry()
      if (socket || connecting) drop()
      return
    }
    if (socket || connecting || retryTimer) return
    open()
  }

  const onToken = (next: string | null) => {
    if (next === token) return
    token = next
    // A new session (login, refresh, another account) signs in afresh.
    drop()
    cancelRetry()
    attempt = 0
    evaluate()
  }

  return {
    subscribe(listener) {
      listeners.add(listener)
      evaluate()
      return () => {
        listeners.delete(listener)
        evaluate()
      }
    },
    start() {
      if (started) return
      started = true
      token = deps.token()
      deps.watchToken(onToken)
      deps.onAppHide(() => {
        foreground = false
        evaluate()
      })
      deps.onAppShow(() => {
        if (foreground) return
        foreground = true
        displaced = false
        attempt = 0
        if (listeners.size > 0) emit({ kind: 'resync' })
        evaluate()
      })
      evaluate()
    },
    status() {
      if (ready) return 'ready'
      if (socket) return 'authenticating'
      if (connecting) return 'connecting'
      if (retryTimer) return 'waiting'
      return 'idle'
    },
  }
}

/**
 * The socket's address: the main service's base with ws:// or wss://. On H5 the base may be a
 * bare path (same origin as the page), completed with the page's origin.
 */
export function socketUrl(base: string, pageOrigin: string): string {
  const absolute = /^https?:\/\//i.test(base) ? base : `${pageOrigin}${base}`
  return `${absolute.replace(/^http/i, 'ws')}${REALTIME_PATH}`
}

function pageOrigin(): string {
  return typeof location !== 'undefined' && location.origin ? location.origin : ''
}

const taroDeps: RealtimeDeps = {
  connect: (url) => Taro.connectSocket({ url }),
  url: () => socketUrl(hostOf('main'), pageOrigin()),
  token: getAccessToken,
  watchToken: (callback) =>
    useSessionStore.subscribe((state, previous) => {
      if (state.token?.access_token !== previous.token?.access_token) {
        callback(state.token?.access_token ?? null)
      }
    }),
  onAppShow: (callback) => Taro.onAppShow(callback),
  onAppHide: (callback) => Taro.onAppHide(callback),
}

const client = createRealtimeClient(taroDeps)

/**
 * Listens for live events while a screen is open; the socket opens with the first listener (if
 * signed in) and closes with the last. Prefer `useRealtime` in components.
 */
export function subscribeRealtime(listener: RealtimeListener): () => void {
  // The first screen that listens starts the client (app show/hide, the session): nothing needs
  // it before, and the H5 first screen stays within its size budget without it.
  client.start()
  return client.subscribe(listener)
}

/** Follows app show/hide and the session from now on (idempotent; subscribeRealtime calls it). */
export function startRealtime(): void {
  client.start()
}
