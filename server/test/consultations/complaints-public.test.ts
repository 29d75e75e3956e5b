import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { test } from 'node:test'
import { signUp } from '../domain/profile/support'
import { answeredConsultation, consultWorld, expert, patient } from './support'

const HOUR = 3600_000

test('a 投诉 freezes the money; the operator settles it half and half, once, audited', async () => {
  const world = await consultWorld()
  const asker = await patient(world)
  const doctor = await expert(world)
  const operator = await signUp(world.app.db, world.clock.now(), { role: 'operator' })
  const id = await answeredConsultation(world, asker, doctor)
  const complained = await world.call(asker, 'POST', `/main/consultations/${id}/complaint`, {
    text: '回答太简单，没有看片子',
  })
  assert.equal(complained.status, 200, complained.error ?? '')
  assert.equal(complained.data.complaint.state, 'open')
  assert.equal(complained.data.actions.adopt, false, 'frozen: no 采纳 while it waits')
  assert.equal(
    (await world.call(asker, 'POST', `/main/consultations/${id}/complaint`, { text: '再投诉一次' }))
      .status,
    409,
  )

  // The auto-complete timer does nothing while the complaint waits.
  await world.advance(80 * HOUR, asker, doctor, operator)
  await world.drainJobs()
  assert.equal((await world.call(asker, 'GET', `/main/consultations/${id}`)).data.state, 'answered')

  const listed = await world.call(operator, 'GET', '/main/operator/consultations?disputed=1')
  assert.equal(listed.status, 200, listed.error ?? '')
  assert.deepEqual(
    listed.data.items.map((item: { id: string }) => item.id),
    [id],
  )
  assert.equal(
    (
      await world.call(operator, 'POST', `/main/operator/consultations/${id}/complaint`, {
        refundFen: 3001,
        note: '超额',
      })
    ).status,
    400,
  )
  const decisions = await Promise.all(
    Array.from({ length: 6 }, () =>
      world.call(operator, 'POST', `/main/operator/consultations/${id}/complaint`, {
        refundFen: 1500,
        note: '回答不够详细，退还一半',
      }),
    ),
  )
  assert.deepEqual(decisions.map((d) => d.status).sort(), [200, 409, 409, 409, 409, 409])
  await world.drainJobs()
  const detail = await world.call(asker, 'GET', `/main/consultations/${id}`)
  assert.equal(detail.data.state, 'completed')
  assert.equal(detail.data.order.refundedFen, 1500)
  assert.equal(detail.data.order.refunds[0].state, 'succeeded')
  const balances = Object.fromEntries(
    (await world.app.db.selectFrom('ledger_accounts').select(['id', 'balance']).execute()).map(
      (row) => [row.id.split(':')[0], Number(row.balance)],
    ),
  )
  assert.equal(balances['expert-pending'], 1200, 'the rest, minus the 20% share')
  assert.equal(balances['platform-revenue'], 300)
  const audit = await world.app.db
    .selectFrom('operator_actions')
    .selectAll()
    .where('action', '=', 'consult-complaint')
    .execute()
  assert.equal(audit.length, 1)
  await world.assertLedger()
})

test('公开到专家主页: an anonymised copy others can 收藏; withdrawn or deleted, it is gone; the profile figures move', async () => {
  const world = await consultWorld()
  const asker = await patient(world)
  const doctor = await expert(world)
  const reader = await patient(world, '钱读者')
  const before = await world.call(reader, 'GET', `/main/experts/${doctor.user.id}`)
  assert.equal(before.data.stats, null, '暂无咨询数据 before any answer')
  const id = await answeredConsultation(world, asker, doctor)
  assert.equal(
    (await world.call(asker, 'POST', `/main/consultations/${id}/public`, { public: true })).status,
    409,
    'only once completed',
  )
  await world.call(asker, 'POST', `/main/consultations/${id}/adopt`)
  await world.call(asker, 'POST', `/main/consultations/${id}/rating`, {
    stars: 4,
    tags: ['回复及时'],
    text: '',
  })
  const published = await world.call(asker, 'POST', `/main/consultations/${id}/public`, {
    public: true,
  })
  assert.equal(published.status, 200, published.error ?? '')

  const list = await world.call(null, 'GET', `/main/questions?expertId=${doctor.user.id}`)
  assert.equal(list.data.items.length, 1)
  const copy = list.data.items[0]
  assert.match(copy.askerLabel, /^患者 (男|女) \d+岁$/)
  assert.ok(copy.answer.includes('建议定期复查'))
  assert.ok(!JSON.stringify(copy).includes('王患者'), 'no name')
  assert.ok(!JSON.stringify(copy).includes('胸部 CT'), 'no records')

  assert.equal(
    (await world.call(reader, 'POST', '/main/favourites', { kind: 'question', targetId: id }))
      .status,
    200,
  )
  const favs = await world.call(reader, 'GET', '/main/favourites?kind=question')
  assert.equal(favs.data.items.length, 1)

  const profile = await world.call(reader, 'GET', `/main/experts/${doctor.user.id}`)
  assert.equal(profile.data.stats.answered, 1)
  assert.equal(profile.data.stats.adoptionRate, 1)
  assert.equal(profile.data.stats.rating, 4)

  await world.call(asker, 'DELETE', `/main/consultations/${id}`)
  assert.equal(
    (await world.call(null, 'GET', `/main/questions?expertId=${doctor.user.id}`)).data.items.length,
    0,
  )
  assert.equal(
    (await world.call(reader, 'GET', '/main/favourites?kind=question')).data.items.length,
    0,
  )
  assert.equal(
    (await world.call(asker, 'GET', `/main/consultations/${id}`)).status,
    404,
    'gone from the asker’s list',
  )
  assert.equal(
    (await world.call(doctor, 'GET', `/main/consultations/${id}`)).status,
    200,
    'kept for the expert as the rules ask',
  )
  await world.assertLedger()
})

test('the operator’s decision answers the decided consultation itself, as the list shows it, however many newer ones stand before it', async () => {
  const world = await consultWorld()
  const asker = await patient(world)
  const doctor = await expert(world)
  const operator = await signUp(world.app.db, world.clock.now(), { role: 'operator' })
  const id = await answeredConsultation(world, asker, doctor)
  const complained = await world.call(asker, 'POST', `/main/consultations/${id}/complaint`, {
    text: '回答太简单',
  })
  assert.equal(complained.status, 200, complained.error ?? '')
  // 60 newer unpaid orders: the decided one is not on the list's first page (50) any more.
  const row = await world.app.db
    .selectFrom('consultations')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  for (let i = 0; i < 60; i += 1) {
    await world.app.db
      .insertInto('consultations')
      .values({
        ...row,
        id: randomUUID(),
        state: 'pending-payment',
        order_no: `CTEST${String(i).padStart(4, '0')}${id.slice(0, 8)}`,
        transaction_id: null,
        paid_at: null,
        created_at: new Date(world.clock.now().getTime() + (i + 1) * 1000).toISOString(),
      })
      .execute()
  }
  const decided = await world.call(
    operator,
    'POST',
    `/main/operator/consultations/${id}/complaint`,
    {
      refundFen: 1000,
      note: '部分退款',
    },
  )
  assert.equal(decided.status, 200, decided.error ?? '')
  assert.equal(decided.data.id, id)
  assert.equal(decided.data.state, 'completed')
  assert.equal(decided.data.complaint.state, 'decided')
  assert.equal(decided.data.paidFen, 3000)
  assert.equal(decided.data.refundedFen, 1000)
  // The same as the operators' list shows that row.
  const listed = await world.call(operator, 'GET', '/main/operator/consultations?state=completed')
  assert.equal(listed.status, 200, listed.error ?? '')
  assert.deepEqual(
    listed.data.items.find((item: { id: string }) => item.id === id),
    decided.data,
  )
  // A second decision: 409, as before.
  const again = await world.call(operator, 'POST', `/main/operator/consultations/${id}/complaint`, {
    refundFen: 0,
    note: '再处理一次',
  })
  assert.equal(again.status, 409)
  await world.drainJobs()
  await world.assertLedger()
})
