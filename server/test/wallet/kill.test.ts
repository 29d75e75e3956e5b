import assert from 'node:assert/strict'
import { type ChildProcess, fork } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import type { DatabaseConfig } from '../../src/config'
import { checkLedger } from '../../src/domain/ledger'
import { closeAfter, isolatedDatabase, TEST_PG_URL } from '../helpers'
import type { TransferWorkerEnv, TransferWorkerMessage } from './transfer-worker'
import {
  clientId,
  creditIncome,
  EXPERT_PASSWORD,
  walletExpert,
  walletWorld,
  type WalletWorld,
} from './support'

/*
 * kill -9 in the middle of a withdrawal. A server process (transfer-worker.ts: the whole app, its
 * job runner serving the wallet's kind) is stopped at a real point and killed with SIGKILL there;
 * a new process on the same database (an SQLite file both open, or the same PostgreSQL schema)
 * asks the provider and finishes exactly once, with the same bill number:
 *   - between the hold and the provider call: the hold and the job were committed together, the
 *     provider never heard of the bill; the new process's job creates it (same number) and it pays;
 *   - between the provider's SUCCESS and the posting: nothing was posted; the new process takes the
 *     dead one's job (its pid is gone), asks again, posts once.
 * ledger:check holds at the kill and after. SQLite and PostgreSQL alike.
 */

const WORKER = path.join(__dirname, 'transfer-worker.ts')

interface Worker {
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

async function shared(): Promise<{
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

async function waitUntil(what: string, done: () => Promise<boolean>, nudge: Worker[] = []) {
  const deadline = Date.now() + 150_000
  for (;;) {
    if (await done()) return
    assert.ok(Date.now() < deadline, `timed out waiting until ${what}`)
    for (const worker of nudge) if (worker.child.connected) worker.send({ sweep: true })
    await new Promise((resolve) => setTimeout(resolve, 150))
  }
}

const row = (world: WalletWorld, id: string) =>
  world.app.db.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

const transfersOf = async (world: WalletWorld, id: string) =>
  (
    await world.app.db
      .selectFrom('ledger_transfers')
      .select('kind')
      .where('withdrawal_id', '=', id)
      .orderBy('kind')
      .execute()
  ).map((t) => t.kind)

async function assertLedger(world: WalletWorld) {
  const result = await checkLedger(world.app.db, world.clock.now())
  assert.deepEqual(result.problems, [], 'ledger:check holds')
}

test('kill -9 between the hold and the provider call: the next process sends the same bill and it pays once', async () => {
  const { world, start, advance } = await shared()
  const doctor = await walletExpert(world)
  await creditIncome(world, doctor.user.id, 50_000)
  const first = await start('create')
  first.inject({
    method: 'POST',
    url: '/main/wallet/withdrawals',
    token: doctor.token,
    payload: { amount: '300', clientId: clientId(), password: EXPERT_PASSWORD },
  })
  const paused = await first.paused
  assert.equal(paused.paused, 'create')
  await first.kill9()
  const held = await world.app.db
    .selectFrom('withdrawals')
    .selectAll()
    .where('out_bill_no', '=', String(paused.detail))
    .executeTakeFirstOrThrow()
  assert.equal(held.state, 'paying')
  assert.deepEqual(await transfersOf(world, held.id), ['withdraw-hold'])
  assert.equal(
    (await world.app.db.selectFrom('demo_transfer_bills').selectAll().execute()).length,
    0,
  )
  await assertLedger(world)

  const second = await start()
  advance(31_000, second)
  await waitUntil(
    'the next process created the bill',
    async () =>
      (await world.app.db.selectFrom('demo_transfer_bills').selectAll().execute()).length === 1,
    [second],
  )
  advance(60_000, second)
  await waitUntil('待确认收款', async () => (await row(world, held.id)).state === 'confirming', [
    second,
  ])
  const confirmed = await world.call(doctor, 'POST', `/main/wallet/withdrawals/${held.id}/confirm`)
  assert.equal(confirmed.status, 200, confirmed.error ?? '')
  advance(600_000, second)
  await waitUntil('已到账', async () => (await row(world, held.id)).state === 'paid', [second])
  const bills = await world.app.db.selectFrom('demo_transfer_bills').selectAll().execute()
  assert.deepEqual(
    bills.map((bill) => bill.out_bill_no),
    [held.out_bill_no],
  )
  assert.deepEqual(await transfersOf(world, held.id), ['withdraw-hold', 'withdraw-paid'])
  await assertLedger(world)
})

test('kill -9 between the provider’s SUCCESS and the posting: the next process posts once', async () => {
  const { world, start, advance } = await shared()
  const doctor = await walletExpert(world)
  await creditIncome(world, doctor.user.id, 50_000)
  // Made by the test's own app (it runs no job): the bill is created, then confirmed.
  const made = await world.call(doctor, 'POST', '/main/wallet/withdrawals', {
    amount: '200',
    clientId: clientId(),
    password: EXPERT_PASSWORD,
  })
  assert.equal(made.status, 200, made.error ?? '')
  world.clock.advance(2_500)
  await world.call(doctor, 'POST', `/main/wallet/withdrawals/${made.data.id}/sync`)
  const confirmed = await world.call(
    doctor,
    'POST',
    `/main/wallet/withdrawals/${made.data.id}/confirm`,
  )
  assert.equal(confirmed.data.withdrawal.state, 'paying')
  world.clock.advance(3_500) // SUCCESS at the provider now

  const first = await start('success')
  advance(31_000, first)
  first.send({ sweep: true })
  const paused = await first.paused
  assert.equal(paused.paused, 'success')
  await first.kill9()
  assert.equal((await row(world, made.data.id)).state, 'paying')
  assert.deepEqual(await transfersOf(world, made.data.id), ['withdraw-hold'])
  await assertLedger(world)

  const second = await start()
  const third = await start()
  advance(60_000, second, third)
  await waitUntil('已到账', async () => (await row(world, made.data.id)).state === 'paid', [
    second,
    third,
  ])
  assert.deepEqual(await transfersOf(world, made.data.id), ['withdraw-hold', 'withdraw-paid'])
  assert.equal(
    (await world.app.db.selectFrom('demo_transfer_bills').selectAll().execute()).length,
    1,
  )
  await assertLedger(world)
})
