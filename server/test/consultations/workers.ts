import assert from 'node:assert/strict'
import { type ChildProcess, fork } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after } from 'node:test'
import type { DatabaseConfig } from '../../src/config'
import { checkLedger } from '../../src/domain/ledger'
import { closeAfter, isolatedDatabase, TEST_PG_URL } from '../helpers'
import { type ConsultWorld, consultWorld } from './support'
import type { WorkerEnv, WorkerMessage } from './settle-worker'

/**
 * Server processes of the consultation fault tests (settle-worker.ts) on the test's database, beside
 * an app in the test process that runs no job (it makes the consultations through HTTP; the workers
 * take every timer and refund). Not a test file.
 */

const WORKER = path.join(__dirname, 'settle-worker.ts')

export interface SharedWorld {
  world: ConsultWorld
  database: DatabaseConfig
  scratch: string
  /** JSON lines of every refund the workers sent to the provider. */
  providerCalls: () => { pid: number; refundNo: string; refundId: string; fen: number }[]
  start: (options?: { pauseAt?: WorkerEnv['PAUSE_AT'] }) => Promise<Worker>
}

export interface Worker {
  child: ChildProcess
  pid: number
  /** Resolves with what it paused at (PAUSE_AT). */
  paused: Promise<{ paused: string; detail?: unknown }>
  send: (message: { advance?: number; sweep?: boolean }) => void
  kill9: () => Promise<void>
}

/** A shared database: an SQLite file several processes open, or a PostgreSQL schema. */
export async function sharedWorld(): Promise<SharedWorld> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'yx-consult-faults-'))
  after(() => rmSync(scratch, { recursive: true, force: true }))
  const database: DatabaseConfig = TEST_PG_URL
    ? isolatedDatabase()
    : { kind: 'sqlite', file: path.join(scratch, 'app.sqlite') }
  const uploadDir = path.join(scratch, 'uploads')
  const world = await consultWorld({ config: { database, uploadDir }, runJobs: false })
  const providerLog = path.join(scratch, 'provider.jsonl')

  const start: SharedWorld['start'] = async (options = {}) => {
    const workerEnv: WorkerEnv = {
      WORKER_DATABASE: JSON.stringify(database),
      CLOCK_AT: world.clock.now().toISOString(),
      UPLOAD_DIR: uploadDir,
      PROVIDER_LOG: providerLog,
      ...(options.pauseAt ? { PAUSE_AT: options.pauseAt } : {}),
    }
    const child = fork(WORKER, [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, ...workerEnv, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    })
    closeAfter(async () => {
      if (child.exitCode !== null || child.signalCode !== null) return
      child.send({ stop: true })
      const exited = new Promise((resolve) => child.once('exit', resolve))
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
      await exited
      clearTimeout(timer)
    })
    let onPaused: (value: { paused: string; detail?: unknown }) => void = () => {}
    const paused = new Promise<{ paused: string; detail?: unknown }>((resolve) => {
      onPaused = resolve
    })
    const ready = await new Promise<number>((resolve, reject) => {
      child.on('message', (message: WorkerMessage) => {
        if ('ready' in message) resolve(message.pid)
        else if ('paused' in message) onPaused(message)
        else reject(new Error(`worker failed: ${message.failed}`))
      })
      child.once('exit', (code, signal) =>
        reject(new Error(`worker exited (${code ?? signal}) while starting`)),
      )
    })
    return {
      child,
      pid: ready,
      paused,
      send: (message) => child.send(message),
      kill9: async () => {
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.kill('SIGKILL')
        await exited
      },
    }
  }

  return {
    world,
    database,
    scratch,
    providerCalls: () =>
      existsSync(providerLog)
        ? readFileSync(providerLog, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as ReturnType<SharedWorld['providerCalls']>[number])
        : [],
    start,
  }
}

/** Polls until `done` answers true (or fails after `timeoutMs`), nudging the workers to sweep. */
export async function waitUntil(
  what: string,
  done: () => Promise<boolean>,
  options: { timeoutMs?: number; nudge?: Worker[] } = {},
): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000)
  for (;;) {
    if (await done()) return
    assert.ok(Date.now() < deadline, `timed out waiting until ${what}`)
    for (const worker of options.nudge ?? []) {
      if (worker.child.connected) worker.send({ sweep: true })
    }
    await new Promise((resolve) => setTimeout(resolve, 150))
  }
}

/** `ledger:check` on the shared database, at the workers' time. */
export async function assertLedgerHolds(world: ConsultWorld, at: Date): Promise<void> {
  const result = await checkLedger(world.app.db, at)
  assert.deepEqual(result.problems, [], 'ledger:check holds')
}
