import assert from 'node:assert/strict'
import { test } from 'node:test'
import { EXAM_REQUEST_NOTICE } from '@contract/main/exam-requests'
import {
  answeredConsultation,
  consultWorld,
  type ConsultWorld,
  expert,
  paidConsultation,
  patient,
} from '../consultations/support'
import type { TestUser } from '../domain/profile/support'

const FORM = {
  examType: 'ct-contrast',
  bodyPart: '胸部',
  contrast: 'hospital',
  urgency: 'soon',
  reason: '右肺上叶磨玻璃结节，需增强扫描了解血供。',
}

async function inProgress(world: ConsultWorld, asker: TestUser, doctor: TestUser) {
  const id = await paidConsultation(world, asker, doctor)
  const accepted = await world.call(doctor, 'POST', `/main/expert/consultations/${id}/accept`)
  assert.equal(accepted.status, 200, accepted.error ?? '')
  return id
}

/** The realtime pointers published while `work` runs. */
async function signalsOf(world: ConsultWorld, work: () => Promise<unknown>) {
  const seen: Array<{ userIds: string[]; event: { kind: string } }> = []
  const realtime = world.app.realtime
  const publish = realtime.publish.bind(realtime)
  realtime.publish = async (userIds, event) => {
    seen.push({ userIds: [...userIds], event })
    return publish(userIds, event)
  }
  try {
    await work()
  } finally {
    realtime.publish = publish
  }
  return seen
}

test('the expert suggests an exam; it reaches the conversation live and the patient reads its form', async () => {
  const world = await consultWorld()
  const asker = await patient(world, '王小明')
  const doctor = await expert(world, { name: '李放射' })
  const id = await inProgress(world, asker, doctor)
  const url = `/main/expert/consultations/${id}/exam-requests`

  let created: Awaited<ReturnType<ConsultWorld['call']>> | undefined
  const signals = await signalsOf(world, async () => {
    created = await world.call(doctor, 'POST', url, { ...FORM, clientId: 'exam-0001' })
  })
  assert.equal(created!.status, 200, created!.error ?? '')
  const request = created!.data
  assert.match(request.number, /^JC\d{14}$/)
  assert.equal(request.examTypeLabel, '增强 CT')
  assert.equal(request.contrastLabel, '由医院决定')
  assert.equal(request.urgencyLabel, '尽快（1 周内）')
  assert.equal(request.reason, FORM.reason)
  assert.equal(request.patient.nameMasked, '王**')
  assert.equal(request.patient.sexLabel, '男')
  assert.equal(request.expert.name, '李放射')
  assert.equal(request.notice, EXAM_REQUEST_NOTICE)
  assert.equal(request.role, 'expert')
  assert.ok(
    signals.some(
      (one) =>
        one.event.kind === 'consultation.message' &&
        one.userIds.includes(asker.user.id) &&
        one.userIds.includes(doctor.user.id),
    ),
    JSON.stringify(signals),
  )

  // A retry with the same clientId is the same request and one message.
  const retry = await world.call(doctor, 'POST', url, { ...FORM, clientId: 'exam-0001' })
  assert.equal(retry.status, 200, retry.error ?? '')
  assert.equal(retry.data.id, request.id)
  assert.equal(retry.data.number, request.number)

  // A clientId already used by another kind of message writes nothing.
  const text = await world.call(doctor, 'POST', `/main/consultations/${id}/messages`, {
    clientId: 'text-00001',
    text: '请先做增强 CT',
  })
  assert.equal(text.status, 200, text.error ?? '')
  const clash = await world.call(doctor, 'POST', url, { ...FORM, clientId: 'text-00001' })
  assert.equal(clash.status, 400)
  assert.equal(clash.error, '发送失败，请返回对话后重新开检查建议')

  // The conversation carries it as a card, for both sides.
  for (const reader of [asker, doctor]) {
    const messages = await world.call(reader, 'GET', `/main/consultations/${id}/messages`)
    assert.equal(messages.status, 200, messages.error ?? '')
    const cards = messages.data.items.filter((one: { kind: string }) => one.kind === 'exam-request')
    assert.equal(cards.length, 1)
    assert.deepEqual(cards[0].examRequest, {
      id: request.id,
      examTypeLabel: '增强 CT',
      bodyPart: '胸部',
      urgency: 'soon',
      urgencyLabel: '尽快（1 周内）',
    })
    assert.equal(cards[0].from, 'expert')
  }

  // Read: the patient and the expert; nobody else (404, the id reveals nothing).
  const read = await world.call(asker, 'GET', `/main/exam-requests/${request.id}`)
  assert.equal(read.status, 200, read.error ?? '')
  assert.equal(read.data.role, 'patient')
  assert.equal(read.data.number, request.number)
  assert.equal((await world.call(doctor, 'GET', `/main/exam-requests/${request.id}`)).status, 200)
  const stranger = await patient(world, '赵路人')
  const otherExpert = await expert(world, { name: '周专家' })
  for (const outsider of [stranger, otherExpert]) {
    const refused = await world.call(outsider, 'GET', `/main/exam-requests/${request.id}`)
    assert.equal(refused.status, 404)
    assert.equal(refused.error, '检查申请单不存在或您无权查看')
  }
  assert.equal((await world.call(null, 'GET', `/main/exam-requests/${request.id}`)).status, 401)
  assert.equal((await world.call(asker, 'GET', '/main/exam-requests/nothing')).status, 404)

  // Only the consultation's own expert writes one; a patient is not an expert at all.
  const foreign = await world.call(otherExpert, 'POST', url, { ...FORM, clientId: 'exam-0002' })
  assert.equal(foreign.status, 404)
  assert.equal(
    (await world.call(asker, 'POST', url, { ...FORM, clientId: 'exam-0003' })).status,
    403,
  )
})

test('the form is checked in its own words', async () => {
  const world = await consultWorld()
  const asker = await patient(world)
  const doctor = await expert(world)
  const id = await inProgress(world, asker, doctor)
  const url = `/main/expert/consultations/${id}/exam-requests`
  const refusals: Array<[object, string]> = [
    [{ examType: 'spect' }, '请选择检查类型'],
    [{ examType: 'other' }, '选择「其他」时请填写检查名称（最多 30 字）'],
    [{ bodyPart: '' }, '请选择或填写检查部位（最多 30 字）'],
    [{ contrast: 'maybe' }, '请选择是否使用造影剂'],
    [{ urgency: 'now' }, '请选择紧急程度'],
    [{ reason: '   ' }, '请填写检查理由，便于接诊医生了解'],
    [{ reason: '很'.repeat(501) }, '检查理由最多 500 字'],
    [{ reason: '结节\u202E复查' }, '内容含有无法显示的字符，请删除后重试'],
  ]
  for (const [change, message] of refusals) {
    const refused = await world.call(doctor, 'POST', url, {
      ...FORM,
      ...change,
      clientId: 'exam-bad-01',
    })
    assert.equal(refused.status, 400, JSON.stringify(change))
    assert.equal(refused.error, message)
  }
  // 其他 with its name: the name is the exam.
  const other = await world.call(doctor, 'POST', url, {
    ...FORM,
    examType: 'other',
    examName: '骨密度检查',
    clientId: 'exam-other-1',
  })
  assert.equal(other.status, 200, other.error ?? '')
  assert.equal(other.data.examTypeLabel, '骨密度检查')
})

test('only a consultation being answered takes a suggestion', async () => {
  const world = await consultWorld()
  const asker = await patient(world)
  const doctor = await expert(world)
  // 待接诊: refused, and nothing reaches the conversation.
  const waiting = await paidConsultation(world, asker, doctor)
  const early = await world.call(
    doctor,
    'POST',
    `/main/expert/consultations/${waiting}/exam-requests`,
    {
      ...FORM,
      clientId: 'exam-early-1',
    },
  )
  assert.equal(early.status, 409)
  assert.equal(early.error, '只有进行中或已回复的咨询可以开检查建议')
  const messages = await world.call(asker, 'GET', `/main/consultations/${waiting}/messages`)
  assert.ok(!messages.data.items.some((one: { kind: string }) => one.kind === 'exam-request'))
  const rows = await world.app.db.selectFrom('exam_requests').selectAll().execute()
  assert.equal(rows.length, 0)

  // 已回复: still open to a suggestion.
  const answered = await answeredConsultation(world, asker, doctor)
  const late = await world.call(
    doctor,
    'POST',
    `/main/expert/consultations/${answered}/exam-requests`,
    {
      ...FORM,
      clientId: 'exam-late-01',
    },
  )
  assert.equal(late.status, 200, late.error ?? '')

  // Completed (adopted): refused.
  const adopted = await world.call(asker, 'POST', `/main/consultations/${answered}/adopt`)
  assert.equal(adopted.status, 200, adopted.error ?? '')
  const closed = await world.call(
    doctor,
    'POST',
    `/main/expert/consultations/${answered}/exam-requests`,
    {
      ...FORM,
      clientId: 'exam-late-02',
    },
  )
  assert.equal(closed.status, 409)
})
