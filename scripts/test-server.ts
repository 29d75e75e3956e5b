/**
 * Runs the server tests (server/test/**\/*.test.ts) with node's test runner, one process per file.
 *
 *   npx tsx scripts/test-server.ts                on SQLite (each test file gets in-memory databases)
 *   npx tsx scripts/test-server.ts --pg           on a throwaway PostgreSQL cluster (each file gets schemas)
 *   npx tsx scripts/test-server.ts --sqlite --pg  both, side by side in one pool (what `npm test` runs)
 *   npx tsx scripts/test-server.ts --pg server/test/records   only the files under a path
 *
 * Files are isolated (their own in-memory SQLite or PostgreSQL schemas, upload folders and free ports;
 * server/test/helpers.ts), so their order and company do not matter. This runner keeps its own pool
 * instead of handing every file to one `node --test`, so that
 * - the SQLite and the PostgreSQL files share one pool: a PostgreSQL file spends much of its time
 *   waiting on the database server, and a SQLite file fills that core meanwhile;
 * - each file's time is known: the ten slowest are printed at the end (and written to
 *   TEST_TIMES_FILE for `npm test`'s summary), the longest known ones start first so no long file
 *   starts last, and a passing file's output shrinks to one line while a failing one is printed whole;
 * - a file that uses no database (marked `// test-server: no database`) runs once, not per database.
 *
 * Where a file's time goes (measured 2026-11-29 on this 2-core machine, one file at a time, in CPU
 * seconds because other work shared the machine at load 10-15; README "Tests and figures"):
 * - starting: node plus tsx loading the app's 1,245 modules costs every test process (and every worker
 *   process a test forks) about 2.7 CPU-s before its first test;
 * - each app a file builds about 0.8 CPU-s more (plugins, routes, the seed). Migrating is a small part
 *   of it: 45-65 ms on an in-memory SQLite; on PostgreSQL a fresh schema migrated and dropped costs
 *   136 ms of ours and 468 ms of the server's (1,140 ms wall), and a `CREATE DATABASE … TEMPLATE` of
 *   a migrated database plus its drop 9 ms and 432 ms (850 ms wall): too little to change how every
 *   file is isolated, so apps are not cloned from a migrated template;
 * - passwords: every registration, login and demo account hashes with argon2, 22 ms of CPU each at the
 *   production cost; helpers' testConfig asks for the test cost (config.testPasswordHash), 0.2 ms;
 * - on PostgreSQL the database server's CPU is as large as the file's own, and mostly pg-boss polling:
 *   every app's 12 workers (6 job kinds, 2 each) ask for work every 0.5 s while the app is open, which
 *   was 16,207 of the 19,588 statements fhir/diagnostic-report.test.ts ran. A file waiting on that
 *   server waits on these same two cores, so more files at a time would not finish the run sooner.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { PgMissingError, startPgCluster, type PgCluster } from './pg-cluster'

const ROOT = path.resolve(__dirname, '..')
const TEST_DIR = path.join(ROOT, 'server', 'test')
/** Each file's last time, per database, so the longest start first on the next run here. */
const TIMES_CACHE = path.join(ROOT, 'node_modules', '.cache', 'yingxiang', 'server-test-times.json')

/** `none`: a file that uses no database of the runner's, run once instead of once per database. */
type Db = 'sqlite' | 'postgres' | 'none'
const DB_NAMES: Record<Db, string> = {
  sqlite: 'SQLite',
  postgres: 'PostgreSQL',
  none: 'no database',
}

interface Job {
  file: string
  db: Db
}

interface Outcome extends Job {
  ok: boolean
  seconds: number
  /** Counts from the file's TAP summary. */
  tests: number
  skipped: number
}

/** Node 20's --test does not expand globs, so the files are listed here. */
function testFiles(): string[] {
  return readdirSync(TEST_DIR, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => path.join('server', 'test', file))
    .sort()
}

/**
 * --test-force-exit: a file whose tests are over exits even if a library left a handle open. pg-boss
 * sometimes keeps one after stop() (its pool closed, a timer still armed); without the flag that file's
 * process idled forever and CI ran out of its 90 minutes with every test passed.
 * --test-timeout: a test that hangs fails with its name after 3 minutes instead of holding the run.
 */
const NODE_TEST_FLAGS = ['--test', '--test-force-exit', '--test-timeout=180000']
/** A file still running after this long is stopped and fails: its output so far says where it hung. */
const FILE_TIMEOUT_MS = 10 * 60_000

/**
 * Files at a time: one more than the cores (at least 3, at most 4). A file waits part of its time on
 * PostgreSQL, on child processes it starts or on timers, so one file per core left cores idle. At most
 * 4: each file's apps hold PostgreSQL pools (up to 10 + 3 connections per app; the throwaway cluster
 * allows 300 connections, and the start-race file alone opens 8 servers). TEST_CONCURRENCY overrides it
 * (1 to see one file's output undisturbed).
 */
export function testConcurrency(
  env: NodeJS.ProcessEnv = process.env,
  cores = availableParallelism(),
): number {
  const asked = Number(env.TEST_CONCURRENCY)
  if (Number.isInteger(asked) && asked >= 1) return asked
  return Math.min(4, Math.max(3, cores + 1))
}

function readTimes(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(TIMES_CACHE, 'utf8')) as Record<string, number>
  } catch {
    return {}
  }
}

const jobKey = (job: Job) => `${job.db}:${job.file}`

/**
 * Longest first: by the last run's time here; without one (a fresh clone), by the file's size, which
 * follows its time well enough to keep the big files from starting last.
 */
export function orderJobs(jobs: Job[], times: Record<string, number>): Job[] {
  const weight = (job: Job) =>
    times[jobKey(job)] ?? statSync(path.join(ROOT, job.file)).size / 2_000
  return [...jobs].sort((a, b) => weight(b) - weight(a))
}

/** The `# tests N` and `# skipped N` lines of a file's TAP summary. */
export function tapCounts(output: string): { tests: number; skipped: number } {
  const count = (name: string) =>
    Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(output)?.[1] ?? 0)
  return { tests: count('tests'), skipped: count('skipped') }
}

/** The files' processes still running: stopped with the runner (Ctrl-C, CI's SIGTERM). */
const running = new Set<ChildProcess>()

function runFile(job: Job, env: NodeJS.ProcessEnv): Promise<Outcome> {
  const started = performance.now()
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...NODE_TEST_FLAGS, job.file], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    running.add(child)
    const output: Buffer[] = []
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk))
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      child.kill('SIGKILL')
    }, FILE_TIMEOUT_MS)
    const finish = (ok: boolean) => {
      clearTimeout(timer)
      running.delete(child)
      const text = Buffer.concat(output).toString('utf8')
      const seconds = (performance.now() - started) / 1000
      const outcome: Outcome = { ...job, ok, seconds, ...tapCounts(text) }
      const label = `${job.file} (${DB_NAMES[job.db]})`
      if (ok) {
        const skipped = outcome.skipped > 0 ? `, ${outcome.skipped} skipped` : ''
        console.log(
          `ok    ${seconds.toFixed(1).padStart(6)} s  ${label}: ${outcome.tests} tests${skipped}`,
        )
      } else {
        console.log(
          `\n---- FAIL ${label} after ${seconds.toFixed(1)} s${timedOut ? ' (stopped: over 10 minutes)' : ''}\n`,
        )
        process.stdout.write(text)
        console.log(`---- end of ${label}\n`)
      }
      resolve(outcome)
    }
    child.once('error', (error) => {
      output.push(Buffer.from(`${String(error)}\n`))
      finish(false)
    })
    child.once('close', (code) => finish(code === 0 && !timedOut))
  })
}

/**
 * A file that measures latency under its own load (the held SQLite lock's read times and event-loop
 * lag) says so with this line; it runs first, with no other file beside it, so its bounds measure the
 * server and not the other files sharing the cores.
 */
export const ALONE_MARK = '// test-server: runs alone'

const runsAlone = (job: Job) => readFileSync(path.join(ROOT, job.file), 'utf8').includes(ALONE_MARK)

/**
 * A file that tests no database (the DICOM decoders, the build configuration, the lint rules) says so
 * with this first line and runs once, not once per database: its second run only repeated the first. So
 * that the mark cannot hide a file that does use one, that run's DATABASE_URL is a PostgreSQL address
 * nobody listens on (NO_DATABASE_URL): a marked file that opens the database under test fails.
 */
export const NO_DATABASE_MARK = '// test-server: no database'
export const NO_DATABASE_URL = 'postgres://127.0.0.1:9/no-database-for-this-file'

/** One job per file and database, or a single `none` job for a file marked NO_DATABASE_MARK. */
export function planJobs(files: string[], dbs: Db[], marked: (file: string) => boolean): Job[] {
  return files.flatMap((file) =>
    marked(file) ? [{ file, db: 'none' as const }] : dbs.map((db) => ({ file, db })),
  )
}

/** The mark counts on the file's first line only, where a reader sees it. */
const usesNoDatabase = (file: string) =>
  readFileSync(path.join(ROOT, file), 'utf8').startsWith(`${NO_DATABASE_MARK}\n`)

async function runPool(
  jobs: Job[],
  envFor: (db: Db) => NodeJS.ProcessEnv,
  concurrency: number,
): Promise<Outcome[]> {
  const queue = [...jobs]
  const outcomes: Outcome[] = []
  const worker = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      outcomes.push(await runFile(job, envFor(job.db)))
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, worker))
  return outcomes
}

/** The summary: counts per database and the ten slowest files. */
export function describeOutcomes(outcomes: Outcome[], wallSeconds: number): string {
  const lines: string[] = []
  for (const db of ['sqlite', 'postgres', 'none'] as const) {
    const of = outcomes.filter((outcome) => outcome.db === db)
    if (of.length === 0) continue
    const failed = of.filter((outcome) => !outcome.ok).length
    const tests = of.reduce((sum, outcome) => sum + outcome.tests, 0)
    const cpu = of.reduce((sum, outcome) => sum + outcome.seconds, 0)
    lines.push(
      `${DB_NAMES[db]}: ${of.length} files, ${tests} tests, ${failed === 0 ? 'all passed' : `${failed} files FAILED`} (file time ${cpu.toFixed(0)} s)`,
    )
  }
  lines.push(
    `Slowest files (wall seconds of their own process; ${wallSeconds.toFixed(0)} s in all):`,
  )
  for (const outcome of [...outcomes].sort((a, b) => b.seconds - a.seconds).slice(0, 10)) {
    lines.push(
      `  ${outcome.seconds.toFixed(1).padStart(6)} s  ${outcome.file} (${DB_NAMES[outcome.db]})`,
    )
  }
  return lines.join('\n')
}

async function main(): Promise<number> {
  const args = process.argv.slice(2)
  const usePg = args.includes('--pg')
  const dbs: Db[] =
    usePg && !args.includes('--sqlite') ? ['postgres'] : usePg ? ['sqlite', 'postgres'] : ['sqlite']
  // Optional path filters (`... --pg server/test/records`): only the files under them.
  const filters = args.filter((arg) => !arg.startsWith('--'))
  const files = testFiles().filter(
    (file) =>
      filters.length === 0 || filters.some((filter) => file.startsWith(path.normalize(filter))),
  )
  if (files.length === 0) {
    console.error('No server tests found under server/test/.')
    return 1
  }

  const baseEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent' }
  // The tests choose their database from DATABASE_URL; a developer's own value must not leak in.
  delete baseEnv.DATABASE_URL
  delete baseEnv.DATABASE_SCHEMA

  let cluster: PgCluster | undefined
  if (usePg) {
    try {
      cluster = await startPgCluster()
    } catch (error) {
      console.error(error instanceof Error ? error.message : error)
      return error instanceof PgMissingError ? 2 : 1
    }
  }
  // Stop the files' processes and delete the cluster however the run ends, Ctrl-C included.
  const onSignal = () => {
    for (const child of running) child.kill('SIGKILL')
    void (cluster?.stop() ?? Promise.resolve()).finally(() => process.exit(130))
  }
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  try {
    const concurrency = testConcurrency()
    console.log(
      `Server tests: ${files.length} files on ${dbs.map((db) => DB_NAMES[db]).join(' and ')}` +
        `${cluster ? ` (${cluster.url})` : ''}, ${concurrency} at a time`,
    )
    const times = readTimes()
    const jobs = orderJobs(planJobs(files, dbs, usesNoDatabase), times)
    const started = performance.now()
    const envFor = (db: Db) =>
      db === 'postgres'
        ? { ...baseEnv, DATABASE_URL: cluster!.url }
        : db === 'none'
          ? { ...baseEnv, DATABASE_URL: NO_DATABASE_URL }
          : baseEnv
    const outcomes = [
      ...(await runPool(jobs.filter(runsAlone), envFor, 1)),
      ...(await runPool(
        jobs.filter((job) => !runsAlone(job)),
        envFor,
        concurrency,
      )),
    ]
    const summary = describeOutcomes(outcomes, (performance.now() - started) / 1000)
    console.log(`\n${summary}`)
    for (const outcome of outcomes) times[jobKey(outcome)] = Math.round(outcome.seconds * 10) / 10
    mkdirSync(path.dirname(TIMES_CACHE), { recursive: true })
    writeFileSync(TIMES_CACHE, JSON.stringify(times, null, 1))
    if (process.env.TEST_TIMES_FILE) {
      writeFileSync(
        process.env.TEST_TIMES_FILE,
        JSON.stringify(outcomes.map(({ file, db, seconds }) => ({ file, db, seconds }))),
      )
    }
    return outcomes.every((outcome) => outcome.ok) ? 0 : 1
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
    await cluster?.stop()
  }
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error)
      process.exit(1)
    },
  )
}
