import fastifyWebsocket from '@fastify/websocket'
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import type { WebSocket } from 'ws'
import {
  REALTIME_CLOSE_CODES,
  REALTIME_MAX_CLIENT_MESSAGE_BYTES,
  REALTIME_MESSAGES,
  RealtimeClientMessageSchema,
  type RealtimeErrorReason,
  type RealtimeServerMessage,
} from '@contract/main/realtime'
import type { SessionLookup } from '../http/auth'
import type { BusDelivery, RealtimeBus } from './bus'

export interface RealtimeSocketOptions {
  /** The first message must be the auth message within this (ms). */
  authTimeoutMs: number
  /** How often a signed-in socket's session is looked up again; ended sessions are closed (ms). */
  sessionCheckMs: number
  /** Protocol pings this often; a socket that did not answer the previous one is dropped (ms). */
  heartbeatMs: number
  /** Sockets of one account in this process; the oldest is closed for a newer one. */
  maxSocketsPerUser: number
  /** Unsent bytes a socket may pile up before it counts as stuck and is dropped. */
  maxBufferedBytes: number
}

export const DEFAULT_SOCKET_OPTIONS: RealtimeSocketOptions = {
  authTimeoutMs: 5_000,
  sessionCheckMs: 60_000,
  heartbeatMs: 30_000,
  maxSocketsPerUser: 5,
  maxBufferedBytes: 1024 * 1024,
}

interface Connection {
  socket: WebSocket
  userId?: string
  token?: string
  alive: boolean
  openedAt: number
  unsubscribe?: () => void
  sessionTimer?: NodeJS.Timeout
}

export interface RealtimeSocketDeps {
  bus: RealtimeBus
  findSessionUser: SessionLookup
  options: RealtimeSocketOptions
}

/** The sockets of one app: who is signed in where, for the per-account limit and the heartbeat. */
export interface SocketRegistry {
  count(): number
  countOf(userId: string): number
}

/**
 * Registers the WebSocket route at `path` on `app` (an encapsulated route plugin): the socket is
 * signed in by its first message, hears its account's bus events, and is dropped when the session
 * ends, when it stops answering pings, or when a sixth socket of the same account arrives.
 */
export async function registerRealtimeSocket(
  app: FastifyInstance,
  path: string,
  deps: RealtimeSocketDeps,
): Promise<SocketRegistry> {
  const { bus, findSessionUser, options } = deps
  const all = new Set<Connection>()
  const byUser = new Map<string, Connection[]>()

  await app.register(fastifyWebsocket, {
    options: { maxPayload: REALTIME_MAX_CLIENT_MESSAGE_BYTES },
  })

  const heartbeat = setInterval(() => {
    for (const connection of all) {
      if (!connection.alive) {
        app.log.debug({ userId: connection.userId }, 'realtime socket missed a ping; dropped')
        connection.socket.terminate()
        continue
      }
      connection.alive = false
      try {
        connection.socket.ping()
      } catch {
        connection.socket.terminate()
      }
    }
  }, options.heartbeatMs)
  heartbeat.unref()
  app.addHook('onClose', async () => clearInterval(heartbeat))

  const send = (connection: Connection, message: RealtimeServerMessage) => {
    const { socket } = connection
    if (socket.readyState !== socket.OPEN) return
    if (socket.bufferedAmount > options.maxBufferedBytes) {
      app.log.debug({ userId: connection.userId }, 'realtime socket not reading; dropped')
      socket.terminate()
      return
    }
    socket.send(JSON.stringify(message))
  }

  const refuse = (connection: Connection, reason: RealtimeErrorReason, code: number) => {
    send(connection, { type: 'error', message: REALTIME_MESSAGES[reason], reason })
    // The reason is shown in no UI; the app reads the error message's `reason` (H5 loses the code).
    if (connection.socket.readyState === connection.socket.OPEN)
      connection.socket.close(code, reason)
  }

  const signIn = (connection: Connection, userId: string, token: string) => {
    connection.userId = userId
    connection.token = token
    const mine = byUser.get(userId) ?? []
    mine.push(connection)
    byUser.set(userId, mine)
    while (mine.length > options.maxSocketsPerUser) {
      const oldest = mine.shift()!
      refuse(oldest, 'too-many-sockets', REALTIME_CLOSE_CODES.tooManySockets)
    }
    connection.unsubscribe = bus.subscribe(userId, (delivery: BusDelivery) =>
      send(connection, delivery.type === 'event' ? delivery : { type: 'resync' }),
    )
    scheduleSessionCheck(connection)
    send(connection, { type: 'ready' })
    app.log.debug({ userId }, 'realtime socket signed in')
  }

  const scheduleSessionCheck = (connection: Connection) => {
    // Spread over ±10 % so sockets opened together do not all ask at once.
    const delay = options.sessionCheckMs * (0.9 + Math.random() * 0.2)
    connection.sessionTimer = setTimeout(() => void checkSession(connection), delay)
    connection.sessionTimer.unref()
  }

  const checkSession = async (connection: Connection) => {
    const { token, userId } = connection
    if (!token || connection.socket.readyState !== connection.socket.OPEN) return
    let found: Awaited<ReturnType<SessionLookup>>
    try {
      found = await findSessionUser(token)
    } catch (error) {
      // The database is busy or away: keep the socket and ask again next time.
      app.log.warn({ err: error }, 'realtime session check failed')
      scheduleSessionCheck(connection)
      return
    }
    if (!found || found.id !== userId) {
      app.log.debug({ userId }, 'realtime socket closed: session ended')
      refuse(connection, 'session-ended', REALTIME_CLOSE_CODES.unauthorized)
      return
    }
    scheduleSessionCheck(connection)
  }

  const forget = (connection: Connection) => {
    all.delete(connection)
    connection.unsubscribe?.()
    connection.unsubscribe = undefined
    if (connection.sessionTimer) clearTimeout(connection.sessionTimer)
    if (!connection.userId) return
    const mine = byUser.get(connection.userId)
    if (!mine) return
    const index = mine.indexOf(connection)
    if (index >= 0) mine.splice(index, 1)
    if (mine.length === 0) byUser.delete(connection.userId)
  }

  app.get(path, { websocket: true }, (socket, request) => {
    const log: FastifyBaseLogger = request.log
    const connection: Connection = { socket, alive: true, openedAt: Date.now() }
    all.add(connection)
    log.debug('realtime socket connected')
    let authenticating = false

    const authTimer = setTimeout(() => {
      if (connection.userId) return
      log.debug('realtime socket closed: no auth in time')
      refuse(connection, 'unauthorized', REALTIME_CLOSE_CODES.unauthorized)
    }, options.authTimeoutMs)
    authTimer.unref()

    socket.on('pong', () => (connection.alive = true))
    socket.on('error', (error) => log.debug({ err: error }, 'realtime socket error'))
    socket.on('close', (code) => {
      clearTimeout(authTimer)
      forget(connection)
      log.debug({ userId: connection.userId, code }, 'realtime socket disconnected')
    })
    socket.on('message', (data, isBinary) => {
      connection.alive = true
      if (isBinary) return
      const message = parseClientMessage(data.toString())
      if (!message) {
        // Unknown messages are ignored, except a broken sign-in, which is answered.
        if (!connection.userId && looksLikeAuth(data.toString())) {
          send(connection, {
            type: 'error',
            message: REALTIME_MESSAGES['bad-message'],
            reason: 'bad-message',
          })
        }
        return
      }
      if (message.type === 'ping') {
        send(connection, { type: 'pong' })
        return
      }
      if (connection.userId || authenticating) return
      authenticating = true
      findSessionUser(message.token).then(
        (found) => {
          authenticating = false
          if (socket.readyState !== socket.OPEN) return
          if (!found) {
            log.debug('realtime socket closed: token refused')
            refuse(connection, 'unauthorized', REALTIME_CLOSE_CODES.unauthorized)
            return
          }
          clearTimeout(authTimer)
          signIn(connection, found.id, message.token)
        },
        (error: unknown) => {
          authenticating = false
          log.warn({ err: error }, 'realtime sign-in failed')
          socket.terminate()
        },
      )
    })
  })

  return {
    count: () => all.size,
    countOf: (userId) => byUser.get(userId)?.length ?? 0,
  }
}

function parseClientMessage(text: string) {
  try {
    const result = RealtimeClientMessageSchema.safeParse(JSON.parse(text))
    return result.success ? result.data : undefined
  } catch {
    return undefined
  }
}

function looksLikeAuth(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text)
    return (
      typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'auth'
    )
  } catch {
    return false
  }
}
