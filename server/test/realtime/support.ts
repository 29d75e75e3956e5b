import type { FastifyInstance } from 'fastify'
import WebSocket from 'ws'
import { REALTIME_FULL_PATH, type RealtimeServerMessage } from '@contract/main/realtime'
import { buildApp, type BuildOptions } from '../../src/app'
import type { Config } from '../../src/config'
import { closeAfter, testConfig } from '../helpers'

/** Shared by the realtime tests; not a test file itself. */

export interface ListeningApp {
  app: FastifyInstance
  /** ws://127.0.0.1:port/main/ws */
  wsUrl: string
}

/** The whole app, listening on a free loopback port (a WebSocket needs a real socket). */
export async function listeningApp(
  overrides: Partial<Config> = {},
  options: BuildOptions = {},
): Promise<ListeningApp> {
  const app = await buildApp(testConfig(overrides), options)
  closeAfter(() => app.close())
  await app.listen({ host: '127.0.0.1', port: 0 })
  await app.realtime.whenListening()
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return { app, wsUrl: `ws://127.0.0.1:${port}${REALTIME_FULL_PATH}` }
}

/** A client socket that keeps every server message, to wait for one. */
export class TestSocket {
  readonly messages: RealtimeServerMessage[] = []
  readonly closed: Promise<{ code: number; reason: string }>
  readonly opened: Promise<void>
  private waiters: (() => void)[] = []

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.messages.push(JSON.parse(data.toString()) as RealtimeServerMessage)
      for (const wake of this.waiters.splice(0)) wake()
    })
    ws.on('error', () => undefined)
    this.opened = new Promise((resolve, reject) => {
      ws.once('open', () => resolve())
      ws.once('error', reject)
    })
    this.closed = new Promise((resolve) =>
      ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    )
  }

  static async open(url: string): Promise<TestSocket> {
    const socket = new TestSocket(new WebSocket(url))
    closeAfter(async () => socket.ws.terminate())
    await socket.opened
    return socket
  }

  /** Opens, signs in with `token` and waits for ready. */
  static async signedIn(url: string, token: string): Promise<TestSocket> {
    const socket = await TestSocket.open(url)
    socket.send({ type: 'auth', token })
    await socket.next((m) => m.type === 'ready')
    return socket
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message))
  }

  /** The first message (already here or arriving) matching `match`, removed from the list. */
  async next(
    match: (message: RealtimeServerMessage) => boolean,
    timeoutMs = 5_000,
  ): Promise<RealtimeServerMessage> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const index = this.messages.findIndex(match)
      if (index >= 0) return this.messages.splice(index, 1)[0]!
      const left = deadline - Date.now()
      if (left <= 0) {
        throw new Error(
          `no matching message in ${timeoutMs} ms; got ${JSON.stringify(this.messages)}`,
        )
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left)
        this.waiters.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
  }

  /** Whether a matching message arrives within `ms` (for "B hears nothing"). */
  async hears(match: (message: RealtimeServerMessage) => boolean, ms: number): Promise<boolean> {
    try {
      await this.next(match, ms)
      return true
    } catch {
      return false
    }
  }
}

export const isEvent = (message: RealtimeServerMessage) => message.type === 'event'

/** Waits until `check` holds, polling. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
