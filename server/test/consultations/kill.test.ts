import assert from 'node:assert/strict'
import { test } from 'node:test'
import { EXPERT_PASSWORD, type ConsultWorld, expert, paidConsultation, patient } from './support'
import { assertLedgerHolds, sharedWorld, type Worker, waitUntil } from './workers'

/*
 * kill -9 in the middle of settling. A server process (settle-worker.ts: the whole app, its job
 * runner serving the consultation kinds) is stopped at a real point of a job, killed with SIGKILL
 * there, and a new process is started on the same database (an SQLite file both open, or the same
 * PostgreSQL schema). Meanwhile the ledger is either done or not done (ledger:check holds, no
 * transfer half-posted), and the new process takes the dead one's job at once (its pid is gone)
 * and finishes it: the right state, escrow zero, a refund applied once with the same refund number.
 * SQLite and PostgreSQL alike.
 */

const HOUR = 3600_000

async function snapshot(world: ConsultWorld, id: string) {
  const db = world.app.db
  const row = await db
    .selectFrom('consultations')
    .select(['state', 'expert_user_id'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  const transfers = await db
    .selectFrom('ledger_transfers')
    .select(['id', 'kind', 'event_key'])
    .where('consultation_id', '=', id)
    .orderBy('kind')
    .execute()
  const entries = await db
    .selectFrom('ledger_entries')
    .select(['transfer_id'])
    .where(
      'transfer_id',
      'in',
      transfers.length > 0 ? transfers.map((transfer) => transfer.id) : ['none'],
    )
    .execute()
  const events = await db
    .selectFrom('consultation_events')
    .select('state')
    .where('consultation_id', '=', id)
    .execute()
  const refunds = await db
    .selectFrom('consultation_refunds')
    .selectAll()
    .where('consultation_id', '=', id)
    .execute()
  const accounts = await db
    .selectFrom('ledger_accounts')
    .select(['id', 'balance'])
    .where('id', 'in', [`escrow:${id}`, `refund:${id}`])
    .execute()
  const balance = (name: string) =>
    Number(accounts.find((account) => account.id === `${name}:${id}`)?.balance ?? 0)
  return {
    state: row.state,
    kinds: transfers.map((transfer) => transfer.kind),
    /** Every transfer has its entries: none half-posted. */
    halfPosted: transfers.filter(
      (transfer) => entries.filter((entry) => entry.transfer_id === transfer.id).length < 2,
    ),
    events: events.map((event) => event.state),
    refunds,
    escrow: balance('escrow'),
    refundAccount: balance('refund'),
  }
}

/** The consultation jobs `worker` held when it died. */
async function jobsHeldBy(world: ConsultWorld, worker: Worker) {
  const rows = await world.app.db
    .selectFrom('ingest_jobs')
    .select(['id', 'kind', 'status', 'attempts', 'locked_by'])
    .where('kind', 'like', 'consult-%')
    .execute()
  return rows.filter((row) => row.locked_by?.split('|')[1] === String(worker.pid))
}

/** No consultation job left to do: none running, none queued and due at `at`. */
async function settled(world: ConsultWorld, at: Date): Promise<boolean> {
  const left = await world.app.db
    .selectFrom('ingest_jobs')
    .select('id')
    .where('kind', 'like', 'consult-%')
    .where((eb) =>
      eb.or([
        eb('status', '=', 'running'),
        eb.and([eb('status', '=', 'queued'), eb('run_after', '<=', at.toISOString())]),
      ]),
    )
    .execute()
  return left.length === 0
}

const withTimeout = <T>(what: string, promise: Promise<T>, ms = 90_000) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`timed out: ${what}`)), ms).unref(),
    ),
  ])

/** After a worker was killed at its first: the jobs it held, then the restart finishes them. */
async function restartAndFinish(
  shared: Awaited<ReturnType<typeof sharedWorld>>,
  first: Worker,
  id: string,
  finished: (state: Awaited<ReturnType<typeof snapshot>>) => boolean,
) {
  const { world } = shared
  const held = await jobsHeldBy(world, first)
  const orphaned = held.filter((job) => job.status === 'running')
  assert.ok(orphaned.length >= 1, `the dead process held a running job: ${JSON.stringify(held)}`)
  const second = await shared.start()
  await waitUntil(
    'the restarted server finished the consultation',
    async () => finished(await snapshot(world, id)) && (await settled(world, world.clock.now())),
    { timeoutMs: 90_000, nudge: [second] },
  )
  // Every job the dead process held was taken once more, by the new one, and is done.
  const after = await world.app.db
    .selectFrom('ingest_jobs')
    .select(['id', 'status', 'attempts', 'locked_by'])
    .where(
      'id',
      'in',
      orphaned.map((job) => job.id),
    )
    .execute()
  for (const job of after) {
    assert.equal(job.status, 'done', JSON.stringify(job))
    assert.equal(job.attempts, 2, JSON.stringify(job))
    assert.equal(job.locked_by?.split('|')[1], String(second.pid))
  }
  return second
}

test('kill -9 while a timer completes a consultation (its transfer written, not its entries): nothing posted; the restarted server completes it once', async () => {
  const shared = await sharedWorld()
  const { world } = shared
  const asker = await patient(world)
  const doctor = await expert(world)
  const id = await paidConsultation(world, asker, doctor)
  assert.equal(
    (await world.call(doctor, 'POST', `/main/expert/consultations/${id}/accept`)).status,
    200,
  )
  const answered = await world.call(doctor, 'POST', `/main/expert/consultations/${id}/answer`, {
    clientId: 'answer-kill-1',
    opinion: '结节 6 mm，建议 6–12 个月复查',
    password: EXPERT_PASSWORD,
  })
  assert.equal(answered.status, 200, answered.error ?? '')
  // 72 hours after the answer: the auto-complete timer is due.
  await world.advance(72 * HOUR + 1000)

  const first = await shared.start({ pauseAt: 'ledger-transfer' })
  assert.equal((await withTimeout('the pause', first.paused)).paused, 'ledger-transfer')
  // Stopped inside the job's transaction: the state change and the transfer's row are written
  // there, not committed; nobody else sees any of it.
  const during = await snapshot(world, id)
  assert.equal(during.state, 'answered')
  assert.deepEqual(during.kinds, ['payment'])
  await first.kill9()

  const killed = await snapshot(world, id)
  assert.equal(killed.state, 'answered', 'not done: the transaction died with the process')
  assert.deepEqual(killed.kinds, ['payment'])
  assert.deepEqual(killed.halfPosted, [])
  assert.equal(killed.escrow, 3000)
  assert.ok(!killed.events.includes('completed'))
  await assertLedgerHolds(world, world.clock.now())

  await restartAndFinish(shared, first, id, (state) => state.state === 'completed')
  const done = await snapshot(world, id)
  assert.deepEqual(done.kinds, ['completion', 'payment'])
  assert.deepEqual(done.halfPosted, [])
  assert.equal(done.events.filter((state) => state === 'completed').length, 1)
  assert.equal(done.escrow, 0)
  const pending = await world.app.db
    .selectFrom('ledger_accounts')
    .select('balance')
    .where('id', '=', `expert-pending:${doctor.user.id}`)
    .executeTakeFirstOrThrow()
  assert.equal(Number(pending.balance), 2400)
  await assertLedgerHolds(world, world.clock.now())
})

test('kill -9 while the accept timer expires a paid consultation (its refund hold half-written): nothing posted; the restarted server expires and refunds it once', async () => {
  const shared = await sharedWorld()
  const { world } = shared
  const asker = await patient(world)
  const doctor = await expert(world)
  const id = await paidConsultation(world, asker, doctor)
  await world.advance(24 * HOUR + 1000)

  const first = await shared.start({ pauseAt: 'ledger-transfer' })
  await withTimeout('the pause', first.paused)
  await first.kill9()

  const killed = await snapshot(world, id)
  assert.equal(killed.state, 'waiting-accept')
  assert.deepEqual(killed.kinds, ['payment'])
  assert.deepEqual(killed.refunds, [], 'no refund started')
  assert.equal(killed.escrow, 3000)
  assert.deepEqual(shared.providerCalls(), [], 'the provider was never asked')
  await assertLedgerHolds(world, world.clock.now())

  await restartAndFinish(
    shared,
    first,
    id,
    (state) => state.state === 'expired' && state.refunds[0]?.state === 'succeeded',
  )
  const done = await snapshot(world, id)
  assert.equal(done.events.filter((state) => state === 'expired').length, 1)
  assert.equal(done.refunds.length, 1)
  assert.deepEqual(done.kinds, ['payment', 'refund', 'refund-hold'])
  assert.deepEqual(done.halfPosted, [])
  assert.equal(done.escrow, 0)
  assert.equal(done.refundAccount, 0)
  assert.deepEqual(
    shared.providerCalls().map((call) => call.refundNo),
    [done.refunds[0]!.refund_no],
  )
  await assertLedgerHolds(world, world.clock.now())
})

test('kill -9 after the provider accepted a refund, before it was recorded: the restarted server sends the same refund number again and records it once', async () => {
  const shared = await sharedWorld()
  const { world } = shared
  const asker = await patient(world)
  const doctor = await expert(world)
  const id = await paidConsultation(world, asker, doctor)
  const declined = await world.call(doctor, 'POST', `/main/expert/consultations/${id}/decline`, {
    reason: '超出我的专业范围',
  })
  assert.equal(declined.status, 200, declined.error ?? '')
  const [refund] = (await snapshot(world, id)).refunds
  assert.equal(refund?.state, 'processing')

  const first = await shared.start({ pauseAt: 'refund-provider' })
  const paused = await withTimeout('the pause', first.paused)
  assert.equal(paused.detail, refund.refund_no)
  await first.kill9()

  // The provider has it; we have not recorded it: the money waits in the refund account.
  const killed = await snapshot(world, id)
  assert.equal(killed.state, 'declined')
  assert.equal(killed.refunds[0]!.state, 'processing')
  assert.deepEqual(killed.kinds, ['payment', 'refund-hold'])
  assert.equal(killed.escrow, 0)
  assert.equal(killed.refundAccount, 3000)
  await assertLedgerHolds(world, world.clock.now())

  const second = await restartAndFinish(
    shared,
    first,
    id,
    (state) => state.refunds[0]?.state === 'succeeded',
  )
  const calls = shared.providerCalls()
  assert.equal(calls.length, 2, JSON.stringify(calls))
  assert.deepEqual(
    calls.map((call) => [call.pid, call.refundNo, call.fen]),
    [
      [first.pid, refund.refund_no, 3000],
      [second.pid, refund.refund_no, 3000],
    ],
  )
  assert.equal(calls[0]!.refundId, calls[1]!.refundId, 'the provider saw one refund')
  const done = await snapshot(world, id)
  assert.equal(done.refunds.length, 1)
  assert.equal(done.refunds[0]!.provider_refund_id, calls[0]!.refundId)
  assert.deepEqual(done.kinds, ['payment', 'refund', 'refund-hold'])
  assert.equal(done.refundAccount, 0)
  assert.equal(done.escrow, 0)
  await assertLedgerHolds(world, world.clock.now())
})
