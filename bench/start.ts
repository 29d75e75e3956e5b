/**
 * How long `npm start` takes before the app answers, as a newcomer meets it (issue 18): the checkout
 * (tracked and new files, as they are now) copied to a temporary folder with a hard-linked
 * node_modules but without its build cache, then
 *
 * 1. cold: the first start (H5 production build, migrations, demo seed),
 * 2. warm: a second start with nothing changed,
 * 3. edit: a start after one source file changed (the build runs again, with its cache).
 *
 * Each run is timed from spawn until /health answers and until / serves the built index.html with the
 * home's first paint; every line the start prints is shown with its time, so the phases can be read.
 * Prints figures, never passes or fails on them; the machine's load average is printed with them.
 *
 * `npx tsx bench/start.ts` (about 2-4 minutes on 2 cores); `--keep` leaves the copy in place.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
} from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { freePort } from '../scripts/lib/free-port'

const ROOT = path.resolve(__dirname, '..')
/** The source file the third run changes: the home page, which the first paint also depends on. */
const EDITED_FILE = 'src/pages/main/main.tsx'

interface StartRun {
  name: string
  /** CPU seconds of the start and the children it has waited for (the build, Chromium), until /. */
  cpuSeconds: number
  healthMs: number
  indexMs: number
  /** What the start printed, each line with the ms since spawn. */
  lines: { ms: number; text: string }[]
}

/** The checkout's files as they are now (committed or not, ignored ones left out) and node_modules. */
function copyCheckout(target: string): void {
  const listed = spawnSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    { cwd: ROOT, encoding: 'utf8' },
  )
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`)
  for (const file of listed.stdout.split('\0').filter(Boolean)) {
    const from = path.join(ROOT, file)
    if (!existsSync(from)) continue // deleted, not yet committed
    mkdirSync(path.dirname(path.join(target, file)), { recursive: true })
    copyFileSync(from, path.join(target, file))
  }
  // Hard links, as the worktrees of this project are made: fast, and no package is written to.
  const linked = spawnSync('cp', ['-al', path.join(ROOT, 'node_modules'), target])
  if (linked.status !== 0) throw new Error(`cp -al node_modules failed: ${linked.stderr}`)
  // A cold start has no build cache (removing the links leaves the checkout's own cache alone).
  rmSync(path.join(target, 'node_modules', '.cache'), { recursive: true, force: true })
}

async function answers(url: string, check: (body: string) => boolean): Promise<boolean> {
  try {
    const response = await fetch(url)
    return response.ok && check(await response.text())
  } catch {
    return false
  }
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

async function timeStart(dir: string, name: string, fresh: boolean): Promise<StartRun> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const started = performance.now()
  const since = () => Math.round(performance.now() - started)
  const lines: StartRun['lines'] = []
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: dir,
    // The clone's own data/ (a second start finds the first one's database, as at home).
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  for (const stream of [child.stdout!, child.stderr!]) {
    let rest = ''
    stream.setEncoding('utf8')
    stream.on('data', (chunk: string) => {
      const parts = (rest + chunk).split(/\r?\n|\r/)
      rest = parts.pop() ?? ''
      for (const text of parts) if (text.trim()) lines.push({ ms: since(), text: text.trim() })
    })
  }
  let cpuSeconds = NaN
  let healthMs = NaN
  let indexMs = NaN
  try {
    const deadline = Date.now() + 15 * 60_000
    while (Number.isNaN(indexMs)) {
      if (child.exitCode !== null)
        throw new Error(`${name}: npm start exited with ${child.exitCode}`)
      if (Date.now() > deadline) throw new Error(`${name}: no answer within 15 minutes`)
      if (Number.isNaN(healthMs) && (await answers(`${url}/health`, () => true))) healthMs = since()
      if (
        !Number.isNaN(healthMs) &&
        (await answers(`${url}/`, (body) => body.includes('id="first-paint"')))
      )
        indexMs = since()
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    // The demo records follow a fresh database's listen; wait for them so the next run starts from a
    // seeded database.
    const seeded = fresh ? Date.now() + 120_000 : 0
    while (
      !lines.some((line) => line.text.includes('演示数据：已为演示患者推送')) &&
      Date.now() < seeded
    )
      await new Promise((resolve) => setTimeout(resolve, 250))
    cpuSeconds = cpuOf(child.pid!)
  } finally {
    await stop(child)
  }
  return { name, cpuSeconds, healthMs, indexMs, lines }
}

/** utime + stime + cutime + cstime of a live process (Linux /proc), seconds. */
function cpuOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / 100
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

function printRun(run: StartRun): void {
  console.log(`\n### ${run.name}\n`)
  for (const line of run.lines) console.log(`${seconds(line.ms).padStart(8)}  ${line.text}`)
  console.log(`${seconds(run.healthMs).padStart(8)}  [bench] /health answers`)
  console.log(
    `${seconds(run.indexMs).padStart(8)}  [bench] / serves index.html with the first paint`,
  )
  console.log(`CPU until then (start, build, Chromium): ${run.cpuSeconds.toFixed(1)} s`)
}

async function main(): Promise<void> {
  const keep = process.argv.includes('--keep')
  const dir = mkdtempSync(path.join(tmpdir(), 'yx-start-'))
  const load = () =>
    loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')
  const loadBefore = load()
  try {
    copyCheckout(dir)
    const runs: StartRun[] = []
    // Each run is printed when it ends: a slow machine still shows the first figures.
    const run = async (name: string) => {
      runs.push(await timeStart(dir, name, runs.length === 0))
      printRun(runs.at(-1)!)
    }
    await run('cold: first start of a fresh checkout')
    await run('warm: second start, nothing changed')
    appendFileSync(path.join(dir, EDITED_FILE), '\n// bench/start.ts: one changed source file\n')
    await run(`edit: after a change to ${EDITED_FILE}`)
    console.log('\n| start | /health | / with first paint | CPU |\n|---|---:|---:|---:|')
    for (const run of runs)
      console.log(
        `| ${run.name} | ${seconds(run.healthMs)} | ${seconds(run.indexMs)} | ${run.cpuSeconds.toFixed(1)} s |`,
      )
    console.log(
      `\nLoad average (1, 5, 15 min) before: ${loadBefore}; after: ${load()}; ` +
        `${readFileSync('/proc/cpuinfo', 'utf8').match(/^processor/gm)?.length ?? '?'} CPUs`,
    )
  } finally {
    if (keep) console.log(`Copy kept in ${dir}`)
    else rmSync(dir, { recursive: true, force: true })
  }
}

void main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
