import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { BASE_URL, openPhone, screenshot, signIn, view, type Phone } from './support'

/**
 * 申请AI分析 (issue 23, "AI only as a draft"), as the demo patient: home → 个人影像 → the demo chest
 * CT → 申请AI分析. The confirm explains that the result is a draft for the consultation's expert, the
 * card then shows the request's state (已申请 / 分析中 → 分析完成，等待专家在会诊中审阅) and never a
 * number of the result. The demo server runs the 演示算法 (演示算法，非医疗器械).
 */

const PATIENT = { mobile: '13800000001', password: 'demo1234' }
const CT_TITLE = '胸部 CT 平扫（演示）'

describe('申请AI分析 on 影像详情', () => {
  let phone: Phone
  before(async () => {
    phone = await openPhone({ width: 390, height: 844 })
    await signIn(phone, PATIENT)
  })
  after(async () => {
    await phone.close()
  })

  it('home → 个人影像 → the demo CT → 申请AI分析: explained, then its state only', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/`)
    await page.getByText('您的影像与报告，随身可查').waitFor()
    await screenshot(page, 'ai-apply-0-home')
    await page.getByText('个人影像', { exact: true }).first().click()
    // The demo seed's studies arrive in the background on a fresh server.
    await view(page).getByText(CT_TITLE).first().waitFor({ timeout: 120_000 })
    await view(page).getByText(CT_TITLE).first().click()
    await view(page).locator('.exam-detail__title', { hasText: CT_TITLE }).waitFor()

    const card = view(page).locator('.ai-analysis')
    await card.waitFor({ timeout: 30_000 })
    await card.getByText('演示算法，非医疗器械').waitFor()
    await card.scrollIntoViewIfNeeded()
    await screenshot(page, 'ai-apply-1-entry')

    await card.locator('.ai-analysis__button').click()
    await page.getByText(/分析结果不是诊断/).waitFor()
    await screenshot(page, 'ai-apply-2-confirm')
    await page.locator('.nut-dialog .nut-button', { hasText: '确认申请' }).click()

    await card
      .getByText(/已申请|分析中|分析完成/)
      .first()
      .waitFor()
    await card.getByText(/专家审阅并签署后您才会在会诊报告中看到/).waitFor()
    await screenshot(page, 'ai-apply-3-requested')

    // The job runs the 演示算法 on the pixels; the card asks again every few seconds.
    await card.getByText('分析完成，等待专家在会诊中审阅').waitFor({ timeout: 90_000 })
    await card.scrollIntoViewIfNeeded()
    await screenshot(page, 'ai-apply-4-done')
    const text = (await card.textContent()) ?? ''
    assert.ok(!/cm³|HU|体积/.test(text), `the patient's card shows a result: ${text}`)
    assert.equal(await card.locator('.ai-analysis__button').count(), 0)
    assert.deepEqual(
      phone.errors.filter((e) => !e.includes('favicon')),
      [],
    )
  })
})
