import assert from 'node:assert/strict'
import { type ChildProcess, fork } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after } from 'node:test'
import type { DatabaseConfig } from '../../src/config'
import { checkLedger } from '../../src/domain/ledger'
import { closeAfter, isolatedDatabase, TEST_PG_URL } from '../helpers'
import type { TransferWorkerEnv, TransferWorkerMessage } from './transfer-worker'
import { walletWorld, type WalletWorld } from './support'

/**
 * Shared by the wallet's kill -9 tests (kill-*.test.ts): server processes (transfer-worker.ts) on
 * the test's database beside an app that runs no job. Not a test file.
 */

const WORKER = path.join(__dirname, 'transfer-worker.ts')

export interface Worker {
  child: ChildProcess
  paused: Promise<{ paused: string; detail?: unknown }>
  inject: (request: {
    method: 'GET' | 'POST'
    url: string
    token: string
    payload?: object
  }) => void
  send: (message: { advance?: number; sweep?: boolean }) => void
  kill9: () => Promise<void>
}

export async function shared(): Promise<{
  world: WalletWorld
  start: (pauseAt?: TransferWorkerEnv['PAUSE_AT']) => Promise<Worker>
  advance: (ms: number, ...workers: Worker[]) => void
}> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'yx-wallet-faults-'))
  after(() => rmSync(scratch, { recursive: true, force: true }))
  const database: DatabaseConfig = TEST_PG_URL
    ? isolatedDatabase()
    : { kind: 'sqlite', file: path.join(scratch, 'app.sqlite') }
  const uploadDir = path.join(scratch, 'uploads')
  const world = await walletWorld({ config: { database, uploadDir }, runJobs: false })
  let injections = 0
  const start = async (pauseAt?: TransferWorkerEnv['PAUSE_AT']): Promise<Worker> => {
    const workerEnv: TransferWorkerEnv = {
      WORKER_DATABASE: JSON.stringify(database),
      CLOCK_AT: world.clock.now().toISOString(),
      UPLOAD_DIR: uploadDir,
      ...(pauseAt ? { PAUSE_AT: pauseAt } : {}),
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
    await new Promise<void>((resolve, reject) => {
      child.on('message', (message: TransferWorkerMessage) => {
        if ('ready' in message) resolve()
        else if ('paused' in message) onPaused(message)
        else if ('failed' in message) reject(new Error(`worker failed: ${message.failed}`))
      })
      child.once('exit', (code, signal) =>
        reject(new Error(`worker exited (${code ?? signal}) while starting`)),
      )
    })
    return {
      child,
      paused,
      inject: (request) => child.send({ inject: { id: (injections += 1), ...request } }),
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
    start,
    advance: (ms, ...workers) => {
      world.clock.advance(ms)
      for (const worker of workers) worker.send({ advance: ms })
    },
  }
}

/**
 * Polls until `done` answers true (or fails), nudging the workers to sweep; `tick`, when given, runs
 * on every poll (moving the clocks on, as time does: a job that queues its successor after the
 * test moved the clock still finds it due a few polls later).
 */
export async function waitUntil(
  what: string,
  done: () => Promise<boolean>,
  nudge: Worker[] = [],
  tick?: () => void,
) {
  const deadline = Date.now() + 150_000
  for (;;) {
    if (await done()) return
    assert.ok(Date.now() < deadline, `timed out waiting until ${what}`)
    tick?.()
    for (const worker of nudge) if (worker.child.connected) worker.send({ sweep: true })
    await new Promise((resolve) => setTimeout(resolve, 150))
  }
}

export const row = (world: WalletWorld, id: string) =>
  world.app.db.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

export const transfersOf = async (world: WalletWorld, id: string) =>
  (
    await world.app.db
      .selectFrom('ledger_transfers')
      .select('kind')
      .where('withdrawal_id', '=', id)
      .orderBy('kind')
      .execute()
  ).map((t) => t.kind)

export async function assertLedger(world: WalletWorld) {
  const result = await checkLedger(world.app.db, world.clock.now())
  assert.deepEqual(result.problems, [], 'ledger:check holds')
}
