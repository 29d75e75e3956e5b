import assert from 'node:assert/strict'
import { test } from 'node:test'
import { clientId, creditIncome, EXPERT_PASSWORD, walletExpert } from './support'
import { assertLedger, row, shared, transfersOf, waitUntil } from './kill-support'

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
  await waitUntil(
    '待确认收款',
    async () => (await row(world, held.id)).state === 'confirming',
    [second],
    () => advance(5_000, second),
  )
  const confirmed = await world.call(doctor, 'POST', `/main/wallet/withdrawals/${held.id}/confirm`)
  assert.equal(confirmed.status, 200, confirmed.error ?? '')
  await waitUntil(
    '已到账',
    async () => (await row(world, held.id)).state === 'paid',
    [second],
    () => advance(30_000, second),
  )
  const bills = await world.app.db.selectFrom('demo_transfer_bills').selectAll().execute()
  assert.deepEqual(
    bills.map((bill) => bill.out_bill_no),
    [held.out_bill_no],
  )
  assert.deepEqual(await transfersOf(world, held.id), ['withdraw-hold', 'withdraw-paid'])
  await assertLedger(world)
})
