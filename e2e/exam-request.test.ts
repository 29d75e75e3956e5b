import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Locator, Page } from 'playwright-core'
import { EXAM_REQUEST_NOTICE } from '../contract/main/exam-requests'
import { PATIENT, api, quietScreenshot, acceptedConsultation } from './experts-support'
import { BASE_URL, openPhone, settle, signIn, view, type Phone } from './support'

/**
 * Issue 23, 检查申请单, in two phones at 390×844: a 图文咨询 of the demo patient, paid with 演示支付
 * and accepted by the demo expert (set up through the API). The patient leaves its conversation
 * open; the expert goes 我的 → 患者咨询 → 进行中 → the row → 开检查建议, taps 增强 CT, 胸部,
 * 由医院决定, 尽快, writes the reason and sends. The card reaches the patient's open conversation
 * live; its tap opens the 检查申请单 with the request number drawn as a Code 128 bar code.
 */

const PHONE_390 = { width: 390, height: 844 }
const EXPERT = { mobile: '13900000002', password: 'demo1234' }
const EXPERT_NAME = '演示专家'
const RUN = `e2e${Date.now().toString(36)}`
const COMPLAINT = `咳嗽两周，CT 见结节，需要做什么检查（${RUN}）`
const REASON = '右肺上叶磨玻璃结节，建议增强扫描了解血供，与既往片对比。'

interface Page1<T> {
  items: T[]
}

async function fromMine(page: Page, entry: string): Promise<void> {
  await page.goto(`${BASE_URL}/pages/main/main`)
  await page.locator('.weui-tabbar').getByText('我的').click()
  await settle(page)
  await view(page).locator('.nut-cell', { hasText: entry }).click()
  await settle(page)
}

/** Taps a control in the middle of the screen (a fixed bottom bar may cover the page's foot). */
async function tap(locator: Locator): Promise<void> {
  await locator.evaluate((element) => element.scrollIntoView({ block: 'center' }))
  await locator.click()
}

/** Every tap target of the page on screen is at least `min` CSS px high. */
async function smallTargets(page: Page, selector: string, min: number): Promise<string[]> {
  return view(page)
    .locator(selector)
    .evaluateAll(
      (elements, least) =>
        elements
          .map((element) => ({
            text: element.textContent ?? '',
            box: element.getBoundingClientRect(),
          }))
          .filter(({ box }) => box.height < least)
          .map(({ text, box }) => `${text}: ${box.height}px`),
      min,
    )
}

describe('issue 23: a 检查申请单 reaches the patient with its bar code', () => {
  let patient: Phone
  let expert: Phone

  before(async () => {
    ;[patient, expert] = await Promise.all([openPhone(PHONE_390), openPhone(PHONE_390)])
    const [patientToken, expertToken] = await Promise.all([
      signIn(patient, PATIENT),
      signIn(expert, EXPERT),
    ])
    const experts = await api<Page1<{ id: string; name: string }>>('/main/experts?pageSize=50')
    const demo = experts.items.find((one) => one.name === EXPERT_NAME)
    assert.ok(demo, `${EXPERT_NAME} is in 找专家`)
    let exam: { id: string } | undefined
    for (let i = 0; i < 240 && !exam; i++) {
      const exams = await api<Page1<{ id: string; status: string }>>('/image/exams?pageSize=50', {
        token: patientToken,
      })
      exam = exams.items.find((one) => one.status === 'ready')
      if (!exam) await new Promise((resolve) => setTimeout(resolve, 500))
    }
    assert.ok(exam, 'the demo patient has an exam')
    await acceptedConsultation({
      patientToken,
      expertToken,
      expertId: demo.id,
      service: 'text',
      examId: exam.id,
      chiefComplaint: COMPLAINT,
      presentIllness: '咳嗽两周，无发热',
      questions: '需要做增强 CT 吗？',
    })
  })
  after(async () => {
    await Promise.all([patient?.close(), expert?.close()])
  })

  it('the patient leaves the conversation open: 我的 → 我的咨询 → the row → 进入对话', async () => {
    const page = patient.page
    await fromMine(page, '我的咨询')
    await view(page).locator('[role=tab]', { hasText: '进行中' }).click()
    await settle(page)
    await tap(view(page).locator('.consult-row', { hasText: COMPLAINT }))
    await page.waitForURL(/pages\/question\/question\?id=/)
    await view(page).getByText('申请内容').waitFor()
    await settle(page)
    await view(page).locator('.consult-detail__button', { hasText: '进入对话' }).click()
    await page.waitForURL(/myMessage\/detail/)
    await view(page).locator('.consult-chat__header').waitFor()
    await settle(page)
    // Only the expert suggests exams.
    assert.equal(await view(page).locator('.consult-chat__tool--exam').count(), 0)
  })

  it('the expert: 患者咨询 → 进行中 → the row → 开检查建议 → taps and the reason → 发送', async () => {
    const doc = expert.page
    await fromMine(doc, '患者咨询')
    await view(doc).locator('[role=tab]', { hasText: '进行中' }).click()
    await settle(doc)
    await view(doc)
      .locator('.patient-questions__row', { hasText: COMPLAINT })
      .locator('.patient-questions__main')
      .click()
    await doc.waitForURL(/myMessage\/detail/)
    const action = view(doc).locator('.consult-chat__tool--exam', { hasText: '开检查建议' })
    await action.waitFor()
    await settle(doc)
    await tap(action)
    await doc.waitForURL(/pages\/report\/reportNew\?consultationId=/)
    await view(doc).locator('.exam-compose').waitFor()
    await settle(doc)
    await quietScreenshot(doc, 'exam-request-1-compose')
    assert.deepEqual(await smallTargets(doc, '.exam-compose__chip', 32), [])

    const chip = (text: string) =>
      view(doc).locator('.exam-compose__chip', { hasText: new RegExp(`^${text}$`) })
    await tap(chip('增强 CT'))
    await tap(chip('胸部'))
    await tap(chip('由医院决定'))
    await tap(chip('尽快（1 周内）'))
    await view(doc).locator('.exam-compose__area textarea').fill(REASON)
    await view(doc).getByText(EXAM_REQUEST_NOTICE).waitFor()
    await settle(doc)
    await quietScreenshot(doc, 'exam-request-2-compose-filled')
    await tap(view(doc).locator('.exam-compose__actions .nut-button', { hasText: '发送' }))
    await doc.waitForURL(/myMessage\/detail/)
    await view(doc).locator('.exam-card', { hasText: '增强 CT · 胸部' }).waitFor()
    await settle(doc)
    await quietScreenshot(doc, 'exam-request-3-expert-conversation')
  })

  it('the card reaches the patient live; its tap opens the 检查申请单 with the bar code', async () => {
    const page = patient.page
    const card = view(page).locator('.exam-card', { hasText: '增强 CT · 胸部' })
    // Live: the conversation was left open before the expert sent it.
    await card.waitFor({ timeout: 20_000 })
    assert.match((await card.textContent()) ?? '', /尽快（1 周内）/)
    await settle(page)
    await quietScreenshot(page, 'exam-request-4-patient-conversation')
    await tap(card)
    await page.waitForURL(/pages\/report\/reportNew\?id=/)
    const sheet = view(page).locator('.exam-sheet')
    await sheet.waitFor()
    for (const text of [
      '增强 CT',
      '胸部',
      '由医院决定',
      '尽快（1 周内）',
      REASON,
      EXAM_REQUEST_NOTICE,
    ]) {
      await sheet.getByText(text, { exact: true }).first().waitFor()
    }
    assert.match((await sheet.textContent()) ?? '', /演示专家/)
    const number = (await sheet
      .locator('.bar-code__text, .exam-sheet__value')
      .first()
      .textContent())!
    assert.match(number, /JC\d{14}/)

    // The bars are drawn: a canvas of real width with dark and light columns across it.
    const canvas = sheet.locator('canvas').first()
    await canvas.waitFor()
    await page.waitForFunction(() => {
      const element = document.querySelector<HTMLCanvasElement>(
        '.taro_page:not([style*="none"]) .exam-sheet canvas',
      )
      if (!element || element.width < 100) return false
      const context = element.getContext('2d')
      if (!context) return false
      const row = context.getImageData(0, Math.floor(element.height / 2), element.width, 1).data
      let dark = 0
      for (let x = 0; x < row.length; x += 4) if (row[x]! < 64) dark += 1
      return dark > 40 && dark < element.width - 40
    })
    await settle(page)
    await quietScreenshot(page, 'exam-request-5-form')
    // On screen whole, 2 px a module on this phone.
    const bounds = await canvas.boundingBox()
    assert.ok(
      bounds && bounds.width >= 300 && bounds.x >= 0 && bounds.x + bounds.width <= 390,
      JSON.stringify(bounds),
    )
    // The foot: who suggested it, the date, and that it is a suggestion, not an order.
    await sheet
      .locator('.exam-sheet__notice')
      .evaluate((element) => element.scrollIntoView({ block: 'end' }))
    await settle(page)
    await quietScreenshot(page, 'exam-request-6-form-foot')
  })
})
