import assert from 'node:assert/strict'
import { test } from 'node:test'
import { CONSULT_MESSAGES } from '@contract/main/consultations'
import type { TestUser } from '../domain/profile/support'
import {
  answeredConsultation,
  application,
  consultWorld,
  expert,
  paidConsultation,
  patient,
} from './support'

/*
 * Bursts at one process (app.inject, requests interleaved on the event loop and the database):
 * 30 parallel accept/decline/cancel on one paid order leave exactly one outcome, and 20 parallel
 * submissions to an expert whose daily limit is 3 create exactly 3, and 20 parallel follow-ups to an
 * expert who allows one take exactly one. SQLite and PostgreSQL alike.
 */

type Move = 'accept' | 'decline' | 'cancel'
const OUTCOME: Record<Move, string> = {
  accept: 'in-progress',
  decline: 'declined',
  cancel: 'cancelled',
}

test('30 parallel accept/decline/cancel on one paid order: one outcome, 29 × 409, at most one refund', async () => {
  const world = await consultWorld()
  const asker = await patient(world)
  const doctor = await expert(world)
  const winners: Move[] = []
  for (let round = 0; round < 4; round += 1) {
    const id = await paidConsultation(world, asker, doctor)
    // Interleaved so that no kind of move always starts first.
    const moves: Move[] = Array.from(
      { length: 30 },
      (_, i) => (['accept', 'decline', 'cancel'] as const)[(i + round) % 3]!,
    )
    const answers = await Promise.all(
      moves.map(async (move) => {
        const res =
          move === 'cancel'
            ? await world.call(asker, 'POST', `/main/consultations/${id}/cancel`)
            : await world.call(
                doctor,
                'POST',
                `/main/expert/consultations/${id}/${move}`,
                move === 'decline' ? { reason: '超出我的专业范围' } : undefined,
              )
        return { move, status: res.status, error: res.error }
      }),
    )
    const won = answers.filter((answer) => answer.status === 200)
    assert.equal(won.length, 1, JSON.stringify(answers))
    assert.ok(
      answers.every((answer) => answer.status === 200 || answer.status === 409),
      JSON.stringify(answers.filter((answer) => answer.status !== 200 && answer.status !== 409)),
    )
    const winner = won[0]!.move
    winners.push(winner)
    await world.drainJobs()

    const row = await world.app.db
      .selectFrom('consultations')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    assert.equal(row.state, OUTCOME[winner])
    // One state change after payment, in the history and in the conversation.
    const events = await world.app.db
      .selectFrom('consultation_events')
      .select('state')
      .where('consultation_id', '=', id)
      .where('state', 'in', ['in-progress', 'declined', 'cancelled'])
      .execute()
    assert.deepEqual(
      events.map((event) => event.state),
      [OUTCOME[winner]],
    )
    const refunds = await world.app.db
      .selectFrom('consultation_refunds')
      .selectAll()
      .where('consultation_id', '=', id)
      .execute()
    if (winner === 'accept') {
      assert.equal(refunds.length, 0)
    } else {
      assert.equal(refunds.length, 1, 'exactly one refund')
      assert.equal(refunds[0]!.state, 'succeeded')
      assert.equal(Number(refunds[0]!.amount_fen), Number(row.price_fen))
      const transfers = await world.app.db
        .selectFrom('ledger_transfers')
        .select('kind')
        .where('consultation_id', '=', id)
        .orderBy('kind')
        .execute()
      assert.deepEqual(
        transfers.map((transfer) => transfer.kind),
        ['payment', 'refund', 'refund-hold'],
      )
    }
    await world.assertLedger()
  }
  // Which move wins is the scheduler's business; the test only needs the invariants for each.
  assert.equal(winners.length, 4)
})

test('20 parallel submissions to an expert with a daily limit of 3: 3 created, 17 × 409 专家今日已满; a cancelled unpaid order gives its slot back', async () => {
  const world = await consultWorld()
  const doctor = await expert(world, { dailyLimit: 3 })
  const askers: TestUser[] = []
  const digits = '零一二三四五六七八九'
  for (let i = 0; i < 20; i += 1)
    askers.push(await patient(world, `患者${digits[Math.floor(i / 10)]}${digits[i % 10]}`))
  const applications: Awaited<ReturnType<typeof application>>['input'][] = []
  for (const asker of askers) applications.push((await application(world, asker, doctor)).input)

  const answers = await Promise.all(
    askers.map((asker, i) => world.call(asker, 'POST', '/main/consultations', applications[i])),
  )
  const created = answers.flatMap((res, i) => (res.status === 200 ? [i] : []))
  assert.equal(created.length, 3, JSON.stringify(answers.map((res) => res.status)))
  const refused = answers.filter((res) => res.status !== 200)
  assert.equal(refused.length, 17)
  for (const res of refused) {
    assert.equal(res.status, 409)
    assert.equal(res.error, CONSULT_MESSAGES.expertFull)
  }
  const rows = await world.app.db
    .selectFrom('consultations')
    .select(['id', 'patient_user_id'])
    .where('expert_user_id', '=', doctor.user.id)
    .execute()
  assert.equal(rows.length, 3, 'nothing half-created for the refused ones')
  // Nothing left behind by the refused: no grant, no timer.
  const timers = await world.app.db
    .selectFrom('ingest_jobs')
    .select('subject_id')
    .where('kind', '=', 'consult-timer')
    .execute()
  assert.deepEqual(timers.map((timer) => timer.subject_id).sort(), rows.map((row) => row.id).sort())

  const first = created[0]!
  const cancelled = await world.call(
    askers[first]!,
    'POST',
    `/main/consultations/${answers[first]!.data.id as string}/cancel`,
  )
  assert.equal(cancelled.status, 200, cancelled.error ?? '')
  assert.equal(cancelled.data.state, 'cancelled')

  // One slot came back: of two more submissions at once, one gets it.
  const late = answers.flatMap((res, i) => (res.status === 200 ? [] : [i])).slice(0, 2)
  const again = await Promise.all(
    late.map((i) => world.call(askers[i]!, 'POST', '/main/consultations', applications[i])),
  )
  assert.deepEqual(again.map((res) => res.status).sort(), [200, 409])
  await world.assertLedger()
})

test('20 parallel follow-ups after the answer, the expert allows 1: one sent, 19 × 409 追问次数已用完, no gap in the seq', async () => {
  const world = await consultWorld()
  const asker = await patient(world)
  const doctor = await expert(world, { followupLimit: 1 })
  for (let round = 0; round < 3; round += 1) {
    const id = await answeredConsultation(world, asker, doctor)
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        world.call(asker, 'POST', `/main/consultations/${id}/messages`, {
          clientId: `burst-${round}-${String(i).padStart(2, '0')}`,
          text: `追问 ${i}：需要空腹吗？`,
        }),
      ),
    )
    const sent = answers.filter((res) => res.status === 200)
    assert.equal(sent.length, 1, JSON.stringify(answers.map((res) => [res.status, res.error])))
    const refused = answers.filter((res) => res.status !== 200)
    for (const res of refused) {
      assert.equal(res.status, 409)
      assert.equal(res.error, CONSULT_MESSAGES.followupsUsed)
    }

    const row = await world.app.db
      .selectFrom('consultations')
      .select(['followups_used', 'message_seq', 'patient_read_seq'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    assert.equal(Number(row.followups_used), 1)
    const messages = await world.app.db
      .selectFrom('consultation_messages')
      .select(['seq', 'sender', 'kind', 'client_id'])
      .where('consultation_id', '=', id)
      .orderBy('seq')
      .execute()
    // 1..n with nothing skipped or doubled; the counter stands at the last one.
    assert.deepEqual(
      messages.map((message) => Number(message.seq)),
      Array.from({ length: messages.length }, (_, i) => i + 1),
    )
    assert.equal(Number(row.message_seq), messages.length)
    const fromPatient = messages.filter((message) => message.sender === 'patient')
    assert.deepEqual(
      fromPatient.map((message) => message.client_id),
      [sent[0]!.data.clientId],
    )
    assert.equal(Number(row.patient_read_seq), Number(sent[0]!.data.seq))
    assert.equal(messages.at(-1)!.client_id, sent[0]!.data.clientId, 'the follow-up is the last')

    // The detail agrees, and a retry of the accepted one is the same message, not a second.
    const detail = await world.call(asker, 'GET', `/main/consultations/${id}`)
    assert.equal(detail.data.followupsUsed, 1)
    assert.equal(detail.data.actions.send, false)
    const retried = await world.call(asker, 'POST', `/main/consultations/${id}/messages`, {
      clientId: sent[0]!.data.clientId,
      text: 'whatever',
    })
    assert.equal(retried.status, 200, retried.error ?? '')
    assert.equal(retried.data.id, sent[0]!.data.id)
  }
  await world.assertLedger()
})
