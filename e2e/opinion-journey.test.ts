import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { CDPSession, Page } from 'playwright-core'
import { PATIENT, api, quietScreenshot, acceptedConsultation } from './experts-support'
import {
  BASE_URL,
  openPhone,
  screenshot,
  settle,
  signIn,
  touchDrag,
  view,
  type Phone,
  fromMine,
} from './support'

/**
 * Issue 23's "Done when", in two phones at 390×844. The demo patient has asked 申请AI分析 on the demo
 * chest CT and has an 影像会诊 with the demo expert sharing it (set up through the API). The expert
 * starts at 我的 → 患者咨询 → 进行中 → the conversation → 撰写会诊报告, picks 胸部 CT, takes the AI
 * draft in (演示算法，非医疗器械), measures the nodule in the viewer with 测距 and pins it to 肺结节,
 * previews, and signs with the password. Until then the patient sees no result: the analysis says
 * 等待专家在会诊中审阅 and the drafts call refuses her. Then the patient: 我的 → 我的咨询 → the
 * conversation → 查看会诊报告; a tap on 磨玻璃结节 explains it; a tap on the pinned finding opens the
 * viewer on that slice with the line drawn and its length; the PDF downloads; its code verifies at
 * the address its QR code holds.
 */

const PHONE_390 = { width: 390, height: 844 }
const EXPERT = { mobile: '13900000002', password: 'demo1234' }
const EXPERT_NAME = '演示专家'
const CT_TITLE = /胸部 CT/
const RUN = `e2e${Date.now().toString(36)}`
const COMPLAINT = `体检 CT 见磨玻璃结节，请专家读片（${RUN}）`
const NODULE = '右肺上叶见一磨玻璃结节，边界清楚，测量见附图。'
const IMPRESSION = '右肺上叶磨玻璃结节，良性或惰性病变可能大。'
const ADVICE = '6–12 个月后复查胸部薄层 CT；如有咯血、胸痛请线下就诊。'

interface Page1<T> {
  items: T[]
}

async function box(page: Page, selector: string) {
  const found = await view(page).locator(selector).first().boundingBox()
  assert.ok(found, `${selector} is on screen`)
  return found
}

/** The labels the viewer drew over the image. */
async function measureLabels(page: Page): Promise<string[]> {
  return view(page)
    .getByTestId('viewer-measure')
    .evaluateAll((blocks) => blocks.map((block) => block.textContent ?? ''))
}

describe('issue 23: an opinion from a template, a pinned finding, AI only through the expert, verified by its code', () => {
  let patient: Phone
  let expert: Phone
  let cdp: CDPSession
  let patientToken: string
  let expertToken: string
  let consultationId: string
  let examId: string
  let verifyCode: string
  let pinLabel: string

  before(async () => {
    ;[patient, expert] = await Promise.all([openPhone(PHONE_390), openPhone(PHONE_390)])
    ;[patientToken, expertToken] = await Promise.all([
      signIn(patient, PATIENT),
      signIn(expert, EXPERT),
    ])
    cdp = await expert.context.newCDPSession(expert.page)
    const experts = await api<Page1<{ id: string; name: string }>>('/main/experts?pageSize=50')
    const demo = experts.items.find((one) => one.name === EXPERT_NAME)
    assert.ok(demo, `${EXPERT_NAME} is in 找专家`)
    let ct: { id: string } | undefined
    for (let i = 0; i < 240 && !ct; i++) {
      const exams = await api<Page1<{ id: string; status: string; title: string }>>(
        '/image/exams?pageSize=50',
        { token: patientToken },
      )
      ct = exams.items.find((one) => one.status === 'ready' && CT_TITLE.test(one.title))
      if (!ct) await new Promise((resolve) => setTimeout(resolve, 500))
    }
    assert.ok(ct, 'the demo patient has a chest CT')
    examId = ct.id

    // 申请AI分析 (its page is e2e/ai-apply.test.ts; asking again answers the same request).
    await api(`/main/exams/${examId}/ai-analysis`, { token: patientToken, body: {} })
    for (let i = 0; i < 240; i++) {
      const state = await api<{ analysis: { state: string } | null }>(
        `/main/exams/${examId}/ai-analysis`,
        { token: patientToken },
      )
      if (state.analysis?.state === 'done') break
      assert.notEqual(state.analysis?.state, 'failed')
      await new Promise((resolve) => setTimeout(resolve, 500))
    }

    // An 影像会诊 sharing the CT, paid with 演示支付 and accepted (set-up: issue 21's pages).
    consultationId = await acceptedConsultation({
      patientToken,
      expertToken,
      expertId: demo.id,
      service: 'imaging',
      examId: examId,
      chiefComplaint: COMPLAINT,
      presentIllness: '无咳嗽、咯血',
      questions: '结节是什么性质？多久复查？',
    })
  })
  after(async () => {
    await Promise.all([patient?.close(), expert?.close()])
  })

  it('the expert opens 撰写会诊报告 from the conversation and picks 胸部 CT; the AI draft waits for a tap', async () => {
    const doc = expert.page
    await fromMine(doc, '患者咨询')
    await view(doc).locator('[role=tab]', { hasText: '进行中' }).click()
    await settle(doc)
    await view(doc)
      .locator('.patient-questions__row', { hasText: COMPLAINT })
      .locator('.patient-questions__main')
      .click()
    await doc.waitForURL(/myMessage\/detail/)
    await view(doc).locator('.consult-answer-form', { hasText: '撰写会诊报告' }).waitFor()
    await settle(doc)
    await view(doc).locator('.consult-answer-form .nut-button', { hasText: '撰写会诊报告' }).click()
    await doc.waitForURL(/pages\/report\/report\?consultationId=/)
    await view(doc).getByText('选择报告模板').waitFor()
    await settle(doc)
    await screenshot(doc, 'opinion-1-templates')
    await view(doc).locator('.opinion-editor__template', { hasText: '胸部 CT' }).first().click()
    await view(doc).locator('.opinion-field', { hasText: '肺实质' }).waitFor()

    // The draft is the expert's to take: nothing of it is in the form yet.
    const banner = view(doc).locator('.opinion-editor__ai')
    await banner.getByText(/演示算法，非医疗器械/).waitFor()
    const lungs = view(doc).locator('.opinion-field', { hasText: '肺实质' }).locator('textarea')
    assert.doesNotMatch(await lungs.inputValue(), /cm³/)
    await banner.locator('.nut-button', { hasText: '填入草稿' }).click()
    assert.match(await lungs.inputValue(), /双肺体积约 [\d,]+ cm³/)
    await view(doc)
      .locator('.opinion-field', { hasText: '肺实质' })
      .locator('.opinion-field__ai')
      .waitFor()
    await settle(doc)
    await quietScreenshot(doc, 'opinion-2-ai-draft')
  })

  it('until the expert signs, the patient sees no result: the state only, and the drafts call refuses her', async () => {
    const state = await api<{ analysis: { state: string; message: string } }>(
      `/main/exams/${examId}/ai-analysis`,
      { token: patientToken },
    )
    assert.equal(state.analysis.state, 'done')
    assert.doesNotMatch(JSON.stringify(state), /cm³|HU/)
    const refused = await fetch(
      `${BASE_URL}/main/expert/consultations/${consultationId}/ai-drafts`,
      { headers: { authorization: `Bearer ${patientToken}` } },
    )
    assert.equal(refused.status, 403)
  })

  it('measures the nodule with 测距 in the viewer and pins it to 肺结节', async () => {
    const doc = expert.page
    const nodules = view(doc).locator('.opinion-field', { hasText: '肺结节' })
    await nodules.locator('textarea').fill(NODULE)
    await nodules.locator('.opinion-field__pin-button').click()
    await doc.waitForURL(/personalImage\/viewer\?.*pin=nodules/)
    await view(doc).getByTestId('viewer-overlay').waitFor({ timeout: 30_000 })
    await doc.waitForFunction(() => performance.getEntriesByName('viewer-render').length > 0)
    await view(doc).locator('.image-viewer__tools').getByText('测距', { exact: true }).click()
    const stage = await box(doc, '#image-viewer-stage')
    await touchDrag(
      cdp,
      { x: stage.x + stage.width * 0.3, y: stage.y + stage.height * 0.45 },
      { x: stage.x + stage.width * 0.38, y: stage.y + stage.height * 0.45 },
    )
    await view(doc).getByTestId('viewer-measure').first().waitFor()
    const [label] = await measureLabels(doc)
    assert.match(label ?? '', /\d+\.\d mm/)
    await screenshot(doc, 'opinion-3-measured')
    await view(doc).getByTestId('viewer-attach').click()
    await doc.waitForURL(/pages\/report\/report\?consultationId=/)
    const pin = view(doc)
      .locator('.opinion-field', { hasText: '肺结节' })
      .locator('.opinion-field__pin-text')
    await pin.waitFor()
    pinLabel = (await pin.textContent())!.replace('◉', '').trim()
    assert.match(pinLabel, /^第 \d+ 层 · \d+\.\d mm$/)
  })

  it('previews what the patient will read, then signs with the password', async () => {
    const doc = expert.page
    await view(doc)
      .locator('.opinion-field', { hasText: '会诊意见' })
      .locator('textarea')
      .fill(IMPRESSION)
    await view(doc).locator('.opinion-field', { hasText: '建议' }).locator('textarea').fill(ADVICE)
    await view(doc).locator('.opinion-editor__actions .nut-button', { hasText: '预览' }).click()
    const preview = doc.locator('.opinion-editor__preview')
    await preview.getByText(IMPRESSION).waitFor()
    await preview.getByText(pinLabel).waitFor()
    await settle(doc)
    await screenshot(doc, 'opinion-4-preview')
    await doc.locator('.nut-popup-title-right, .nut-popup-close').first().click()
    await settle(doc)

    await view(doc)
      .locator('.opinion-editor__actions .nut-button', { hasText: '签署并发送' })
      .click()
    const sheet = doc.locator('.opinion-sign')
    await sheet.waitFor()
    await sheet.locator('input[type=password]').fill(EXPERT.password)
    await sheet.locator('.nut-button', { hasText: '签署并发送' }).click()
    const code = view(doc).locator('.opinion-view__code')
    await code.waitFor()
    verifyCode = /([A-Z2-9]{5}-[A-Z2-9]{5})/.exec((await code.textContent()) ?? '')![1]!
    await settle(doc)
    await quietScreenshot(doc, 'opinion-5-signed')
  })

  it('the patient opens 查看会诊报告 from the conversation; 磨玻璃结节 is explained; the pin opens its slice with the line', async () => {
    const page = patient.page
    await fromMine(page, '我的咨询')
    await view(page).locator('[role=tab]', { hasText: '进行中' }).click()
    await settle(page)
    await view(page).locator('.consult-row', { hasText: COMPLAINT }).click()
    await page.waitForURL(/pages\/question\/question\?id=/)
    await settle(page)
    await view(page).locator('.consult-detail__button', { hasText: '进入对话' }).click()
    await page.waitForURL(/myMessage\/detail/)
    await view(page).locator('.consult-chat__answer-report').click()
    await page.waitForURL(/pages\/report\/report\?id=/)
    // The report page itself (the conversation below it has the same sentences).
    const report = view(page).locator('.opinion-view')
    await report.getByText(IMPRESSION).waitFor()
    await report.locator('.opinion-view__ai-note', { hasText: '演示算法，非医疗器械' }).waitFor()
    await report.locator('.opinion-view__pin', { hasText: pinLabel }).waitFor()
    await settle(page)
    await screenshot(page, 'opinion-6-patient-report')

    // A known term is underlined; a tap explains it.
    await report.locator('.explained-text__term', { hasText: '磨玻璃结节' }).first().click()
    const explanation = page.locator('.term-sheet')
    await explanation.getByText(/解释仅供理解报告/).waitFor()
    await settle(page)
    await screenshot(page, 'opinion-7-term')
    await explanation.locator('.term-sheet__button').click()
    await explanation.waitFor({ state: 'hidden' })
    await settle(page)

    await report.locator('.opinion-view__pin', { hasText: pinLabel }).click()
    await page.waitForURL(/personalImage\/viewer\?.*measure=distance/)
    await view(page).getByTestId('viewer-overlay').waitFor({ timeout: 30_000 })
    await view(page).getByTestId('viewer-measure').first().waitFor()
    const mm = /(\d+\.\d) mm/.exec(pinLabel)![1]!
    assert.ok(
      (await measureLabels(page)).some((label) => label.includes(`${mm} mm`)),
      `the line of ${mm} mm is drawn`,
    )
    await screenshot(page, 'opinion-8-patient-slice')
  })

  it('the PDF downloads, and its code verifies at the address its QR code holds, without login', async () => {
    const messages = await api<{ items: { answer: { reportId?: string } | null }[] }>(
      `/main/consultations/${consultationId}/messages`,
      { token: patientToken },
    )
    const opinion = messages.items.find((one) => one.answer?.reportId)?.answer?.reportId
    assert.ok(opinion, 'the answer links its report')
    const pdf = await fetch(`${BASE_URL}/main/opinions/${opinion}/pdf`, {
      headers: { authorization: `Bearer ${patientToken}` },
    })
    assert.equal(pdf.status, 200)
    const bytes = Buffer.from(await pdf.arrayBuffer())
    assert.equal(bytes.subarray(0, 5).toString(), '%PDF-')
    console.log(`# the opinion's PDF: ${(bytes.length / 1024).toFixed(0)} KB`)

    const stranger = await openPhone(PHONE_390)
    try {
      await stranger.page.goto(
        `${BASE_URL}/pages/report/report?verify=${verifyCode.replace('-', '')}`,
      )
      await view(stranger.page).getByText('验证通过：本平台确有此报告').waitFor()
      await view(stranger.page).getByText(`签署专家：${EXPERT_NAME}`, { exact: false }).waitFor()
      await settle(stranger.page)
      await screenshot(stranger.page, 'opinion-9-verified')
    } finally {
      await stranger.close()
    }
  })

  it('logged no console errors', () => {
    assert.deepEqual(expert.errors, [])
    assert.deepEqual(patient.errors, [])
  })
})
