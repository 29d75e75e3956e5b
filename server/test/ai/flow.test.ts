import assert from 'node:assert/strict'
import { test } from 'node:test'
import { AI_MESSAGES } from '@contract/main/ai'
import { REASONS } from '@contract/reasons'
import { unconfiguredAiProvider } from '../../src/providers/ai'
import { expert, patient } from '../consultations/support'
import { insertUploadExam } from '../records/patient-support'
import { aiWorld, boxTruth, manage, uploadBox, waitForAnalysis } from './support'

/*
 * 申请AI分析 end to end: the patient asks, a job analyses the CT's pixels, the patient reads a state
 * and a line only, and the consultation's expert reads the draft. Who else asks is refused.
 */

test('the patient asks, reads only a state; the consultation’s expert reads the draft', async () => {
  const { world, asker, doctor, examId, consultationId } = await aiWorld()
  const first = await world.call(asker, 'POST', `/main/exams/${examId}/ai-analysis`, {})
  assert.equal(first.status, 200, first.error ?? '')
  assert.ok(['queued', 'running'].includes(first.data.state))
  assert.equal(first.data.message, AI_MESSAGES.draftOnly)
  assert.equal(first.data.provider.kind, 'demo')
  assert.equal(first.data.provider.notice, '演示算法，非医疗器械')

  // Asking again while it is queued, running or done answers the same request.
  const again = await world.call(asker, 'POST', `/main/exams/${examId}/ai-analysis`, {})
  assert.equal(again.data.id, first.data.id)

  const view = await waitForAnalysis(world, asker, examId)
  assert.equal(view.analysis.state, 'done', view.analysis.message)
  assert.equal(view.analysis.stateLabel, '分析完成，等待专家在会诊中审阅')
  assert.equal(view.analysis.message, AI_MESSAGES.draftOnly)
  assert.equal(view.service.configured, true)
  assert.equal(view.applicable, true)
  const done = await world.call(asker, 'POST', `/main/exams/${examId}/ai-analysis`, {})
  assert.equal(done.data.id, first.data.id)
  assert.equal(done.data.state, 'done')

  const drafts = await world.call(
    doctor,
    'GET',
    `/main/expert/consultations/${consultationId}/ai-drafts`,
  )
  assert.equal(drafts.status, 200, drafts.error ?? '')
  assert.equal(drafts.data.length, 1)
  const draft = drafts.data[0]
  assert.equal(draft.analysisId, first.data.id)
  assert.equal(draft.examId, examId)
  assert.equal(draft.templateId, 'chest-ct')
  assert.equal(draft.provider.id, 'demo-lung-threshold')
  assert.deepEqual(Object.keys(draft.values), ['lungs'])
  // Through DICOM, ingest and the store, the same numbers as the phantom's definition.
  const truth = boxTruth()
  const value = (label: string) =>
    draft.computed.find((c: { label: string }) => c.label.startsWith(label))
  assert.equal(value('双肺体积').value, truth.volumeCm3.toFixed(1))
  assert.equal(value('双肺体积').unit, 'cm³')
  assert.equal(value('平均肺密度').value, truth.meanHu.toFixed(1))
  assert.equal(value('低于').value, truth.laaPercent.toFixed(2))
  assert.match(draft.values.lungs, /演示算法，非医疗器械/)

  // The patient's answers never carry it.
  for (const body of [first, again, done, { data: view }]) {
    const text = JSON.stringify(body.data)
    assert.ok(!text.includes(draft.values.lungs))
    assert.ok(!text.includes(value('双肺体积').value))
  }
})

test('another patient, another expert, the patient and a revoked grant are refused', async () => {
  const { world, asker, doctor, examId, consultationId, grantId } = await aiWorld()
  await world.call(asker, 'POST', `/main/exams/${examId}/ai-analysis`, {})
  await waitForAnalysis(world, asker, examId)
  const stranger = await patient(world, '赵路人')
  const otherDoctor = await expert(world, { name: '周专家' })
  const drafts = `/main/expert/consultations/${consultationId}/ai-drafts`

  for (const caller of [stranger, otherDoctor, doctor]) {
    // Only the exam's person (or their manager) asks or reads the state: the expert, who sees the
    // exam through the grant, is not them.
    const get = await world.call(caller, 'GET', `/main/exams/${examId}/ai-analysis`)
    const post = await world.call(caller, 'POST', `/main/exams/${examId}/ai-analysis`, {})
    assert.equal(get.status, 404)
    assert.equal(post.status, 404)
  }
  assert.equal((await world.call(otherDoctor, 'GET', drafts)).status, 404)
  const missing = '/main/expert/consultations/00000000-0000-4000-8000-000000000000/ai-drafts'
  assert.equal((await world.call(otherDoctor, 'GET', missing)).status, 404)
  assert.equal((await world.call(asker, 'GET', drafts)).status, 403)
  assert.equal((await world.call(stranger, 'GET', drafts)).status, 403)
  assert.equal((await world.call(null, 'GET', drafts)).status, 401)

  // The patient revokes the consultation's grant in 授权记录: the drafts end with it.
  const revoke = await world.call(asker, 'DELETE', `/main/grants/${grantId}`)
  assert.equal(revoke.status, 200, revoke.error ?? '')
  const ended = await world.app.inject({
    method: 'GET',
    url: drafts,
    headers: { authorization: `Bearer ${doctor.token}` },
  })
  assert.equal(ended.statusCode, 403)
  assert.equal((ended.json() as { reason: string }).reason, REASONS.grantEnded)
})

test('the family manager asks for a member’s exam; the same request either way', async () => {
  const { world, asker, examId } = await aiWorld()
  const manager = await manage(world, asker)
  const byManager = await world.call(manager, 'POST', `/main/exams/${examId}/ai-analysis`, {})
  assert.equal(byManager.status, 200, byManager.error ?? '')
  const byMember = await world.call(asker, 'POST', `/main/exams/${examId}/ai-analysis`, {})
  assert.equal(byMember.data.id, byManager.data.id)
  const rowCount = await world.app.db.selectFrom('ai_analyses').select('id').execute()
  assert.equal(rowCount.length, 1)
  const row = await world.app.db
    .selectFrom('ai_analyses')
    .select(['person_user_id', 'requested_by_user_id'])
    .where('id', '=', byManager.data.id)
    .executeTakeFirstOrThrow()
  assert.deepEqual(row, { person_user_id: asker.user.id, requested_by_user_id: manager.user.id })
})

test('not a CT, and no provider configured: said calmly, nothing queued', async () => {
  const { world, asker } = await aiWorld()
  const mr = await insertUploadExam(world.app.db, asker.user.id)
  const view = await world.call(asker, 'GET', `/main/exams/${mr.id}/ai-analysis`)
  assert.deepEqual([view.data.applicable, view.data.notApplicable], [false, AI_MESSAGES.notCt])
  const refused = await world.call(asker, 'POST', `/main/exams/${mr.id}/ai-analysis`, {})
  assert.deepEqual([refused.status, refused.error], [400, AI_MESSAGES.notCt])

  const ct = await uploadBox(world, asker)
  world.app.providers.ai = unconfiguredAiProvider
  const unconfigured = await world.call(asker, 'GET', `/main/exams/${ct}/ai-analysis`)
  assert.equal(unconfigured.status, 200)
  assert.deepEqual(unconfigured.data.service, {
    configured: false,
    provider: null,
    message: '未配置AI分析服务',
  })
  assert.equal(unconfigured.data.applicable, false)
  const apply = await world.call(asker, 'POST', `/main/exams/${ct}/ai-analysis`, {})
  assert.deepEqual([apply.status, apply.error], [400, '未配置AI分析服务'])
  const rows = await world.app.db.selectFrom('ai_analyses').select('id').execute()
  assert.equal(rows.length, 0)
})

test('the demo algorithm is named as itself (演示算法，非医疗器械), never as a hospital’s service', async () => {
  const { world, asker, examId } = await aiWorld()
  const answer = await world.call(asker, 'GET', `/main/exams/${examId}/ai-analysis`)
  assert.equal(answer.status, 200, answer.error ?? '')
  assert.deepEqual(answer.data.service.provider, {
    id: 'demo-lung-threshold',
    name: '演示算法：肺体积与肺密度（阈值法）',
    kind: 'demo',
    notice: '演示算法，非医疗器械',
  })
  const hospitals = await world.call(null, 'GET', '/image/hospitals/ai')
  assert.equal(hospitals.status, 200, hospitals.error ?? '')
  for (const hospital of hospitals.data) assert.ok(!hospital.name.includes('演示算法'))
})

test('asked several times at once: one request', async () => {
  const { world, asker, examId } = await aiWorld()
  const answers = await Promise.all(
    Array.from({ length: 4 }, () =>
      world.call(asker, 'POST', `/main/exams/${examId}/ai-analysis`, {}),
    ),
  )
  for (const answer of answers) assert.equal(answer.status, 200, answer.error ?? '')
  assert.equal(new Set(answers.map((a) => a.data.id)).size, 1)
  const jobs = await world.app.db
    .selectFrom('ai_analyses')
    .select('job_id')
    .where('exam_id', '=', examId)
    .execute()
  assert.equal(jobs.length, 1)
})
