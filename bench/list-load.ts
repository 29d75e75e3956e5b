/**
 * The list measurements the benches share (bench/consultations.ts, bench/wallet.ts): a list request
 * from CLIENTS clients at once against real server processes (bench/realtime-servers.ts), a closed
 * loop (throughput at saturation, with the servers' CPU per request) and then, when the closed loop
 * showed room for it, an open loop of OPEN_RATE requests a second per client whose p99 is the goal's
 * figure. Rows collect in `rows`; printTable prints them with PASS / MISS against each goal.
 */
import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { sql } from 'kysely'
import { loadConfig } from '../server/src/config'
import { createDatabase } from '../server/src/db'
import { agent, get } from './records'
import { cpuSeconds, percentile, type RealtimeBenchServer, sleep } from './realtime-servers'

export { agent }

export const LIST_SECONDS = Number(process.env.LIST_SECONDS ?? 10)
export const CLIENTS = Number(process.env.CLIENTS ?? 50)
/**
 * BENCH_STALLS=1 prints the open loop's 40 slowest requests with when they were due and which server
 * answered: stalls at the same moment on both servers point at the database or the machine, not one
 * process (that is how the pool's idle timeout was found: every slow request came 10 s in).
 */
const SHOW_STALLS = Boolean(process.env.BENCH_STALLS)

export interface Row {
  what: string
  setup: string
  n: number
  p50: number
  p99: number
  max: number
  /** Requests per second (lists) or messages per second sent (delivery). */
  rate: number
  /** Lost events (delivery) or failed requests (lists). */
  bad: number
  badLabel: string
  /** The p99 goal, or null for a figure that is not held to one (the closed loop's saturation). */
  goal: number | null
  /** A lost event misses the delivery goal whatever the percentiles. */
  mustBeZero: boolean
}

export const rows: Row[] = []

/**
 * After a bulk seed, brings PostgreSQL to the state a live database is in: statistics gathered and
 * the visibility map set (what autovacuum does in the background). Without it autovacuum woke up in
 * the middle of the measurement on the freshly written tables, and the lists' p99 swung from 23 to
 * 57 ms between two runs with identical code. SQLite has neither: nothing to do.
 */
export async function settleDatabase(env: NodeJS.ProcessEnv): Promise<void> {
  const config = loadConfig(env).database
  if (config.kind !== 'postgres') return
  const database = createDatabase(config)
  try {
    await sql`vacuum analyze`.execute(database.db)
  } finally {
    await database.destroy()
  }
}

export function summary(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b)
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? NaN,
  }
}

const auth = (token: string) => ({ authorization: `Bearer ${token}` })

export interface ListCase {
  what: string
  path: string
  /** Who asks: client i is people[i % n]. */
  people: { token: string }[]
  /** The p99 goal of the open loop, ms. */
  goalMs: number
}

/** Requests per second each open-loop client sends (a person tapping through lists, generously). */
export const OPEN_RATE = 5

interface LoopResult {
  times: number[]
  errors: number
  elapsed: number
  /** The server processes' CPU seconds over the loop. */
  cpu: number
}

/**
 * CLIENTS clients for `seconds`, client i as person i % n on server i % m. Open loop (`rate` given):
 * each client sends `rate` requests a second on a fixed schedule whether or not the previous one
 * answered, latency counted from when the request was due (no coordinated omission; as
 * bench/records.ts). Closed loop (no rate): each sends its next as soon as the previous answered,
 * which measures throughput at saturation (latency ≈ CLIENTS ÷ throughput).
 */
async function runClients(
  servers: RealtimeBenchServer[],
  list: ListCase,
  seconds: number,
  rate?: number,
): Promise<LoopResult> {
  const times: number[] = []
  const stalls: [number, number, string][] = []
  let errors = 0
  const cpuBefore = servers.reduce((sum, server) => sum + cpuSeconds(server.pid), 0)
  const started = performance.now()
  const until = started + seconds * 1_000
  const one = async (url: string, token: string, due: number) => {
    try {
      await get(url, token)
      times.push(performance.now() - due)
      if (SHOW_STALLS && rate) stalls.push([due - started, performance.now() - due, url])
    } catch {
      errors += 1
    }
  }
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, i) => {
      const person = list.people[i % list.people.length]!
      const url = `${servers[i % servers.length]!.url}${list.path}`
      if (rate === undefined) {
        while (performance.now() < until) await one(url, person.token, performance.now())
        return
      }
      const interval = 1_000 / rate
      const sends: Promise<void>[] = []
      for (let k = 0; ; k += 1) {
        const due = started + (i / CLIENTS) * interval + k * interval
        if (due >= until) break
        const wait = due - performance.now()
        if (wait > 0) await sleep(wait)
        sends.push(one(url, person.token, due))
      }
      await Promise.all(sends)
    }),
  )
  const elapsed = performance.now() - started
  if (SHOW_STALLS) {
    const rss = servers.map((server) => {
      const status = readFileSync(`/proc/${server.pid}/status`, 'utf8')
      return `${new URL(server.url).port}: ${/VmRSS:\s+(\d+)/.exec(status)?.[1]} kB`
    })
    console.log(`  servers' resident memory: ${rss.join(', ')}`)
  }
  if (stalls.length) {
    stalls.sort((a, b) => b[1] - a[1])
    const worst = stalls
      .slice(0, 40)
      .map(([at, ms, url]) => `${at.toFixed(0)}:${ms.toFixed(0)}@${new URL(url).port}`)
    console.log(`  slowest (ms into the loop:latency@server port): ${worst.join(' ')}`)
  }
  const cpu = servers.reduce((sum, server) => sum + cpuSeconds(server.pid), 0) - cpuBefore
  return { times, errors, elapsed, cpu }
}

export async function measureList(
  servers: RealtimeBenchServer[],
  list: ListCase,
  setup: string,
): Promise<void> {
  // Once with fetch: the answer is a page of cards, not an error page.
  const first = await fetch(`${servers[0]!.url}${list.path}`, {
    headers: auth(list.people[0]!.token),
  })
  const body = (await first.json()) as { data: { items: unknown[] } | null; error: string | null }
  if (!first.ok || !body.data?.items.length) throw new Error(`${list.path}: ${body.error}`)
  await runClients(servers, list, 2)
  const closed = await runClients(servers, list, LIST_SECONDS)
  const c = summary(closed.times)
  const perSecond = (closed.times.length / closed.elapsed) * 1_000
  const cpuMs = (closed.cpu / closed.times.length) * 1_000
  // An open loop the servers cannot keep up with only grows a queue for as long as it runs.
  const offered = CLIENTS * OPEN_RATE
  const open =
    perSecond >= 1.25 * offered ? await runClients(servers, list, LIST_SECONDS, OPEN_RATE) : null
  const o = open ? summary(open.times) : { n: 0, p50: NaN, p99: NaN, max: NaN }
  rows.push({
    what: list.what,
    setup: `${setup}, open loop ${CLIENTS} × ${OPEN_RATE}/s`,
    ...o,
    rate: open ? (open.times.length / open.elapsed) * 1_000 : 0,
    bad: open ? open.errors : 0,
    badLabel: open
      ? `${open.errors} errors`
      : `not run: ${perSecond.toFixed(0)} req/s at saturation < 1.25 × ${offered} offered`,
    goal: list.goalMs,
    mustBeZero: true,
  })
  rows.push({
    what: list.what,
    setup: `${setup}, closed loop ${CLIENTS} (saturation; ${cpuMs.toFixed(2)} ms server CPU/request)`,
    ...c,
    rate: perSecond,
    bad: closed.errors,
    badLabel: `${closed.errors} errors`,
    goal: null,
    mustBeZero: true,
  })
  console.log(
    `  ${list.what} — ${setup}: open loop (${CLIENTS} × ${OPEN_RATE}/s) ${open ? `p50 ${o.p50.toFixed(1)} ms, p99 ${o.p99.toFixed(1)} ms, ${open.errors} errors` : 'not run (saturated)'}; closed loop ${perSecond.toFixed(0)} req/s, p99 ${c.p99.toFixed(1)} ms, ${closed.errors} errors; server CPU ${cpuMs.toFixed(2)} ms/request`,
  )
}

export function printTable(): void {
  console.log(
    '\n| measure | setup | n | p50 ms | p99 ms | max ms | rate | lost / errors | goal (p99) | |',
  )
  console.log('|---|---|---:|---:|---:|---:|---:|---|---:|---|')
  for (const row of rows) {
    const pass = row.goal !== null && row.p99 <= row.goal && (!row.mustBeZero || row.bad === 0)
    const verdict = row.goal === null ? '(throughput)' : pass ? 'PASS' : 'MISS'
    const rate = row.what.startsWith('消息') ? `${row.rate} msg/s` : `${row.rate.toFixed(0)} req/s`
    console.log(
      `| ${row.what} | ${row.setup} | ${row.n} | ${row.p50.toFixed(1)} | ${row.p99.toFixed(1)} | ${row.max.toFixed(1)} | ${rate} | ${row.badLabel} | ${row.goal === null ? '–' : `≤ ${row.goal}`} | ${verdict} |`,
    )
  }
}
