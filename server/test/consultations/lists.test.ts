import assert from 'node:assert/strict'
import { test } from 'node:test'
import { application, consultWorld, expert, paidConsultation, patient } from './support'

/*
 * 我的咨询 and 患者咨询 read a page of cards and the tabs' counts in one query (queries.ts
 * cardsWithCounts); an empty page takes the counts from a query of their own. Both must agree with
 * what is there, whichever tab is asked for.
 */
test('the lists: every tab counted the same from a full page and from an empty one; cards show expert and person', async () => {
  const world = await consultWorld()
  const asker = await patient(world, '王小明')
  const doctor = await expert(world, { name: '李专家' })

  const waiting = await paidConsultation(world, asker, doctor)
  const active = await paidConsultation(world, asker, doctor)
  assert.equal(
    (await world.call(doctor, 'POST', `/main/expert/consultations/${active}/accept`)).status,
    200,
  )
  const { input } = await application(world, asker, doctor)
  const unpaid = await world.call(asker, 'POST', '/main/consultations', input)
  assert.equal(unpaid.status, 200, unpaid.error ?? '')

  const mine = { unpaid: 1, waiting: 1, active: 1, done: 0, closed: 0 }
  for (const tab of ['unpaid', 'waiting', 'active', 'done', 'closed'] as const) {
    const list = await world.call(asker, 'GET', `/main/consultations?tab=${tab}`)
    assert.equal(list.status, 200, list.error ?? '')
    assert.deepEqual(list.data.counts, mine, `patient's counts on tab ${tab}`)
    assert.equal(list.data.total, mine[tab])
    assert.equal(list.data.items.length, mine[tab])
  }
  const [card] = (await world.call(asker, 'GET', '/main/consultations?tab=waiting')).data.items
  assert.equal(card.id, waiting)
  assert.equal(card.expert.name, '李专家')
  assert.equal(card.person.relationLabel, '本人')
  assert.equal(card.person.nameMasked, '王**')
  assert.equal(card.disputed, false)
  assert.equal(card.deadlineLabel, '接诊剩余')

  // The expert's tabs: the unpaid order is not theirs to see.
  const theirs = await world.call(doctor, 'GET', '/main/expert/consultations?tab=done')
  assert.equal(theirs.status, 200, theirs.error ?? '')
  assert.equal(theirs.data.items.length, 0)
  const full = await world.call(doctor, 'GET', '/main/expert/consultations?tab=active')
  assert.deepEqual(theirs.data.counts, full.data.counts)
  assert.equal(full.data.counts.waiting, 1)
  assert.equal(full.data.counts.active, 1)
  assert.deepEqual(
    full.data.items.map((item: { id: string }) => item.id),
    [active],
  )
  assert.equal(full.data.items[0].person.nameMasked, '王**')

  // Paging: the count stays the tab's, the page holds what fits.
  const paged = await world.call(asker, 'GET', '/main/consultations?tab=waiting&page=2&pageSize=1')
  assert.equal(paged.data.items.length, 0)
  assert.equal(paged.data.total, 1)
  assert.deepEqual(paged.data.counts, mine)
})
