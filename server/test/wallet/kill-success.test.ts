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
  await waitUntil(
    '已到账',
    async () => (await row(world, made.data.id)).state === 'paid',
    [second],
    () => advance(10_000, second),
  )
  assert.deepEqual(await transfersOf(world, made.data.id), ['withdraw-hold', 'withdraw-paid'])
  assert.equal(
    (await world.app.db.selectFrom('demo_transfer_bills').selectAll().execute()).length,
    1,
  )
  await assertLedger(world)
})
