import assert from 'node:assert/strict'
import { test } from 'node:test'
import { consultWorld, expert, paidConsultation, patient } from './support'

/*
 * Every consultation operation (the contract's, plus pictures), asked about one consultation by
 * another patient, another expert and no one: 404 for the first two (exactly as for an id that does
 * not exist, so an answer never confirms it exists), 401 without a token; the expert-only calls are
 * 403 to a patient before the input is read. Nothing they tried changed it.
 */

test('another patient, another expert and no one reach nothing of a consultation', async () => {
  const world = await consultWorld()
  const asker = await patient(world)
  const doctor = await expert(world)
  const id = await paidConsultation(world, asker, doctor)
  const stranger = await patient(world, '赵路人')
  const otherDoctor = await expert(world, { name: '周专家' })
  const missing = '00000000-0000-4000-8000-000000000000'

  const patientOps = (cid: string) =>
    [
      ['GET', `/main/consultations/${cid}`, undefined],
      ['POST', `/main/consultations/${cid}/pay`, { client: 'h5' }],
      ['POST', `/main/consultations/${cid}/demo-pay`, { token: 'x' }],
      ['POST', `/main/consultations/${cid}/sync-payment`, {}],
      ['POST', `/main/consultations/${cid}/cancel`, {}],
      ['GET', `/main/consultations/${cid}/messages?after=0`, undefined],
      ['POST', `/main/consultations/${cid}/messages`, { clientId: 'stranger-01', text: '你好' }],
      ['POST', `/main/consultations/${cid}/read`, { seq: 1 }],
      ['POST', `/main/consultations/${cid}/adopt`, {}],
      ['POST', `/main/consultations/${cid}/rating`, { stars: 1, tags: [], text: '' }],
      ['POST', `/main/consultations/${cid}/complaint`, { text: '投诉内容' }],
      ['POST', `/main/consultations/${cid}/public`, { public: true }],
      ['DELETE', `/main/consultations/${cid}`, undefined],
    ] as const
  const expertOps = (cid: string) =>
    [
      ['POST', `/main/expert/consultations/${cid}/accept`, {}],
      ['POST', `/main/expert/consultations/${cid}/decline`, { reason: '不接诊原因' }],
      [
        'POST',
        `/main/expert/consultations/${cid}/answer`,
        { clientId: 'answer-x1', opinion: '意见内容', password: 'Expert2030' },
      ],
    ] as const

  for (const [index, [method, url, body]] of [...patientOps(id), ...expertOps(id)].entries()) {
    const [, missingUrl] = [...patientOps(missing), ...expertOps(missing)][index]!
    for (const caller of [stranger, otherDoctor]) {
      const answer = await world.call(caller, method, url, body)
      const absent = await world.call(caller, method, missingUrl, body)
      const expertOnly = url.startsWith('/main/expert/')
      const expected = expertOnly && caller === stranger ? 403 : 404
      assert.equal(
        answer.status,
        expected,
        `${method} ${url} by another ${caller === stranger ? 'patient' : 'expert'}`,
      )
      assert.equal(answer.status, absent.status, `${method} ${url}: differs from a missing one`)
      assert.equal(
        answer.error,
        absent.error,
        `${method} ${url}: message differs from a missing one`,
      )
      assert.ok(!JSON.stringify(answer.data ?? '').includes('咳嗽'), 'no content leaks')
    }
    assert.equal(
      (await world.call(null, method, url, body)).status,
      401,
      `${method} ${url} without a token`,
    )
  }
  // The patient reaches none of the expert's operations; the expert none of the patient's own.
  assert.equal(
    (await world.call(asker, 'POST', `/main/expert/consultations/${id}/accept`, {})).status,
    403,
  )
  assert.equal(
    (await world.call(doctor, 'POST', `/main/consultations/${id}/cancel`, {})).status,
    404,
  )
  assert.equal(
    (await world.call(doctor, 'POST', `/main/consultations/${id}/adopt`, {})).status,
    404,
  )
  // Operators' calls: 403 to a patient and an expert.
  for (const caller of [asker, doctor]) {
    assert.equal((await world.call(caller, 'GET', '/main/operator/consultations')).status, 403)
    assert.equal(
      (
        await world.call(caller, 'POST', `/main/operator/consultations/${id}/complaint`, {
          refundFen: 3000,
          note: '全额退款',
        })
      ).status,
      403,
    )
    assert.equal(
      (await world.call(caller, 'POST', '/main/operator/money', { platformShareBp: 0 })).status,
      403,
    )
  }

  const after = await world.call(asker, 'GET', `/main/consultations/${id}`)
  assert.equal(after.data.state, 'waiting-accept', 'nothing they tried changed it')
  const messages = await world.call(asker, 'GET', `/main/consultations/${id}/messages?after=0`)
  assert.ok(messages.data.items.every((item: { text: string }) => item.text !== '你好'))
  await world.assertLedger()
})
