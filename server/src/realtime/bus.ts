import { createHash, randomUUID } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import { sql } from 'kysely'
import pg from 'pg'
import type { RealtimeEvent } from '@contract/main/realtime'
import type { DatabaseConfig } from '../config'
import type { DatabaseHandle, DB } from '../db'

/** What a subscriber hears: an event for its user, or word that events may have been lost. */
export type BusDelivery = { type: 'event'; event: RealtimeEvent } | { type: 'resync' }
export type BusListener = (delivery: BusDelivery) => void

export interface RealtimeBus {
  /**
   * Tells each of `userIds` that `event` happened, on every server process. Call it after the
   * transaction that made the change has committed (a socket's app refetches at once and must see
   * it). On PostgreSQL `trx` may instead be that transaction: NOTIFY is delivered at its commit and
   * dropped with its rollback. On SQLite a `trx` is ignored and delivery is immediate, so callers
   * there must publish after commit (they always can: the domain publishes after its transaction).
   * Never throws for a delivery problem: a lost event costs a refetch, never the caller's request.
   */
  publish(userIds: readonly string[], event: RealtimeEvent, trx?: DB): Promise<void>
  /** Listens for `userId`'s events in this process; returns the unsubscribe. */
  subscribe(userId: string, listener: BusListener): () => void
  /** Resolves once cross-process delivery is live (PostgreSQL's LISTEN; at once on SQLite). */
  whenListening(): Promise<void>
  /** Whether cross-process delivery is live right now (false while the listener reconnects). */
  listening(): boolean
  /** How many (user, listener) pairs this process holds. */
  subscriberCount(): number
  close(): Promise<void>
}

export interface RealtimeBusOptions {
  /** Which database: PostgreSQL's connection string and schema name the LISTEN connection. */
  config: DatabaseConfig
  log: FastifyBaseLogger
  /** Reconnect delays of the LISTEN connection, last one repeated (ms). */
  reconnectDelaysMs?: readonly number[]
}

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; this leaves room for the envelope. */
export const MAX_NOTIFY_PAYLOAD_BYTES = 7_500
const DEFAULT_RECONNECT_DELAYS_MS = [500, 1_000, 2_000, 5_000, 10_000] as const

/**
 * The realtime fan-out: SQLite is one process, so an in-process emitter; PostgreSQL may be several
 * processes, so every publish is a NOTIFY on the schema's channel and every process LISTENs on one
 * connection of its own (not the query pool's: a pooled connection is shared and returned, LISTEN
 * must stay on one session).
 */
export function createRealtimeBus(
  database: DatabaseHandle,
  options: RealtimeBusOptions,
): RealtimeBus {
  const subscribers = new Map<string, Set<BusListener>>()
  const deliver = (userId: string, delivery: BusDelivery) => {
    const listeners = subscribers.get(userId)
    if (!listeners) return
    for (const listener of [...listeners]) {
      try {
        listener(delivery)
      } catch (error) {
        options.log.warn({ err: error }, 'realtime listener failed')
      }
    }
  }
  const deliverToAll = (delivery: BusDelivery) => {
    for (const userId of [...subscribers.keys()]) deliver(userId, delivery)
  }
  const subscribe = (userId: string, listener: BusListener) => {
    let listeners = subscribers.get(userId)
    if (!listeners) subscribers.set(userId, (listeners = new Set()))
    listeners.add(listener)
    return () => {
      listeners.delete(listener)
      if (listeners.size === 0 && subscribers.get(userId) === listeners) subscribers.delete(userId)
    }
  }
  const subscriberCount = () => {
    let count = 0
    for (const listeners of subscribers.values()) count += listeners.size
    return count
  }

  if (options.config.kind !== 'postgres' || database.kind !== 'postgres') {
    return {
      async publish(userIds, event) {
        for (const userId of new Set(userIds)) deliver(userId, { type: 'event', event })
      },
      subscribe,
      whenListening: async () => undefined,
      listening: () => true,
      subscriberCount,
      close: async () => subscribers.clear(),
    }
  }

  const channel = realtimeChannel(options.config.schema)
  const listener = startListener({
    url: options.config.url,
    channel,
    log: options.log,
    delays: options.reconnectDelaysMs ?? DEFAULT_RECONNECT_DELAYS_MS,
    onPayload(payload) {
      const message = parsePayload(payload)
      if (!message) {
        options.log.warn('realtime notification not understood; ignored')
        return
      }
      for (const userId of message.u) deliver(userId, { type: 'event', event: message.e })
    },
    // Notifications sent while the listener was away are gone: every socket here refetches.
    onGap: () => deliverToAll({ type: 'resync' }),
  })

  return {
    async publish(userIds, event, trx) {
      const unique = [...new Set(userIds)]
      if (unique.length === 0) return
      const executor = trx ?? database.db
      for (const payload of notifyPayloads(unique, event)) {
        try {
          await sql`select pg_notify(${channel}, ${payload})`.execute(executor)
        } catch (error) {
          // Inside a transaction the failure is the transaction's too: the caller must hear it.
          if (trx) throw error
          options.log.warn({ err: error, kind: event.kind }, 'realtime publish failed')
        }
      }
    },
    subscribe,
    whenListening: listener.whenListening,
    listening: listener.listening,
    subscriberCount,
    async close() {
      subscribers.clear()
      await listener.close()
    },
  }
}

/**
 * The NOTIFY channel of a schema: one per schema, so the test suite's parallel schemas (and two
 * deployments sharing one database) never hear each other. A channel name is an identifier of at
 * most 63 bytes: a long schema name is shortened to a digest.
 */
export function realtimeChannel(schema: string | undefined): string {
  const name = `yx_realtime_${schema ?? 'public'}`
  if (Buffer.byteLength(name) <= 63 && /^[A-Za-z0-9_]+$/.test(name)) return name
  const digest = createHash('sha256')
    .update(schema ?? '')
    .digest('hex')
    .slice(0, 32)
  return `yx_realtime_${digest}`
}

/** One notification: the users (`u`) and the event (`e`); ids and a pointer, never contents. */
interface NotifyMessage {
  u: string[]
  e: RealtimeEvent
}

/**
 * The payloads for one publish: the user list is cut so each payload stays under
 * MAX_NOTIFY_PAYLOAD_BYTES (an expert's broadcast to many users becomes several notifications).
 */
export function notifyPayloads(userIds: readonly string[], event: RealtimeEvent): string[] {
  const base = Buffer.byteLength(JSON.stringify({ u: [], e: event } satisfies NotifyMessage))
  const payloads: string[] = []
  let batch: string[] = []
  let size = base
  for (const userId of userIds) {
    const added = Buffer.byteLength(JSON.stringify(userId)) + 1
    if (base + added > MAX_NOTIFY_PAYLOAD_BYTES) continue // an id no real account has
    if (batch.length > 0 && size + added > MAX_NOTIFY_PAYLOAD_BYTES) {
      payloads.push(JSON.stringify({ u: batch, e: event } satisfies NotifyMessage))
      batch = []
      size = base
    }
    batch.push(userId)
    size += added
  }
  if (batch.length > 0)
    payloads.push(JSON.stringify({ u: batch, e: event } satisfies NotifyMessage))
  return payloads
}

function parsePayload(payload: string | undefined): NotifyMessage | undefined {
  if (!payload) return undefined
  try {
    const value = JSON.parse(payload) as Partial<NotifyMessage>
    if (!Array.isArray(value.u) || typeof value.e !== 'object' || value.e === null) return undefined
    if (typeof (value.e as { kind?: unknown }).kind !== 'string') return undefined
    return { u: value.u.filter((id): id is string => typeof id === 'string'), e: value.e }
  } catch {
    return undefined
  }
}

interface ListenerOptions {
  url: string
  channel: string
  log: FastifyBaseLogger
  delays: readonly number[]
  onPayload: (payload: string | undefined) => void
  onGap: () => void
}

/**
 * The LISTEN connection: connects at once, and after any loss (the server restarted, the
 * connection was terminated, the network dropped) reconnects with growing delays, logging an error
 * on every failed attempt so "realtime is down" is visible in the log, not only as silent sockets.
 */
function startListener(options: ListenerOptions) {
  const { log, channel } = options
  const id = randomUUID().slice(0, 8)
  let client: pg.Client | undefined
  let live = false
  let closed = false
  let attempt = 0
  let hadConnection = false
  let timer: NodeJS.Timeout | undefined
  let waiters: (() => void)[] = []

  const schedule = () => {
    if (closed || timer) return
    const delay = options.delays[Math.min(attempt, options.delays.length - 1)] ?? 1_000
    attempt += 1
    timer = setTimeout(() => {
      timer = undefined
      void connect()
    }, delay)
    timer.unref()
  }

  const lost = (current: pg.Client, error?: unknown) => {
    if (client !== current) return // already handled
    client = undefined
    const wasLive = live
    live = false
    current.removeAllListeners('notification')
    // A connection that errored is ended; its 'end' may still come and must be swallowed.
    current.on('error', () => undefined)
    void current.end().catch(() => undefined)
    if (closed) return
    if (wasLive) {
      log.error(
        { err: error, channel, listener: id },
        'realtime listener lost its PostgreSQL connection; events from other processes are not delivered until it reconnects',
      )
    }
    schedule()
  }

  const connect = async () => {
    if (closed) return
    const current = new pg.Client({ connectionString: options.url, keepAlive: true })
    client = current
    current.on('error', (error) => lost(current, error))
    current.on('end', () => lost(current))
    current.on('notification', (message) => {
      if (message.channel === channel) options.onPayload(message.payload)
    })
    try {
      await current.connect()
      await current.query(`LISTEN "${channel}"`)
    } catch (error) {
      if (client === current) {
        log.error(
          { err: error, channel, listener: id, attempt },
          'realtime listener could not connect to PostgreSQL; retrying',
        )
        lost(current, error)
      }
      return
    }
    if (client !== current || closed) {
      void current.end().catch(() => undefined)
      return
    }
    live = true
    attempt = 0
    if (hadConnection) {
      log.warn({ channel, listener: id }, 'realtime listener reconnected; sockets told to resync')
      options.onGap()
    } else {
      log.debug({ channel, listener: id }, 'realtime listener started')
    }
    hadConnection = true
    for (const resolve of waiters.splice(0)) resolve()
  }

  void connect()

  return {
    listening: () => live,
    whenListening: () =>
      live || closed ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve)),
    async close() {
      closed = true
      if (timer) clearTimeout(timer)
      timer = undefined
      for (const resolve of waiters.splice(0)) resolve()
      waiters = []
      const current = client
      client = undefined
      live = false
      if (current) {
        current.removeAllListeners('notification')
        current.on('error', () => undefined)
        await current.end().catch(() => undefined)
      }
    },
  }
}
