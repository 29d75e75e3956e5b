import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  application,
  consultWorld,
  EXPERT_PASSWORD,
  expert,
  patient,
} from '../consultations/support'
import { uploadBox, waitForAnalysis } from '../ai/support'

test('an AI draft reaches the opinion only through the expert who signs it, and the opinion names its provider', async () => {
  const world = await consultWorld({ config: { aiProvider: 'demo' } })
  const asker = await patient(world)
  const doctor = await expert(world, { name: '李放射' })
  const examId = await uploadBox(world, asker)

  // The patient asks for the analysis; it is done, and she still sees only its state.
  const applied = await world.call(asker, 'POST', `/main/exams/${examId}/ai-analysis`)
  assert.equal(applied.status, 200, applied.error ?? '')
  const state = await waitForAnalysis(world, asker, examId)
  assert.equal(state.analysis.state, 'done')
  assert.ok(!JSON.stringify(state).includes('cm³'))

  // An 影像会诊 sharing that CT, accepted.
  const { input } = await application(world, asker, doctor, 'imaging')
  const created = await world.call(asker, 'POST', '/main/consultations', {
    ...input,
    examIds: [examId],
  })
  assert.equal(created.status, 200, created.error ?? '')
  const id = created.data.id as string
  const pay = await world.call(asker, 'POST', `/main/consultations/${id}/pay`, { client: 'h5' })
  await world.call(asker, 'POST', `/main/consultations/${id}/demo-pay`, {
    token: pay.data.demoToken,
  })
  const accepted = await world.call(doctor, 'POST', `/main/expert/consultations/${id}/accept`)
  assert.equal(accepted.status, 200, accepted.error ?? '')

  // The expert's draft: the AI's text for 肺实质, edited, then signed.
  const drafts = await world.call(doctor, 'GET', `/main/expert/consultations/${id}/ai-drafts`)
  assert.equal(drafts.status, 200, drafts.error ?? '')
  const draft = drafts.data[0]
  assert.equal(draft.templateId, 'chest-ct')
  assert.equal(draft.provider.kind, 'demo')
  const values = {
    lungs: `${draft.values.lungs}双肺未见实变。`,
    impression: '肺容积与密度在正常范围。',
    advice: '按体检常规随访。',
  }
  // A draft claimed from an analysis this consultation does not have is refused.
  const claimed = await world.call(
    doctor,
    'PUT',
    `/main/expert/consultations/${id}/opinion/draft`,
    {
      templateId: 'chest-ct',
      values,
      pins: [],
      aiFields: { lungs: 'not-an-analysis' },
    },
  )
  assert.equal(claimed.status, 400)
  assert.match(claimed.error ?? '', /AI 草稿不存在/)
  const signed = await world.call(doctor, 'POST', `/main/expert/consultations/${id}/opinion/sign`, {
    templateId: 'chest-ct',
    values,
    pins: [],
    aiFields: { lungs: draft.analysisId },
    clientId: 'sign-ai-0001',
    password: EXPERT_PASSWORD,
  })
  assert.equal(signed.status, 200, signed.error ?? '')
  assert.equal(signed.data.ai.provider.notice, draft.provider.notice)
  assert.deepEqual(signed.data.ai.fieldIds, ['lungs'])
  const lungs = signed.data.sentences.find((one: { fieldId: string }) => one.fieldId === 'lungs')
  assert.equal(lungs.fromAi, true)
  assert.equal(lungs.text, values.lungs)

  // The patient reads it now: signed, by a named expert, the AI part marked with its provider.
  const read = await world.call(asker, 'GET', `/main/opinions/${signed.data.id}`)
  assert.equal(read.status, 200, read.error ?? '')
  assert.equal(read.data.signer.name, '李放射')
  assert.equal(read.data.ai.provider.kind, 'demo')
})
