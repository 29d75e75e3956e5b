import type { FastifyBaseLogger } from 'fastify'
import type { DatabaseConfig } from '../config'
import type { DatabaseHandle } from '../db'
import { createRealtimeBus, type RealtimeBus } from './bus'
import { DEFAULT_SOCKET_OPTIONS, type RealtimeSocketOptions } from './socket'

export type { BusDelivery, BusListener, RealtimeBus } from './bus'
export { createRealtimeBus, notifyPayloads, realtimeChannel } from './bus'
export { registerRealtimeSocket, type RealtimeSocketOptions, type SocketRegistry } from './socket'

/** `app.realtime`: the bus (publish, subscribe) and the limits its WebSocket route applies. */
export interface Realtime extends RealtimeBus {
  readonly socketOptions: RealtimeSocketOptions
}

export interface RealtimeOptions {
  config: DatabaseConfig
  log: FastifyBaseLogger
  /** Tests shorten the timers (auth, session check, heartbeat) or lower the per-account limit. */
  socket?: Partial<RealtimeSocketOptions>
  reconnectDelaysMs?: readonly number[]
}

export function createRealtime(database: DatabaseHandle, options: RealtimeOptions): Realtime {
  const bus = createRealtimeBus(database, {
    config: options.config,
    log: options.log,
    ...(options.reconnectDelaysMs ? { reconnectDelaysMs: options.reconnectDelaysMs } : {}),
  })
  return Object.assign(bus, {
    socketOptions: { ...DEFAULT_SOCKET_OPTIONS, ...options.socket },
  })
}
