import assert from 'node:assert/strict'
import { test } from 'node:test'
import { consultWorld, EXPERT_PASSWORD, expert, paidConsultation, patient } from './support'

const HOUR = 3600_000

test('a consultation from submission to the money settled: pay, accept, answer, adopt, rate, settle', async () => {
  const world = await consultWorld()
  const asker = await patient(world)
  const doctor = await expert(world)
  const id = await paidConsultation(world, asker, doctor)

  // The expert sees it waiting, with the time left to accept.
  const waiting = await world.call(doctor, 'GET', '/main/expert/consultations?tab=waiting')
  assert.equal(waiting.status, 200, waiting.error ?? '')
  assert.deepEqual(waiting.data.items.map((item: { id: string }) => item.id), [id])
  assert.equal(waiting.data.items[0].deadlineLabel, '接诊剩余')
  const counts = await world.call(doctor, 'GET', '/main/expert/consultations/counts')
  assert.equal(counts.data.waiting, 1)

  // Another patient and another expert see nothing of it.
  const stranger = await patient(world, '赵路人')
  assert.equal((await world.call(stranger, 'GET', `/main/consultations/${id}`)).status, 404)
  const otherDoctor = await expert(world, { name: '周专家' })
  assert.equal((await world.call(otherDoctor, 'POST', `/main/expert/consultations/${id}/accept`)).status, 404)
  assert.equal((await world.call(asker, 'POST', `/main/expert/consultations/${id}/accept`)).status, 403)

  const accepted = await world.call(doctor, 'POST', `/main/expert/consultations/${id}/accept`)
  assert.equal(accepted.status, 200, accepted.error ?? '')
  assert.equal(accepted.data.state, 'in-progress')
  assert.equal(accepted.data.records.length, 1, 'the expert sees the shared exam through the grant')

  const hello = await world.call(asker, 'POST', `/main/consultations/${id}/messages`, { clientId: 'client-000001', text: '医生您好' })
  assert.equal(hello.status, 200, hello.error ?? '')
  const again = await world.call(asker, 'POST', `/main/consultations/${id}/messages`, { clientId: 'client-000001', text: '医生您好' })
  assert.equal(again.data.id, hello.data.id, 'a retried send is one message')

  const wrong = await world.call(doctor, 'POST', `/main/expert/consultations/${id}/answer`, { clientId: 'answer-0001', opinion: '结节 6 mm，建议 6–12 个月复查', password: 'wrong-pass1' })
  assert.equal(wrong.status, 400)
  const answered = await world.call(doctor, 'POST', `/main/expert/consultations/${id}/answer`, { clientId: 'answer-0001', opinion: '结节 6 mm，建议 6–12 个月复查', password: EXPERT_PASSWORD })
  assert.equal(answered.status, 200, answered.error ?? '')
  assert.equal(answered.data.kind, 'answer')
  assert.ok(answered.data.signedAt)

  const messages = await world.call(asker, 'GET', `/main/consultations/${id}/messages?after=0`)
  const kinds = messages.data.items.map((item: { kind: string }) => item.kind)
  assert.ok(kinds.includes('answer') && kinds.includes('text'))
  const afterLast = await world.call(asker, 'GET', `/main/consultations/${id}/messages?after=${messages.data.last}`)
  assert.deepEqual(afterLast.data.items, [], 'nothing after the cursor')

  const adopted = await world.call(asker, 'POST', `/main/consultations/${id}/adopt`)
  assert.equal(adopted.status, 200, adopted.error ?? '')
  assert.equal(adopted.data.state, 'completed')
  assert.equal(adopted.data.actions.rate, true)
  const rated = await world.call(asker, 'POST', `/main/consultations/${id}/rating`, { stars: 5, tags: ['解答详细'], text: '很专业' })
  assert.equal(rated.status, 200, rated.error ?? '')
  assert.equal((await world.call(asker, 'POST', `/main/consultations/${id}/rating`, { stars: 1, tags: [], text: '' })).status, 409)

  const balances = async () => {
    const rows = await world.app.db.selectFrom('ledger_accounts').select(['id', 'balance']).execute()
    return Object.fromEntries(rows.map((row) => [row.id.split(':')[0], Number(row.balance)]))
  }
  const before = await balances()
  assert.equal(before['expert-pending'], 2400, '¥30 minus the 20% share')
  assert.equal(before['platform-revenue'], 600)
  assert.equal(before.escrow, 0)
  await world.assertLedger()

  await world.advance(7 * 24 * HOUR + 1000, asker, doctor)
  await world.drainJobs()
  const after = await balances()
  assert.equal(after['expert-pending'], 0)
  assert.equal(after['expert-available'], 2400)
  await world.assertLedger()
})

test('declined and refunded at once; a timed-out one refunded by its timer; the money comes back once', async () => {
  const world = await consultWorld()
  const asker = await patient(world)
  const doctor = await expert(world)
  const declinedId = await paidConsultation(world, asker, doctor)
  const declined = await world.call(doctor, 'POST', `/main/expert/consultations/${declinedId}/decline`, { reason: '超出我的专业范围' })
  assert.equal(declined.status, 200, declined.error ?? '')
  assert.equal(declined.data.state, 'declined')
  await world.drainJobs()
  const detail = await world.call(asker, 'GET', `/main/consultations/${declinedId}`)
  assert.equal(detail.data.order.refunds.length, 1)
  assert.equal(detail.data.order.refunds[0].state, 'succeeded')
  assert.equal(detail.data.order.refundedFen, 3000)

  const lateId = await paidConsultation(world, asker, doctor)
  await world.advance(24 * HOUR + 1000, asker, doctor)
  await world.drainJobs()
  const late = await world.call(asker, 'GET', `/main/consultations/${lateId}`)
  assert.equal(late.data.state, 'expired')
  assert.equal(late.data.order.refunds[0]?.state, 'succeeded')
  await world.assertLedger()
})

test('an unpaid order closes after 15 minutes and gives the slot back', async () => {
  const world = await consultWorld()
  const asker = await patient(world)
  const doctor = await expert(world, { dailyLimit: 1 })
  const { application } = await import('./support')
  const { input } = await application(world, asker, doctor)
  const first = await world.call(asker, 'POST', '/main/consultations', input)
  assert.equal(first.status, 200, first.error ?? '')
  const full = await world.call(asker, 'POST', '/main/consultations', input)
  assert.equal(full.status, 409)
  assert.equal(full.error, '专家今日已满，请明天再来或选择其他专家')
  await world.advance(15 * 60_000 + 1000)
  await world.drainJobs()
  const closed = await world.call(asker, 'GET', `/main/consultations/${first.data.id}`)
  assert.equal(closed.data.state, 'cancelled')
  assert.equal(closed.data.grant.status, 'expired')
  const next = await world.call(asker, 'POST', '/main/consultations', input)
  assert.equal(next.status, 200, next.error ?? '')
  await world.assertLedger()
})
