/**
 * `npm test`: every gate, in the order a failure is cheapest to find. Stops at the first failing stage
 * and prints how long each gate took.
 *
 * Gates of one stage run at the same time: format, lint and types are each one busy thread, so
 * together they use both cores of a 2-core machine instead of one after the other (their output is
 * held and printed whole, gate by gate). Every other gate keeps the machine to itself, because it
 * uses all cores already (Jest's workers, the server suites' concurrent files, the builds) or measures
 * time (size budgets, e2e).
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'

interface Gate {
  name: string
  script: string
}

const STAGES: Gate[][] = [
  [
    { name: 'format', script: 'format:check' },
    { name: 'lint', script: 'lint' },
    { name: 'types', script: 'typecheck' },
  ],
  [{ name: 'unit (Jest)', script: 'test:unit' }],
  // Both databases in one pool of files (scripts/test-server.ts): a PostgreSQL file waiting on its
  // database leaves a core to a SQLite file.
  [{ name: 'server (SQLite + PostgreSQL)', script: 'test:server:all' }],
  [{ name: 'production builds', script: 'build' }],
  [{ name: 'size budgets', script: 'budgets' }],
  [{ name: 'weapp code quality', script: 'weapp:quality' }],
  [{ name: 'e2e (Chromium)', script: 'test:e2e' }],
]

// The production builds here are measured and linted, never shipped: the mini-program gets a
// placeholder API origin instead of stopping for want of TARO_APP_API_ORIGIN (config/app-env.ts).
process.env.BUILD_FOR_CHECKS ??= '1'

// Where the server gate leaves each file's time, for the summary's slowest files.
const timesDir = mkdtempSync(path.join(tmpdir(), 'yx-test-times-'))
process.env.TEST_TIMES_FILE = path.join(timesDir, 'server.json')

/** The ten slowest server test files of this run, if the server gate ran. */
function slowestServerFiles(): string[] {
  try {
    const times = JSON.parse(readFileSync(process.env.TEST_TIMES_FILE!, 'utf8')) as {
      file: string
      db: string
      seconds: number
    }[]
    return times
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, 10)
      .map((time) => `  ${time.seconds.toFixed(1).padStart(6)} s  ${time.file} (${time.db})`)
  } catch {
    return []
  }
}

interface Result {
  name: string
  seconds: number
  ok: boolean
}

/** Runs one gate; with `holdOutput` its output is printed in one piece when it ends. */
function runGate(gate: Gate, holdOutput: boolean): Promise<Result> {
  const started = performance.now()
  if (!holdOutput) console.log(`\n=== ${gate.name}: npm run ${gate.script}\n`)
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', gate.script], {
      stdio: holdOutput ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    })
    const output: Buffer[] = []
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk))
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk))
    const finish = (ok: boolean) => {
      if (holdOutput) {
        console.log(`\n=== ${gate.name}: npm run ${gate.script}\n`)
        process.stdout.write(Buffer.concat(output))
      }
      resolve({ name: gate.name, seconds: (performance.now() - started) / 1000, ok })
    }
    child.once('error', (error) => {
      output.push(Buffer.from(`${String(error)}\n`))
      finish(false)
    })
    child.once('close', (code) => finish(code === 0))
  })
}

async function main(): Promise<number> {
  const only = process.argv.slice(2)
  const started = performance.now()
  const results: Result[] = []
  for (const stage of STAGES) {
    const gates = stage.filter((gate) => only.length === 0 || only.includes(gate.script))
    if (gates.length === 0) continue
    results.push(...(await Promise.all(gates.map((gate) => runGate(gate, gates.length > 1)))))
    if (results.some((result) => !result.ok)) break
  }

  console.log('\n=== summary')
  for (const result of results) {
    console.log(
      `  ${result.ok ? 'ok  ' : 'FAIL'} ${result.name.padEnd(24)} ${result.seconds.toFixed(1).padStart(6)} s`,
    )
  }
  // Wall time: the first stage's gates run side by side, so their sum would overstate it.
  const total = (performance.now() - started) / 1000
  console.log(
    `  total ${' '.repeat(24)} ${total.toFixed(1).padStart(6)} s (${(total / 60).toFixed(1)} min)`,
  )
  const slowest = slowestServerFiles()
  if (slowest.length > 0) console.log(`\nslowest server test files:\n${slowest.join('\n')}`)
  rmSync(timesDir, { recursive: true, force: true })
  const failed = results.filter((result) => !result.ok)
  if (failed.length > 0) {
    console.error(`\nnpm test failed at: ${failed.map((result) => result.name).join(', ')}`)
    return 1
  }
  return 0
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
