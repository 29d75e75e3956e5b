import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { test } from 'node:test'
import { type KeptAfterDeletion, keptLine } from '@contract/main/retention'
import { buildIdentityApp, registerUser } from '../domain/identity/support'
import { insertConsultation, insertMessage, insertWithdrawal } from './support'

/*
 * GET /main/account/retention: what deleting the caller's account would leave, and until when, from
 * the caller's own records only.
 */

const YEAR_3 = (iso: string) => iso.replace(/^(\d{4})/, (y) => String(Number(y) + 3))
const YEAR_15 = (iso: string) => iso.replace(/^(\d{4})/, (y) => String(Number(y) + 15))
const YEAR_10 = (iso: string) => iso.replace(/^(\d{4})/, (y) => String(Number(y) + 10))

test('what deletion leaves: the security log and the anonymised row for anyone; consultations, signed answers and money by role', async () => {
  const ctx = await buildIdentityApp()
  const { app, clock } = ctx
  const patient = await registerUser(ctx)
  const stranger = await registerUser(ctx)
  const expert = await registerUser(ctx)
  const ask = async (access?: string) => {
    const res = await app.inject({
      method: 'GET',
      url: '/main/account/retention',
      headers: access ? { authorization: `Bearer ${access}` } : {},
    })
    return res
  }
  assert.equal((await ask()).statusCode, 401)

  const now = clock.now()
  const nobody = await ask(stranger.access)
  assert.equal(nobody.statusCode, 200, nobody.body)
  assert.deepEqual(nobody.json().data.keptAfterDeletion, [
    {
      rule: 'security-events',
      role: null,
      count: 0,
      until: now.toISOString().replace(/^(\d{4})/, (y) => String(Number(y) + 1)),
    },
    { rule: 'deleted-accounts', role: null, count: 0, until: null },
  ])

  // Two ended consultations with talk in them (one paid, with a signed answer), one still open.
  const first = '2027-05-03T02:00:00.000Z'
  const second = '2029-05-02T20:00:00.000Z'
  const signed = '2029-05-01T09:30:00.000Z'
  const a = await insertConsultation(app.db, {
    id: randomUUID(),
    patient: patient.userId,
    expert: expert.userId,
    endedAt: first,
  })
  const b = await insertConsultation(app.db, {
    id: randomUUID(),
    patient: patient.userId,
    expert: expert.userId,
    endedAt: second,
    paidAt: '2029-04-30T00:00:00.000Z',
  })
  const open = await insertConsultation(app.db, {
    id: randomUUID(),
    patient: patient.userId,
    expert: expert.userId,
    endedAt: null,
  })
  await insertMessage(app.db, a, first)
  await insertMessage(app.db, b, second)
  await insertMessage(app.db, b, signed, signed)
  await insertMessage(app.db, open, second)
  await insertWithdrawal(app.db, expert.userId, '2029-06-30T16:30:00.000Z')

  const mine = await ask(patient.access)
  assert.equal(mine.statusCode, 200, mine.body)
  const items = mine.json().data.keptAfterDeletion as KeptAfterDeletion[]
  assert.deepEqual(
    items.map((item) => [item.rule, item.role, item.count, item.until]),
    [
      [
        'security-events',
        null,
        0,
        now.toISOString().replace(/^(\d{4})/, (y) => String(Number(y) + 1)),
      ],
      ['consultation-conversations', 'patient', 2, YEAR_3(second)],
      ['signed-opinions', 'patient', 1, YEAR_15(signed)],
      ['consultation-applications', 'patient', 2, YEAR_15(second)],
      ['ledger', 'patient', 1, null],
      ['deleted-accounts', null, 0, null],
    ],
  )
  // As the page says it: the day in China (2032-05-02 20:00 UTC is the 3rd there).
  assert.equal(
    keptLine(items[1]!),
    '您作为患者的 2 次会诊的对话与图片将最晚保留至 2032-05-03（会诊结束后 3 年），之后删除',
  )
  assert.equal(
    keptLine(items[2]!),
    '您作为患者的会诊中 1 份已签署的回复或报告将保留至 2044-05-01（签署后 15 年），之后删除',
  )

  // The expert of the same consultations sees them from the other side, and their withdrawal.
  const theirs = (await ask(expert.access)).json().data.keptAfterDeletion as KeptAfterDeletion[]
  assert.deepEqual(
    theirs.map((item) => [item.rule, item.role, item.count, item.until]),
    [
      [
        'security-events',
        null,
        0,
        now.toISOString().replace(/^(\d{4})/, (y) => String(Number(y) + 1)),
      ],
      ['consultation-conversations', 'expert', 2, YEAR_3(second)],
      ['signed-opinions', 'expert', 1, YEAR_15(signed)],
      ['ledger', 'expert', 1, null],
      ['withdrawal-payees', null, 1, YEAR_10('2029-06-30T16:30:00.000Z')],
      ['deleted-accounts', null, 0, null],
    ],
  )

  // Someone else's consultations never show in another account's answer.
  assert.deepEqual(
    ((await ask(stranger.access)).json().data.keptAfterDeletion as KeptAfterDeletion[]).map(
      (item) => item.rule,
    ),
    ['security-events', 'deleted-accounts'],
  )
})
