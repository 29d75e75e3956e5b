/**
 * A signed-in patient's read mix (我的影像, 我的报告, one exam's 影像详情, the article list, a search)
 * against real server processes, SQLite and PostgreSQL back to back, and what each request costs:
 * the server's CPU per request (the number that does not move with the machine's load), PostgreSQL's
 * own CPU per request (its backends), and the database round trips of each request.
 *
 *   npx tsx bench/read-mix.ts                   SQLite, then PostgreSQL (one process, then two)
 *   npx tsx bench/read-mix.ts --only=postgres   one database (sqlite | postgres)
 *   npx tsx bench/read-mix.ts --pg-processes=1  PostgreSQL with that many server processes only
 *
 * PostgreSQL is a throwaway cluster (scripts/pg-cluster.ts). Server CPU is the processes' user +
 * system time over the closed loop (what process.cpuUsage() would say inside them, read from
 * /proc/<pid>/stat), divided by the requests served; PostgreSQL's is its postmaster's whole tree
 * (backends that ended included, through the postmaster's children's time). Prints figures, never
 * fails on them. Linux only (/proc).
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import pg from 'pg'
import { buildApp } from '../server/src/app'
import { loadConfig } from '../server/src/config'
import { createDatabase, type DatabaseHandle } from '../server/src/db'
import { startPgCluster, type PgCluster } from '../scripts/pg-cluster'
import { agent, get, seedListData } from './records'
import { DEMO_PATIENT, startBenchServer, type BenchServer } from './server'

const CLIENTS = 50
const PER_CLIENT = 100

/** The mix: one of each in turn, as a person moves between the app's main pages. */
function mixOf(examId: string): { name: string; path: string }[] {
  return [
    { name: '我的影像', path: '/main/images' },
    { name: '我的报告', path: '/main/reports' },
    { name: '影像详情', path: `/main/exams/${examId}` },
    { name: '资讯列表', path: '/main/articles' },
    { name: '搜索', path: `/main/search?q=${encodeURIComponent('肺结节')}` },
  ]
}

/** utime + stime (+ the reaped children's, when asked) of a process, seconds. */
function cpuOf(pid: number, withChildren = false): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  // Fields 14–17 of stat: utime, stime, cutime, cstime, in clock ticks of 1/100 s.
  const own = Number(fields[11]) + Number(fields[12])
  const children = withChildren ? Number(fields[13]) + Number(fields[14]) : 0
  return (own + children) / 100
}

/**
 * PostgreSQL's CPU so far: the postmaster, the backends that ended (its children's time) and the
 * ones still running.
 */
function postgresCpu(postmaster: number): number {
  let total = cpuOf(postmaster, true)
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const parent = Number(stat.split(') ')[1]!.split(' ')[1])
      if (parent === postmaster) total += cpuOf(Number(pid), true)
    } catch {
      // Ended while we looked: its time is in the postmaster's children's now.
    }
  }
  return total
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

/** Waits until the servers stay under 5 % of a core for half a second (the demo's own ingest). */
async function quiet(servers: BenchServer[]): Promise<void> {
  const deadline = performance.now() + 90_000
  while (performance.now() < deadline) {
    const before = servers.reduce((sum, server) => sum + cpuOf(server.pid), 0)
    await new Promise((resolve) => setTimeout(resolve, 500))
    const after = servers.reduce((sum, server) => sum + cpuOf(server.pid), 0)
    if (after - before < 0.025 * servers.length) return
  }
}

interface LoopFigures {
  requests: number
  perSecond: number
  p50: number
  p99: number
  serverCpuMs: number
  postgresCpuMs?: number
  clientCpuMs: number
  load: string
}

/**
 * Closed loop: CLIENTS clients each send PER_CLIENT requests back to back, going round the mix, and
 * spread over the servers as a round-robin balancer would.
 */
async function closedLoop(
  servers: BenchServer[],
  paths: string[],
  token: string,
  postmaster?: number,
): Promise<LoopFigures> {
  const times: number[] = []
  let next = 0
  const serverCpu = () => servers.reduce((sum, server) => sum + cpuOf(server.pid), 0)
  const cpuBefore = serverCpu()
  const pgBefore = postmaster === undefined ? 0 : postgresCpu(postmaster)
  const clientBefore = process.cpuUsage()
  const started = performance.now()
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let i = 0; i < PER_CLIENT; i += 1) {
        const server = servers[next++ % servers.length]!
        const t0 = performance.now()
        await get(`${server.url}${paths[(client + i) % paths.length]}`, token)
        times.push(performance.now() - t0)
      }
    }),
  )
  const elapsed = performance.now() - started
  const client = process.cpuUsage(clientBefore)
  const requests = times.length
  const serverCpuMs = ((serverCpu() - cpuBefore) * 1000) / requests
  const postgresCpuMs =
    postmaster === undefined ? undefined : ((postgresCpu(postmaster) - pgBefore) * 1000) / requests
  times.sort((a, b) => a - b)
  return {
    requests,
    perSecond: (requests / elapsed) * 1000,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    serverCpuMs,
    postgresCpuMs,
    clientCpuMs: (client.user + client.system) / 1000 / requests,
    load: loadavg()
      .map((value) => value.toFixed(1))
      .join(' '),
  }
}

/** The patient's first exam that has series (the demo's phantoms): 影像详情 with real rows. */
async function examWithSeries(handle: DatabaseHandle): Promise<string> {
  const row = await handle.db
    .selectFrom('exams')
    .innerJoin('series', 'series.exam_id', 'exams.id')
    .innerJoin('id_cards', 'id_cards.number_hash', 'exams.patient_key')
    .innerJoin('users', 'users.id', 'id_cards.user_id')
    .select('exams.id')
    .where('users.mobile', '=', DEMO_PATIENT)
    .orderBy('exams.id')
    .executeTakeFirstOrThrow()
  return row.id
}

/**
 * Round trips per request on PostgreSQL: the same app built in this process on the same database,
 * each request of the mix sent through inject, and every query a pg client sends counted (BEGIN and
 * COMMIT are round trips too). pg-boss's own polling is left out by its schema name.
 */
async function roundTrips(
  env: Record<string, string>,
  mix: { name: string; path: string }[],
  token: string,
): Promise<Map<string, number>> {
  const app = await buildApp(loadConfig({ ...env, LOG_LEVEL: 'silent' }))
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown
  let counted = 0
  // --queries: print each query of one request of each kind (what the counts are made of).
  let showQueries = false
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string }).text
    if (!text?.includes('_pgboss')) {
      counted += 1
      if (showQueries) console.log(`    ${text?.replace(/\s+/g, ' ').slice(0, 160)}`)
    }
    return query.apply(this, args)
  } as typeof pg.Client.prototype.query
  const counts = new Map<string, number>()
  try {
    await app.ready()
    const times = 10
    for (const { name, path: url } of mix) {
      const call = () => app.inject({ url, headers: { authorization: `Bearer ${token}` } })
      const warm = await call()
      if (warm.statusCode !== 200) throw new Error(`${url} answered ${warm.statusCode}`)
      if (process.argv.includes('--queries')) {
        console.log(`  ${name}:`)
        showQueries = true
        await call()
        showQueries = false
      }
      counted = 0
      for (let i = 0; i < times; i += 1) await call()
      counts.set(name, counted / times)
    }
  } finally {
    pg.Client.prototype.query = query as typeof pg.Client.prototype.query
    await app.close()
  }
  return counts
}

function describe(label: string, figures: LoopFigures): string {
  const postgres =
    figures.postgresCpuMs === undefined
      ? ''
      : `, PostgreSQL ${figures.postgresCpuMs.toFixed(2)} ms/request`
  return (
    `| ${label} | ${figures.perSecond.toFixed(0)} req/s, p50 ${figures.p50.toFixed(1)} ms, ` +
    `p99 ${figures.p99.toFixed(1)} ms | server CPU ${figures.serverCpuMs.toFixed(2)} ms/request` +
    `${postgres} (bench client ${figures.clientCpuMs.toFixed(2)}) | load ${figures.load} |`
  )
}

async function run(
  label: string,
  env: Record<string, string>,
  processes: number,
  handle: DatabaseHandle,
  postmaster?: number,
): Promise<{ figures: LoopFigures; token: string; mix: { name: string; path: string }[] }> {
  const servers: BenchServer[] = []
  try {
    // One at a time: the first migrates and seeds, the others find it done.
    for (let i = 0; i < processes; i += 1) servers.push(await startBenchServer(env))
    await quiet(servers)
    const { token } = await seedListData(servers[0]!.url, handle.db)
    const mix = mixOf(await examWithSeries(handle))
    const paths = mix.map((entry) => entry.path)
    // Warm: connections open, code compiled, lists cached, before anything is timed.
    for (const server of servers) {
      await Promise.all(
        Array.from({ length: CLIENTS }, (_, i) =>
          get(`${server.url}${paths[i % paths.length]}`, token),
        ),
      )
    }
    const figures = await closedLoop(servers, paths, token, postmaster)
    console.log(describe(label, figures))
    return { figures, token, mix }
  } finally {
    for (const server of servers) await server.stop()
  }
}

async function main(): Promise<void> {
  const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length)
  const processesArg = process.argv
    .find((arg) => arg.startsWith('--pg-processes='))
    ?.slice('--pg-processes='.length)
  const pgProcesses = processesArg ? [Number(processesArg)] : [1, 2]
  console.log(
    `## Read mix (我的影像, 我的报告, 影像详情, 资讯列表, 搜索 in turn; ${CLIENTS} clients × ${PER_CLIENT} requests back to back)\n`,
  )
  let sqliteCpu: number | undefined
  if (!only || only === 'sqlite') {
    // A database file of its own, shared by the server and this process (to seed).
    const dir = mkdtempSync(path.join(tmpdir(), 'yx-bench-mix-'))
    const env = { DATABASE_URL: path.join(dir, 'mix.sqlite') }
    const handle = createDatabase({ kind: 'sqlite', file: env.DATABASE_URL })
    try {
      const { figures } = await run('SQLite, 1 process', env, 1, handle)
      sqliteCpu = figures.serverCpuMs
    } finally {
      await handle.destroy()
      rmSync(dir, { recursive: true, force: true })
    }
  }
  if (!only || only === 'postgres') {
    let cluster: PgCluster | undefined
    try {
      cluster = await startPgCluster()
      const postmaster = Number(
        readFileSync(`${cluster.dataDir}/postmaster.pid`, 'utf8').split('\n')[0],
      )
      for (const processes of pgProcesses) {
        const schema = `mix_${processes}`
        const env = { DATABASE_URL: cluster.url, DATABASE_SCHEMA: schema }
        const handle = createDatabase({ kind: 'postgres', url: cluster.url, schema })
        try {
          const { figures, token, mix } = await run(
            `PostgreSQL, ${processes} process${processes > 1 ? 'es' : ''}`,
            env,
            processes,
            handle,
            postmaster,
          )
          if (sqliteCpu !== undefined) {
            console.log(
              `|   server CPU per request ÷ SQLite's | ${(figures.serverCpuMs / sqliteCpu).toFixed(2)} | | |`,
            )
          }
          if (processes === pgProcesses[0]) {
            const counts = await roundTrips(
              { ...env, DEMO_MODE: 'on', HOST: '127.0.0.1', NODE_ENV: 'development' },
              mix,
              token,
            )
            const average = [...counts.values()].reduce((a, b) => a + b, 0) / counts.size
            console.log(
              `\nPostgreSQL round trips per request: ${[...counts]
                .map(([name, count]) => `${name} ${count}`)
                .join(', ')}; mix average ${average.toFixed(1)}\n`,
            )
          }
        } finally {
          await handle.destroy()
        }
      }
    } finally {
      await cluster?.stop()
    }
  }
}

main().then(
  () => {
    agent.destroy()
    process.exit(0)
  },
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
