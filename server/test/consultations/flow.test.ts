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
  assert.deepEqual(
    waiting.data.items.map((item: { id: string }) => item.id),
    [id],
  )
  assert.equal(waiting.data.items[0].deadlineLabel, '接诊剩余')
  const counts = await world.call(doctor, 'GET', '/main/expert/consultations/counts')
  assert.equal(counts.data.waiting, 1)

  // Another patient and another expert see nothing of it.
  const stranger = await patient(world, '赵路人')
  assert.equal((await world.call(stranger, 'GET', `/main/consultations/${id}`)).status, 404)
  const otherDoctor = await expert(world, { name: '周专家' })
  assert.equal(
    (await world.call(otherDoctor, 'POST', `/main/expert/consultations/${id}/accept`)).status,
    404,
  )
  assert.equal(
    (await world.call(asker, 'POST', `/main/expert/consultations/${id}/accept`)).status,
    403,
  )

  const accepted = await world.call(doctor, 'POST', `/main/expert/consultations/${id}/accept`)
  assert.equal(accepted.status, 200, accepted.error ?? '')
  assert.equal(accepted.data.state, 'in-progress')
  assert.equal(accepted.data.records.length, 1, 'the expert sees the shared exam through the grant')

  const hello = await world.call(asker, 'POST', `/main/consultations/${id}/messages`, {
    clientId: 'client-000001',
    text: '医生您好',
  })
  assert.equal(hello.status, 200, hello.error ?? '')
  const again = await world.call(asker, 'POST', `/main/consultations/${id}/messages`, {
    clientId: 'client-000001',
    text: '医生您好',
  })
  assert.equal(again.data.id, hello.data.id, 'a retried send is one message')

  const wrong = await world.call(doctor, 'POST', `/main/expert/consultations/${id}/answer`, {
    clientId: 'answer-0001',
    opinion: '结节 6 mm，建议 6–12 个月复查',
    password: 'wrong-pass1',
  })
  assert.equal(wrong.status, 400)
  const answered = await world.call(doctor, 'POST', `/main/expert/consultations/${id}/answer`, {
    clientId: 'answer-0001',
    opinion: '结节 6 mm，建议 6–12 个月复查',
    password: EXPERT_PASSWORD,
  })
  assert.equal(answered.status, 200, answered.error ?? '')
  assert.equal(answered.data.kind, 'answer')
  assert.ok(answered.data.signedAt)

  const messages = await world.call(asker, 'GET', `/main/consultations/${id}/messages?after=0`)
  const kinds = messages.data.items.map((item: { kind: string }) => item.kind)
  assert.ok(kinds.includes('answer') && kinds.includes('text'))
  const afterLast = await world.call(
    asker,
    'GET',
    `/main/consultations/${id}/messages?after=${messages.data.last}`,
  )
  assert.deepEqual(afterLast.data.items, [], 'nothing after the cursor')

  const adopted = await world.call(asker, 'POST', `/main/consultations/${id}/adopt`)
  assert.equal(adopted.status, 200, adopted.error ?? '')
  assert.equal(adopted.data.state, 'completed')
  assert.equal(adopted.data.actions.rate, true)
  const rated = await world.call(asker, 'POST', `/main/consultations/${id}/rating`, {
    stars: 5,
    tags: ['解答详细'],
    text: '很专业',
  })
  assert.equal(rated.status, 200, rated.error ?? '')
  assert.equal(
    (
      await world.call(asker, 'POST', `/main/consultations/${id}/rating`, {
        stars: 1,
        tags: [],
        text: '',
      })
    ).status,
    409,
  )

  const balances = async () => {
    const rows = await world.app.db
      .selectFrom('ledger_accounts')
      .select(['id', 'balance'])
      .execute()
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
  const declined = await world.call(
    doctor,
    'POST',
    `/main/expert/consultations/${declinedId}/decline`,
    { reason: '超出我的专业范围' },
  )
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

test('deleting an account waits while a paid consultation runs; after it ends the record stays for the expert', async () => {
  const { smsCode } = await import('../domain/profile/support')
  const world = await consultWorld()
  const asker = await patient(world)
  const doctor = await expert(world)
  const id = await paidConsultation(world, asker, doctor)
  const code = await smsCode(world.app.db, asker.mobile!, 'delete', world.clock.now())
  const refused = await world.call(asker, 'POST', '/main/account/delete', { code })
  assert.equal(refused.status, 409)
  assert.match(refused.error ?? '', /进行中的咨询/)
  const expertRefused = await world.call(doctor, 'POST', '/main/account/delete', { code: '000000' })
  assert.equal(expertRefused.status, 409, 'the expert too, before any code is checked')

  await world.call(asker, 'POST', `/main/consultations/${id}/cancel`)
  await world.drainJobs()
  const code2 = await smsCode(world.app.db, asker.mobile!, 'delete', world.clock.now())
  const deleted = await world.call(asker, 'POST', '/main/account/delete', { code: code2 })
  assert.equal(deleted.status, 200, deleted.error ?? '')
  const kept = await world.call(doctor, 'GET', `/main/consultations/${id}`)
  assert.equal(kept.status, 200, 'the expert keeps the conversation the rules keep')
  assert.equal(kept.data.records.length, 0, 'but no longer any of the patient’s records')
  await world.assertLedger()
})

test('follow-ups after the answer: as many as the expert set, within 48 hours', async () => {
  const world = await consultWorld()
  const asker = await patient(world)
  const doctor = await expert(world)
  const settings = await world.call(doctor, 'GET', '/main/experts/me')
  const put = await world.call(doctor, 'PUT', '/main/experts/me/services', {
    accepting: true,
    dailyLimit: settings.data.dailyLimit,
    followupLimit: 1,
    services: settings.data.profile.services.map(
      (s: { kind: string; enabled: boolean; priceFen: number }) => ({
        kind: s.kind,
        enabled: s.enabled,
        priceFen: s.priceFen,
      }),
    ),
  })
  assert.equal(put.status, 200, put.error ?? '')
  assert.equal(put.data.followupLimit, 1)
  const id = await paidConsultation(world, asker, doctor)
  await world.call(doctor, 'POST', `/main/expert/consultations/${id}/accept`)
  await world.call(doctor, 'POST', `/main/expert/consultations/${id}/answer`, {
    clientId: 'answer-f1',
    opinion: '建议复查',
    password: EXPERT_PASSWORD,
  })
  const first = await world.call(asker, 'POST', `/main/consultations/${id}/messages`, {
    clientId: 'follow-01',
    text: '需要空腹吗？',
  })
  assert.equal(first.status, 200, first.error ?? '')
  const second = await world.call(asker, 'POST', `/main/consultations/${id}/messages`, {
    clientId: 'follow-02',
    text: '还有一个问题',
  })
  assert.equal(second.status, 409)
  assert.equal(second.error, '追问次数已用完')
  const detail = await world.call(asker, 'GET', `/main/consultations/${id}`)
  assert.equal(detail.data.followupsUsed, 1)
  assert.equal(detail.data.actions.send, false)
  // The expert may still reply (an addendum, or a message) until it completes.
  const reply = await world.call(doctor, 'POST', `/main/consultations/${id}/messages`, {
    clientId: 'reply-01',
    text: '不需要空腹',
  })
  assert.equal(reply.status, 200, reply.error ?? '')
})

/** A consultation's timer rows: the queued ones' times, and how many were cancelled / ran. */
async function timersOf(world: Awaited<ReturnType<typeof consultWorld>>, id: string) {
  const rows = await world.app.db
    .selectFrom('ingest_jobs')
    .select(['status', 'run_after', 'attempts'])
    .where('kind', '=', 'consult-timer')
    .where('subject_id', '=', id)
    .execute()
  return {
    queued: rows.filter((row) => row.status === 'queued').map((row) => row.run_after),
    cancelled: rows.filter((row) => row.status === 'cancelled' && row.attempts === 0).length,
    ran: rows.filter((row) => row.status === 'done').length,
  }
}

test('each state change replaces the timer in its transaction: one queued at the current deadline, the superseded ones cancelled and never run', async () => {
  const world = await consultWorld()
  const asker = await patient(world)
  const doctor = await expert(world)
  const deadlines = async (id: string) =>
    world.app.db
      .selectFrom('consultations')
      .select(['pay_by', 'accept_by', 'answer_by', 'complete_at', 'settle_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()

  const id = await paidConsultation(world, asker, doctor)
  let row = await deadlines(id)
  assert.deepEqual(await timersOf(world, id), { queued: [row.accept_by], cancelled: 1, ran: 0 })
  await world.call(doctor, 'POST', `/main/expert/consultations/${id}/accept`)
  assert.deepEqual(await timersOf(world, id), { queued: [row.answer_by], cancelled: 2, ran: 0 })
  await world.advance(HOUR, asker, doctor)
  const answered = await world.call(doctor, 'POST', `/main/expert/consultations/${id}/answer`, {
    clientId: 'answer-t1',
    opinion: '建议复查',
    password: EXPERT_PASSWORD,
  })
  assert.equal(answered.status, 200, answered.error ?? '')
  row = await deadlines(id)
  assert.deepEqual(await timersOf(world, id), { queued: [row.complete_at], cancelled: 3, ran: 0 })
  // An addendum is no state change: the timer stays as it is.
  await world.call(doctor, 'POST', `/main/expert/consultations/${id}/answer`, {
    clientId: 'answer-t2',
    opinion: '补充：三个月后复查',
    password: EXPERT_PASSWORD,
  })
  assert.deepEqual(await timersOf(world, id), { queued: [row.complete_at], cancelled: 3, ran: 0 })
  const adopted = await world.call(asker, 'POST', `/main/consultations/${id}/adopt`)
  assert.equal(adopted.status, 200, adopted.error ?? '')
  row = await deadlines(id)
  assert.deepEqual(await timersOf(world, id), { queued: [row.settle_at], cancelled: 4, ran: 0 })

  // Past every old deadline: only the settle timer runs.
  await world.advance(7 * 24 * HOUR + 1000, asker, doctor)
  await world.drainJobs()
  assert.deepEqual(await timersOf(world, id), { queued: [], cancelled: 4, ran: 1 })
  const settled = await world.app.db
    .selectFrom('consultations')
    .select('settled_at')
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  assert.ok(settled.settled_at)

  // An ending cancels what was queued: declined, and an unpaid order the patient cancels.
  const declinedId = await paidConsultation(world, asker, doctor)
  await world.call(doctor, 'POST', `/main/expert/consultations/${declinedId}/decline`, {
    reason: '超出我的专业范围',
  })
  assert.deepEqual(await timersOf(world, declinedId), { queued: [], cancelled: 2, ran: 0 })
  const { application } = await import('./support')
  const { input } = await application(world, asker, doctor)
  const unpaid = await world.call(asker, 'POST', '/main/consultations', input)
  await world.call(asker, 'POST', `/main/consultations/${unpaid.data.id}/cancel`)
  assert.deepEqual(await timersOf(world, unpaid.data.id), { queued: [], cancelled: 1, ran: 0 })
  await world.drainJobs()
  await world.assertLedger()
})

test('a stale timer row left from before (a deadline the state has moved past) still changes nothing when it runs', async () => {
  const world = await consultWorld()
  const asker = await patient(world)
  const doctor = await expert(world)
  const id = await paidConsultation(world, asker, doctor)
  await world.call(doctor, 'POST', `/main/expert/consultations/${id}/accept`)
  const before = await world.call(asker, 'GET', `/main/consultations/${id}`)
  // A timer row for the old pay deadline, queued as rows were before superseded ones were cancelled.
  const { insertQueuedJob } = await import('../../src/jobs/runner')
  await insertQueuedJob(world.app.db, {
    id: 'stale-timer-0001',
    kind: 'consult-timer',
    stagingPrefix: 'jobs-without-files/stale-timer-0001/',
    subjectId: id,
    runAfter: new Date(before.data.order.payBy as string),
  })
  await world.advance(60 * 60_000, asker)
  await world.drainJobs()
  const stale = await world.app.db
    .selectFrom('ingest_jobs')
    .select(['status', 'message'])
    .where('id', '=', 'stale-timer-0001')
    .executeTakeFirstOrThrow()
  assert.deepEqual(stale, { status: 'done', message: 'not due' })
  const after = await world.call(asker, 'GET', `/main/consultations/${id}`)
  assert.equal(after.data.state, 'in-progress')
  assert.deepEqual(after.data.events, before.data.events)
  await world.assertLedger()
})
