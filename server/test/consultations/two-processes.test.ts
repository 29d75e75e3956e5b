import assert from 'node:assert/strict'
import { test } from 'node:test'
import { expert, paidConsultation, patient } from './support'
import { assertLedgerHolds, sharedWorld, waitUntil } from './workers'

/*
 * Timers fire once with two server processes (settle-worker.ts, each the whole app with its job
 * runner) on one database: a PostgreSQL schema both use (pg-boss and the table sweep), or one SQLite
 * file both open (the runner's claim is one conditional UPDATE, atomic across processes; SQLite's
 * write lock is waited for, not failed). Many consultations pass their accept deadline at the same
 * moment of both processes' clocks, both sweeping as fast as they can: each is expired once,
 * refunded once, and each job ran to done under one process.
 */

const HOUR = 3600_000
const COUNT = 16

test(`two processes, ${COUNT} accept deadlines passing at once: each expires once and is refunded once`, async () => {
  const shared = await sharedWorld()
  const { world } = shared
  const doctor = await expert(world, { dailyLimit: 50 })
  const askers = [await patient(world, '王一'), await patient(world, '王二')]
  const ids: string[] = []
  for (let i = 0; i < COUNT; i += 1) ids.push(await paidConsultation(world, askers[i % 2]!, doctor))

  // Both start before the deadlines, then both clocks pass them together.
  const workers = await Promise.all([shared.start(), shared.start()])
  await world.advance(24 * HOUR + 1000)
  for (const worker of workers) worker.send({ advance: 24 * HOUR + 1000 })

  const db = world.app.db
  await waitUntil(
    'every consultation expired and refunded',
    async () => {
      const open = await db
        .selectFrom('consultations')
        .select('id')
        .where('id', 'in', ids)
        .where('state', '!=', 'expired')
        .execute()
      const refunding = await db
        .selectFrom('consultation_refunds')
        .select('refund_no')
        .where('consultation_id', 'in', ids)
        .where('state', '!=', 'succeeded')
        .execute()
      const jobs = await db
        .selectFrom('ingest_jobs')
        .select('id')
        .where('kind', 'like', 'consult-%')
        .where('status', 'in', ['queued', 'running'])
        .where((eb) =>
          eb.or([
            eb('run_after', 'is', null),
            eb('run_after', '<=', world.clock.now().toISOString()),
          ]),
        )
        .execute()
      return open.length === 0 && refunding.length === 0 && jobs.length === 0
    },
    { timeoutMs: 150_000, nudge: workers },
  )

  for (const id of ids) {
    const events = await db
      .selectFrom('consultation_events')
      .select('state')
      .where('consultation_id', '=', id)
      .where('state', '=', 'expired')
      .execute()
    assert.equal(events.length, 1, `one expired event for ${id}`)
    const refunds = await db
      .selectFrom('consultation_refunds')
      .selectAll()
      .where('consultation_id', '=', id)
      .execute()
    assert.equal(refunds.length, 1, `one refund for ${id}`)
    assert.equal(refunds[0]!.state, 'succeeded')
    const transfers = await db
      .selectFrom('ledger_transfers')
      .select('kind')
      .where('consultation_id', '=', id)
      .orderBy('kind')
      .execute()
    assert.deepEqual(
      transfers.map((transfer) => transfer.kind),
      ['payment', 'refund', 'refund-hold'],
    )
    const lines = await db
      .selectFrom('consultation_messages')
      .select('text')
      .where('consultation_id', '=', id)
      .where('text', 'like', '专家未在 24 小时内接诊%')
      .execute()
    assert.equal(lines.length, 1, 'one system line in the conversation')
  }

  // Each refund number went to the provider once: no refund job ran twice.
  const calls = shared.providerCalls()
  assert.equal(calls.length, COUNT, JSON.stringify(calls))
  assert.equal(new Set(calls.map((call) => call.refundNo)).size, COUNT)

  // Every due timer and every refund job is done, run once (one attempt), by one of the two.
  const due = await db
    .selectFrom('ingest_jobs')
    .select(['kind', 'status', 'attempts', 'locked_by', 'subject_id', 'run_after'])
    .where('kind', 'like', 'consult-%')
    .where('run_after', '<=', world.clock.now().toISOString())
    .execute()
  // Per consultation: the pay timer, cancelled by the payment (never run), the accept timer, one
  // refund.
  const cancelled = due.filter((job) => job.status === 'cancelled')
  assert.equal(cancelled.length, COUNT, JSON.stringify(cancelled))
  assert.ok(cancelled.every((job) => job.kind === 'consult-timer' && job.attempts === 0))
  const jobs = due.filter((job) => job.status !== 'cancelled')
  assert.equal(jobs.length, COUNT * 2)
  const pids = new Set(workers.map((worker) => String(worker.pid)))
  for (const job of jobs) {
    assert.equal(job.status, 'done', JSON.stringify(job))
    assert.equal(job.attempts, 1, JSON.stringify(job))
    assert.ok(pids.has(job.locked_by?.split('|')[1] ?? ''), JSON.stringify(job))
  }
  // Both processes did some of the work (the point of the test).
  const byPid = new Map<string, number>()
  for (const job of jobs) {
    const pid = job.locked_by!.split('|')[1]!
    byPid.set(pid, (byPid.get(pid) ?? 0) + 1)
  }
  assert.equal(byPid.size, 2, `jobs per process: ${JSON.stringify([...byPid])}`)
  await assertLedgerHolds(world, world.clock.now())
})
