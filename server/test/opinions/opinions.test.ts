import assert from 'node:assert/strict'
import { test } from 'node:test'
import { sql } from 'kysely'
import { forgetExpertOf } from '../../src/domain/experts/account-deletion'
import type { TestUser } from '../domain/profile/support'
import {
  consultWorld,
  type ConsultWorld,
  EXPERT_PASSWORD,
  expert,
  paidConsultation,
  patient,
} from '../consultations/support'

/** An 影像会诊 the expert has accepted: in progress, the CT shared through its grant. */
async function imagingInProgress(world: ConsultWorld, asker: TestUser, doctor: TestUser) {
  const id = await paidConsultation(world, asker, doctor, 'imaging')
  const accepted = await world.call(doctor, 'POST', `/main/expert/consultations/${id}/accept`)
  assert.equal(accepted.status, 200, accepted.error ?? '')
  const space = await world.call(doctor, 'GET', `/main/expert/consultations/${id}/opinion`)
  assert.equal(space.status, 200, space.error ?? '')
  return { id, examId: space.data.exams[0].examId as string, space: space.data }
}

const VALUES = {
  technique: '平扫',
  lungs: '双肺纹理清晰。',
  nodules: '右肺上叶尖段见一磨玻璃结节，约 6 mm，边缘光整。',
  airways: '气管及各级支气管通畅',
  pleura: ['未见胸腔积液'],
  impression: '右肺上叶磨玻璃结节，良性可能大。',
  advice: '6–12 个月后复查胸部薄层 CT。',
}

function pin(examId: string, fieldId = 'nodules') {
  return {
    id: `pin-${fieldId}-0001`,
    fieldId,
    examId,
    studyUid: '1.2.3',
    seriesUid: '1.2.3.4',
    sop: '1.2.3.4.5',
    frame: 1,
    measurement: {
      kind: 'distance' as const,
      points: [
        [10, 10],
        [40, 10],
      ],
      values: { lengthMm: 6.1 },
    },
    label: '第 34 层 · 6.1 mm',
  }
}

test('an expert writes an 影像会诊 opinion from a template, signs it, and the patient reads it; it never changes after', async () => {
  const world = await consultWorld()
  const asker = await patient(world, '王小明')
  const doctor = await expert(world, { name: '李放射' })
  const { id, examId, space } = await imagingInProgress(world, asker, doctor)
  assert.equal(space.blocked, null)
  assert.equal(space.draft, null)
  assert.equal(space.signed, null)
  assert.match(space.patientLabel, /^王\*\* 男 \d+岁$/)
  assert.ok(space.grantId)

  // The report model service: the built-in templates.
  const templates = await world.call(doctor, 'GET', '/report-model/templates')
  assert.equal(templates.status, 200, templates.error ?? '')
  assert.ok(templates.data.templates.length >= 8)
  assert.equal((await world.call(asker, 'GET', '/report-model/templates')).status, 403)

  // The draft: saved incomplete; what does not fit the template or the consultation is refused.
  const draftUrl = `/main/expert/consultations/${id}/opinion/draft`
  const body = { templateId: 'chest-ct', values: { lungs: '双肺' }, pins: [], aiFields: {} }
  const saved = await world.call(doctor, 'PUT', draftUrl, body)
  assert.equal(saved.status, 200, saved.error ?? '')
  const refusals: Array<[object, RegExp]> = [
    [{ ...body, templateId: 'x' }, /模板不存在/],
    [{ ...body, values: { airways: '乱写' } }, /「气道」请从选项中选择/],
    [{ ...body, pins: [pin('someone-elses-exam')] }, /不在本次会诊共享的资料中/],
    [{ ...body, pins: [pin(examId, 'no-field')] }, /附图所在的项目不存在/],
    // No AI draft exists for this consultation: a claimed one is refused.
    [{ ...body, aiFields: { lungs: 'analysis-1' } }, /AI 草稿不存在/],
  ]
  for (const [payload, message] of refusals) {
    const refused = await world.call(doctor, 'PUT', draftUrl, payload)
    assert.equal(refused.status, 400, JSON.stringify(payload))
    assert.match(refused.error ?? '', message)
  }
  // Nobody else writes it.
  const other = await expert(world, { name: '周专家' })
  assert.equal((await world.call(other, 'PUT', draftUrl, body)).status, 404)
  assert.equal((await world.call(asker, 'PUT', draftUrl, body)).status, 403)

  const full = { templateId: 'chest-ct', values: VALUES, pins: [pin(examId)], aiFields: {} }
  await world.call(doctor, 'PUT', draftUrl, full)
  const again = await world.call(doctor, 'GET', `/main/expert/consultations/${id}/opinion`)
  assert.deepEqual(again.data.draft.values, VALUES)
  assert.equal(again.data.draft.pins[0].label, '第 34 层 · 6.1 mm')

  // Signing: re-authentication first, the required fields next.
  const signUrl = `/main/expert/consultations/${id}/opinion/sign`
  const noProof = await world.call(doctor, 'POST', signUrl, { ...full, clientId: 'sign-0001' })
  assert.equal(noProof.status, 400)
  const missing = await world.call(doctor, 'POST', signUrl, {
    ...full,
    values: { ...VALUES, advice: '' },
    clientId: 'sign-0001',
    password: EXPERT_PASSWORD,
  })
  assert.equal(missing.status, 400)
  assert.equal(missing.error, '请填写「建议」')
  const signed = await world.call(doctor, 'POST', signUrl, {
    ...full,
    clientId: 'sign-0001',
    password: EXPERT_PASSWORD,
  })
  assert.equal(signed.status, 200, signed.error ?? '')
  const opinion = signed.data
  assert.equal(opinion.role, 'expert')
  assert.equal(opinion.signer.name, '李放射')
  assert.match(opinion.verifyCode, /^[A-Z2-9]{5}-[A-Z2-9]{5}$/)
  assert.match(opinion.contentHash, /^[0-9a-f]{64}$/)
  assert.deepEqual(
    opinion.sentences.map((one: { fieldId: string }) => one.fieldId),
    ['technique', 'lungs', 'nodules', 'airways', 'pleura', 'impression', 'advice'],
  )
  assert.equal(opinion.ai, null)

  // A retry of the same signature answers the same opinion; another one is refused.
  const retry = await world.call(doctor, 'POST', signUrl, {
    ...full,
    clientId: 'sign-0001',
    password: EXPERT_PASSWORD,
  })
  assert.equal(retry.status, 200, retry.error ?? '')
  assert.equal(retry.data.id, opinion.id)
  const second = await world.call(doctor, 'POST', signUrl, {
    ...full,
    clientId: 'sign-0002',
    password: EXPERT_PASSWORD,
  })
  assert.equal(second.status, 409)
  assert.match(second.error ?? '', /已签署，不能修改/)
  // An edit is refused (the draft is gone; a new one cannot be saved).
  const edit = await world.call(doctor, 'PUT', draftUrl, full)
  assert.equal(edit.status, 409)
  const after = await world.call(doctor, 'GET', `/main/expert/consultations/${id}/opinion`)
  assert.equal(after.data.draft, null)
  assert.equal(after.data.signed.id, opinion.id)
  assert.equal(after.data.blocked, '会诊报告已签署，不能修改；如需补充，请在会诊对话中写补充说明')

  // Not even the database lets a signed opinion change.
  await assert.rejects(
    sql`update opinions set sentences_json = '[]' where id = ${opinion.id}`.execute(world.app.db),
    /immutable/,
  )

  // The consultation is answered: the conversation's answer links the report.
  const detail = await world.call(asker, 'GET', `/main/consultations/${id}`)
  assert.equal(detail.data.state, 'answered')
  const messages = await world.call(asker, 'GET', `/main/consultations/${id}/messages`)
  const answerMessage = messages.data.items.find((one: { kind: string }) => one.kind === 'answer')
  assert.equal(answerMessage.answer.reportId, opinion.id)
  assert.match(answerMessage.answer.findings, /肺结节：右肺上叶尖段见一磨玻璃结节/)
  assert.equal(answerMessage.answer.opinion, VALUES.impression)

  // An addendum follows the opinion; the opinion itself stays as signed.
  const addendum = await world.call(doctor, 'POST', `/main/expert/consultations/${id}/answer`, {
    clientId: 'addendum-01',
    opinion: '补充：结节旁未见血管集束征。',
    password: EXPERT_PASSWORD,
  })
  assert.equal(addendum.status, 200, addendum.error ?? '')
  assert.equal(addendum.data.kind, 'addendum')

  // The patient reads it; nobody else does.
  const read = await world.call(asker, 'GET', `/main/opinions/${opinion.id}`)
  assert.equal(read.status, 200, read.error ?? '')
  assert.equal(read.data.role, 'patient')
  assert.deepEqual(read.data.sentences, opinion.sentences)
  assert.equal(read.data.contentHash, opinion.contentHash)
  assert.deepEqual(
    read.data.addenda.map((one: { text: string }) => one.text),
    ['补充：结节旁未见血管集束征。'],
  )
  const stranger = await patient(world, '赵路人')
  assert.equal((await world.call(stranger, 'GET', `/main/opinions/${opinion.id}`)).status, 404)
  assert.equal((await world.call(other, 'GET', `/main/opinions/${opinion.id}`)).status, 404)
  assert.equal((await world.call(null, 'GET', `/main/opinions/${opinion.id}`)).status, 401)

  // The PDF: the patient's, not a stranger's.
  const pdf = await world.app.inject({
    method: 'GET',
    url: `/main/opinions/${opinion.id}/pdf`,
    headers: { authorization: `Bearer ${asker.token}` },
  })
  assert.equal(pdf.statusCode, 200, pdf.body.slice(0, 200))
  assert.equal(pdf.headers['content-type'], 'application/pdf')
  assert.equal(pdf.rawPayload.subarray(0, 5).toString(), '%PDF-')
  const strangerPdf = await world.app.inject({
    method: 'GET',
    url: `/main/opinions/${opinion.id}/pdf`,
    headers: { authorization: `Bearer ${stranger.token}` },
  })
  assert.equal(strangerPdf.statusCode, 404)

  // Anyone holding the PDF verifies its code, without logging in; a wrong code finds nothing.
  const verified = await world.call(
    null,
    'GET',
    `/main/opinions/verify/${opinion.verifyCode.toLowerCase()}`,
  )
  assert.equal(verified.status, 200, verified.error ?? '')
  assert.equal(verified.data.signer.name, '李放射')
  assert.equal(verified.data.contentHash, opinion.contentHash)
  assert.equal(verified.data.patientLabel, opinion.patientLabel)
  assert.equal(verified.data.addenda, 1)
  const wrong = await world.call(null, 'GET', '/main/opinions/verify/AAAAA-AAAAA')
  assert.equal(wrong.status, 404)
  assert.match(wrong.error ?? '', /未找到该验证码/)
  const malformed = await world.call(null, 'GET', '/main/opinions/verify/abc')
  assert.equal(malformed.status, 400)
})

test('a 图文咨询 has no report template, and a consultation not yet accepted cannot be signed', async () => {
  const world = await consultWorld()
  const asker = await patient(world)
  const doctor = await expert(world)
  const text = await paidConsultation(world, asker, doctor, 'text')
  const space = await world.call(doctor, 'GET', `/main/expert/consultations/${text}/opinion`)
  assert.equal(space.status, 200, space.error ?? '')
  assert.equal(space.data.blocked, '只有影像会诊使用会诊报告模板')

  const waiting = await paidConsultation(world, asker, doctor, 'imaging')
  const early = await world.call(doctor, 'GET', `/main/expert/consultations/${waiting}/opinion`)
  assert.equal(early.data.blocked, '当前状态不能撰写会诊报告')
  const sign = await world.call(
    doctor,
    'POST',
    `/main/expert/consultations/${waiting}/opinion/sign`,
    {
      templateId: 'chest-ct',
      values: VALUES,
      pins: [],
      aiFields: {},
      clientId: 'sign-early-1',
      password: EXPERT_PASSWORD,
    },
  )
  assert.equal(sign.status, 409)
})

test('two signatures at once: one opinion, the other refused; 40 variants saved at once: 30 kept', async () => {
  const world = await consultWorld()
  const asker = await patient(world)
  const doctor = await expert(world)
  const { id } = await imagingInProgress(world, asker, doctor)
  const results = await Promise.all(
    [1, 2, 3].map((n) =>
      world.call(doctor, 'POST', `/main/expert/consultations/${id}/opinion/sign`, {
        templateId: 'chest-ct',
        values: VALUES,
        pins: [],
        aiFields: {},
        clientId: `sign-race-${n}`,
        password: EXPERT_PASSWORD,
      }),
    ),
  )
  assert.deepEqual(
    results.map((one) => one.status).sort(),
    [200, 409, 409],
    results.map((one) => one.error).join(' / '),
  )
  const rows = await world.app.db
    .selectFrom('opinions')
    .select('id')
    .where('consultation_id', '=', id)
    .execute()
  assert.equal(rows.length, 1)
  const answers = await world.app.db
    .selectFrom('consultation_messages')
    .select('kind')
    .where('consultation_id', '=', id)
    .where('kind', 'in', ['answer', 'addendum'])
    .execute()
  assert.deepEqual(
    answers.map((one) => one.kind),
    ['answer'],
  )

  const saves = await Promise.all(
    Array.from({ length: 40 }, (_, n) =>
      world.call(doctor, 'POST', '/report-model/templates/variants', {
        templateId: 'chest-ct',
        name: `模板 ${n}`,
        values: { lungs: `默认 ${n}` },
      }),
    ),
  )
  assert.equal(saves.filter((one) => one.status === 200).length, 30)
  assert.ok(saves.filter((one) => one.status !== 200).every((one) => one.status === 400))
  const listed = await world.call(doctor, 'GET', '/report-model/templates')
  const own = listed.data.templates.filter((one: { variant: unknown }) => one.variant)
  assert.equal(own.length, 30)
  // The same name replaces; delete removes; another expert cannot delete it.
  const replaced = await world.call(doctor, 'POST', '/report-model/templates/variants', {
    templateId: 'chest-ct',
    name: '模板 0',
    values: { lungs: '替换后' },
  })
  assert.equal(replaced.status, 200, replaced.error ?? '')
  const variantId = replaced.data.variant.id as string
  const stranger = await expert(world, { name: '周专家' })
  assert.equal(
    (await world.call(stranger, 'DELETE', `/report-model/templates/variants/${variantId}`)).status,
    404,
  )
  assert.equal(
    (await world.call(doctor, 'DELETE', `/report-model/templates/variants/${variantId}`)).status,
    200,
  )

  // An expert who leaves takes their own templates along; the signed opinion stays.
  await world.app.db
    .transaction()
    .execute((trx) => forgetExpertOf(trx, doctor.user.id, world.clock.now()))
  const left = await world.app.db
    .selectFrom('opinion_template_variants')
    .select('id')
    .where('expert_user_id', '=', doctor.user.id)
    .execute()
  assert.deepEqual(left, [])
  assert.equal(
    (
      await world.app.db
        .selectFrom('opinions')
        .select('id')
        .where('consultation_id', '=', id)
        .execute()
    ).length,
    1,
  )
})

test('verification is limited per network: the 31st lookup in 10 minutes waits', async () => {
  const world = await consultWorld()
  const codes = Array.from({ length: 31 }, (_, n) => `AAAAA-BBBB${'23456789'[n % 8]}`)
  const statuses: number[] = []
  for (const code of codes) {
    statuses.push((await world.call(null, 'GET', `/main/opinions/verify/${code}`)).status)
  }
  assert.deepEqual(statuses.slice(0, 30), Array(30).fill(404))
  assert.equal(statuses[30], 429)
})

test('without a Chinese font the PDF says so (503), and the opinion itself still reads', async () => {
  const world = await consultWorld({ config: { pdfFont: null } })
  const asker = await patient(world)
  const doctor = await expert(world)
  const { id } = await imagingInProgress(world, asker, doctor)
  const signed = await world.call(doctor, 'POST', `/main/expert/consultations/${id}/opinion/sign`, {
    templateId: 'chest-ct',
    values: VALUES,
    pins: [],
    aiFields: {},
    clientId: 'sign-nofont',
    password: EXPERT_PASSWORD,
  })
  assert.equal(signed.status, 200, signed.error ?? '')
  const pdf = await world.app.inject({
    method: 'GET',
    url: `/main/opinions/${signed.data.id}/pdf`,
    headers: { authorization: `Bearer ${asker.token}` },
  })
  assert.equal(pdf.statusCode, 503)
  // A 5xx's text is the envelope's message (the app toasts it).
  assert.equal(pdf.json().message, '服务器未安装中文字体，暂时无法生成 PDF，请稍后再试或联系客服')
  assert.equal((await world.call(asker, 'GET', `/main/opinions/${signed.data.id}`)).status, 200)
})
