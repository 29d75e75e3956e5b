/**
 * `npm run bench:realtime`: live delivery across server processes. A throwaway PostgreSQL cluster,
 * two real server processes on one schema (bench/realtime-server.ts: the app plus an IPC hook to
 * publish), 500 signed-in sockets split across them (250 each), and events sent from one process to
 * users whose sockets are on the other, both ways. Prints p50 / p99 from the send step to the
 * socket's receipt (both timed in this process, so no clock skew) and how many never arrived;
 * passes or fails nothing.
 *
 * The send step is pluggable (`DeliveryScenario`): today it asks a server process to call
 * `app.realtime.publish`. The consultations' whole path (one client's HTTP POST of a message to one
 * process, the event on the other side's socket on the other) is `npm run bench:consultations`
 * (bench/consultations.ts), on 500 seeded conversations; the cluster, processes and sockets are
 * shared through bench/realtime-servers.ts.
 */
import { performance } from 'node:perf_hooks'
import type WebSocket from 'ws'
import type { RealtimeEvent } from '../contract/main/realtime'
import { loadConfig } from '../server/src/config'
import { createDatabase } from '../server/src/db'
import { createSession, createUser } from '../server/src/domain/identity'
import {
  openSocket,
  percentile,
  type RealtimeBenchServer,
  sleep,
  startServerGroup,
} from './realtime-servers'

const SOCKETS = 500
const ONE_TO_ONE_EVENTS = 2_000
const ONE_TO_ONE_PER_SECOND = 500
const FAN_OUT_ROUNDS = 20

export interface BenchUser {
  id: string
  token: string
  /** Index of the server process holding this user's socket. */
  server: number
}

export type { RealtimeBenchServer } from './realtime-servers'

export interface SendContext {
  servers: RealtimeBenchServer[]
  /** The server process the send goes through (the other one holds the recipients' sockets). */
  from: number
  sender: BenchUser
  recipients: BenchUser[]
  /** Must come back from `keyOf` on the event the recipients receive. */
  key: string
}

export interface DeliveryScenario {
  name: string
  send(context: SendContext): Promise<void>
  keyOf(event: RealtimeEvent): string | undefined
}

/** Today's send step: the process calls app.realtime.publish (what the domain does after commit). */
export const publishScenario: DeliveryScenario = {
  name: 'app.realtime.publish in the other process',
  send: ({ servers, from, recipients, key }) =>
    servers[from]!.publish(
      recipients.map((user) => user.id),
      { kind: 'consultation.message', consultationId: key, cursor: key },
    ),
  keyOf: (event) => (event.kind === 'consultation.message' ? event.consultationId : undefined),
}

function describe(times: number[], expected: number): string {
  const sorted = [...times].sort((a, b) => a - b)
  const lost = expected - times.length
  return `p50 ${percentile(sorted, 50).toFixed(1).padStart(6)} ms  p99 ${percentile(sorted, 99).toFixed(1).padStart(6)} ms  max ${(sorted[sorted.length - 1] ?? NaN).toFixed(1).padStart(6)} ms  ${times.length} received, ${lost} lost`
}

export async function runRealtimeBench(
  scenario: DeliveryScenario = publishScenario,
): Promise<void> {
  const group = await startServerGroup('realtime')
  const { servers } = group
  const sockets: WebSocket[] = []
  try {
    const database = createDatabase(loadConfig(group.env).database)
    const users: BenchUser[] = []
    const now = new Date()
    for (let i = 0; i < SOCKETS; i += 1) {
      const user = await createUser(database.db, { now })
      const session = await createSession(database.db, user.id, now)
      users.push({ id: user.id, token: session.access_token, server: i < SOCKETS / 2 ? 0 : 1 })
    }
    await database.destroy()

    const sentAt = new Map<string, number>()
    const received = new Map<string, number[]>()
    const onEvent = (event: RealtimeEvent) => {
      const at = performance.now()
      const key = scenario.keyOf(event)
      const started = key === undefined ? undefined : sentAt.get(key)
      if (key === undefined || started === undefined) return
      const list = received.get(key) ?? []
      list.push(at - started)
      received.set(key, list)
    }
    const signInStarted = performance.now()
    for (let i = 0; i < users.length; i += 50) {
      sockets.push(
        ...(await Promise.all(
          users
            .slice(i, i + 50)
            .map((user) => openSocket(servers[user.server]!, user.token, onEvent)),
        )),
      )
    }
    const signInMs = performance.now() - signInStarted
    const onServer = (index: number) => users.filter((user) => user.server === index)

    console.log(
      `Realtime delivery: PostgreSQL LISTEN/NOTIFY, 2 server processes, ${SOCKETS} sockets (${onServer(0).length} + ${onServer(1).length}); send step: ${scenario.name}`,
    )
    console.log(
      `  ${SOCKETS} sockets opened and signed in, 50 at a time: ${signInMs.toFixed(0)} ms`,
    )

    const send = async (key: string, from: number, recipients: BenchUser[]) => {
      sentAt.set(key, performance.now())
      await scenario.send({ servers, from, sender: onServer(from)[0]!, recipients, key })
    }
    const waitFor = async (keys: string[], perKey: (key: string) => number) => {
      const deadline = performance.now() + 10_000
      while (performance.now() < deadline) {
        if (keys.every((key) => (received.get(key)?.length ?? 0) >= perKey(key))) return
        await sleep(20)
      }
    }

    // Warm-up (not counted): the first sends compile code paths and open pool connections.
    const warm = Array.from({ length: 200 }, (_, i) => `warm-${i}`)
    for (const [i, key] of warm.entries()) {
      void send(key, i % 2, [onServer(1 - (i % 2))[i % (SOCKETS / 2)]!])
      await sleep(2)
    }
    await waitFor(warm, () => 1)

    // One event to one user whose socket is on the other process, alternating directions, paced.
    const oneToOne: string[] = []
    const gap = 1_000 / ONE_TO_ONE_PER_SECOND
    const started = performance.now()
    for (let i = 0; i < ONE_TO_ONE_EVENTS; i += 1) {
      const from = i % 2
      const targets = onServer(1 - from)
      const key = `one-${i}`
      oneToOne.push(key)
      void send(key, from, [targets[i % targets.length]!])
      const due = started + (i + 1) * gap
      const wait = due - performance.now()
      if (wait > 0) await sleep(wait)
    }
    await waitFor(oneToOne, () => 1)
    const oneTimes = oneToOne.flatMap((key) => received.get(key) ?? [])
    console.log(
      `  1 event → 1 user on the other process, ${ONE_TO_ONE_EVENTS} at ${ONE_TO_ONE_PER_SECOND}/s:      ${describe(oneTimes, ONE_TO_ONE_EVENTS)}`,
    )

    // One event to every user of the other process (250 sockets), one round at a time.
    const fanOut: string[] = []
    for (let round = 0; round < FAN_OUT_ROUNDS; round += 1) {
      const from = round % 2
      const key = `fan-${round}`
      fanOut.push(key)
      await send(key, from, onServer(1 - from))
      await waitFor([key], () => SOCKETS / 2)
      await sleep(50)
    }
    const fanTimes = fanOut.flatMap((key) => received.get(key) ?? [])
    console.log(
      `  1 event → ${SOCKETS / 2} users on the other process (${FAN_OUT_ROUNDS} rounds, each socket timed): ${describe(fanTimes, (FAN_OUT_ROUNDS * SOCKETS) / 2)}`,
    )
  } finally {
    for (const socket of sockets) socket.terminate()
    await group.stop()
  }
}

if (require.main === module) {
  runRealtimeBench().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error)
      process.exit(1)
    },
  )
}
