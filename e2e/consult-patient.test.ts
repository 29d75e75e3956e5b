import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Locator, Page } from 'playwright-core'
import { PATIENT, api } from './experts-support'
import { BASE_URL, openPhone, screenshot, settle, signIn, view, type Phone } from './support'

/**
 * Issue 21, the patient's pages at 390×844 as the demo patient: 影像详情 → 咨询专家 → 找专家 → the
 * demo expert → 选择会诊方式 (the CT already chosen) → 会诊申请 → 检查信息 → 会诊申请信息 (consent) →
 * 演示支付 → 咨询详情, then 我的咨询. A picture of each page (e2e/artifacts/consult-*.png), and no
 * page shows a raw error or leaves a control off screen.
 */

const PHONE_390 = { width: 390, height: 844 }

interface Page1<T> {
  items: T[]
}

/** Taps a control in the middle of the screen (the fixed bottom bar covers the page's foot). */
async function tap(locator: Locator): Promise<void> {
  await locator.evaluate((element) => element.scrollIntoView({ block: 'center' }))
  await locator.click()
}

/** Nothing wider than the phone, and no raw error text. */
async function looksRight(page: Page, name: string): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth)
  assert.ok(overflow <= 390, `${name}: page is ${overflow}px wide`)
  const text = (await view(page).textContent()) ?? ''
  assert.doesNotMatch(text, /undefined|NaN|\[object Object\]|Error:/, name)
}

describe('consultation, the patient’s pages', () => {
  let phone: Phone
  let token: string
  let expertId: string
  let examId: string

  before(async () => {
    phone = await openPhone(PHONE_390)
    token = await signIn(phone, PATIENT)
    const experts = await api<Page1<{ id: string; name: string }>>('/main/experts?pageSize=20')
    const demo = experts.items.find((one) => one.name === '演示专家') ?? experts.items[0]
    expertId = demo.id
    const exams = await api<Page1<{ id: string; status: string }>>('/image/exams?pageSize=20', {
      token,
    })
    examId = exams.items.find((one) => one.status === 'ready')!.id
  })
  after(async () => {
    await phone.close()
  })

  it('consults the demo expert from 影像详情 and pays with 演示支付', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/personalImage/detail?id=${examId}`)
    await view(page).getByText('咨询专家').click()
    await settle(page)
    await view(page).locator('.expert-card').first().waitFor()
    await page.goto(
      `${BASE_URL}/pages/personalDetail/personalDetail?id=${expertId}&examId=${examId}`,
    )
    await view(page).locator('.expert-service__consult').first().click()
    await view(page).getByText('选择图文咨询').waitFor()
    await screenshot(page, 'consult-mode')
    await looksRight(page, '选择会诊方式')
    assert.match(
      (await view(page).textContent()) ?? '',
      /专家费 ¥\d+\.\d\d · 平台服务费 ¥\d+\.\d\d/,
    )

    await view(page).getByText('选择图文咨询').click()
    await view(page).getByText('本人').first().waitFor()
    await settle(page)
    await screenshot(page, 'consult-apply-empty')
    await view(page).locator('textarea').nth(0).fill('体检发现右肺小结节 2 周，无咳嗽')
    await view(page).locator('textarea').nth(4).fill('这个结节需要手术还是随访？')
    await tap(view(page).getByText('已就诊'))
    await screenshot(page, 'consult-apply')
    await looksRight(page, '会诊申请')
    await view(page).locator('.consult-bar__button').click()

    await view(page).getByText('我的影像').waitFor()
    await view(page).locator('.consult-record').first().waitFor()
    await settle(page)
    await screenshot(page, 'consult-examine')
    await looksRight(page, '检查信息')
    await view(page).locator('.consult-bar__button').click()

    await view(page).getByText('将提供给专家的资料').waitFor()
    await settle(page)
    await screenshot(page, 'consult-summary')
    await looksRight(page, '会诊申请信息')
    await view(page).locator('.form-submit').click()
    await view(page).getByText('请阅读并同意向该专家提供所选健康信息').waitFor()
    await tap(view(page).locator('.consult-consent__text'))
    await screenshot(page, 'consult-summary-consent')
    await view(page).locator('.form-submit').click()
    await page.getByText('演示支付：不会产生真实扣款').waitFor()
    await settle(page)
    await screenshot(page, 'consult-demo-pay')
    await page.locator('.demo-pay__confirm').click()

    await page.waitForURL(/pages\/question\/question\?id=/)
    await view(page).getByText('申请内容').waitFor()
    await settle(page)
    await screenshot(page, 'consult-detail')
    await looksRight(page, '咨询详情')
    for (const [index, part] of ['进度', '订单'].entries()) {
      await view(page)
        .getByText(part, { exact: true })
        .evaluate((element) => element.scrollIntoView({ block: 'start' }))
      await page.waitForTimeout(300)
      await screenshot(page, `consult-detail-${index + 2}`)
    }

    await page.goto(`${BASE_URL}/pages/questionList/questionList`)
    await view(page).locator('.consult-row').first().waitFor()
    await settle(page)
    await screenshot(page, 'consult-list')
    await looksRight(page, '我的咨询')
    await view(page).locator('[role=tab]', { hasText: '已退款/已取消' }).click()
    await settle(page)
    await page.waitForTimeout(500)
    await screenshot(page, 'consult-list-closed')
  })

  it('咨询详情 after the expert answered: 采纳, then 评价 once, 投诉 and 公开到专家主页', async () => {
    const { page } = phone
    const mine = await api<Page1<{ id: string }>>('/main/consultations?tab=waiting', { token })
    const id = mine.items[0].id
    const login = await api<{ access_token: string }>('/sso/oauth2/token', {
      body: { grant_type: 'password', username: '13900000002', password: 'demo1234' },
    })
    const expertToken = login.access_token
    await api(`/main/expert/consultations/${id}/accept`, { token: expertToken, body: {} })
    await api(`/main/expert/consultations/${id}/answer`, {
      token: expertToken,
      body: {
        consultationId: id,
        clientId: `e2e-answer-${Date.now()}`,
        opinion: '右肺小结节考虑良性可能大，建议 12 个月后复查低剂量 CT。',
        password: 'demo1234',
      },
    })
    await page.goto(`${BASE_URL}/pages/question/question?id=${id}`)
    await view(page).getByText('申请内容').waitFor()
    await settle(page)
    await screenshot(page, 'consult-detail-answered')
    await looksRight(page, '咨询详情（已回复）')
    await api(`/main/consultations/${id}/adopt`, { token, body: { consultationId: id } })
    await page.reload()
    await view(page).getByText('申请内容').waitFor()
    await settle(page)
    await screenshot(page, 'consult-detail-completed')
    await view(page).locator('.consult-detail__button', { hasText: '评价' }).click()
    await page.getByText('提交评价').waitFor()
    await page.getByLabel('5 星').click()
    await page.getByText('解答详细').click()
    await settle(page)
    await screenshot(page, 'consult-rating-sheet')
    await page.locator('.nut-button', { hasText: '提交评价' }).click()
    await view(page).getByText('我的评价').waitFor()
    await settle(page)
    assert.equal(
      await view(page).locator('.consult-detail__button', { hasText: '评价' }).count(),
      0,
    )
    await view(page)
      .getByText('公开到专家主页')
      .evaluate((element) => element.scrollIntoView({ block: 'center' }))
    await page.waitForTimeout(300)
    await screenshot(page, 'consult-detail-rated')
  })

  it('影像会诊 without an exam says so on 检查信息', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/consult/examine?expertId=${expertId}&service=imaging`)
    await view(page).locator('.consult-record').first().waitFor()
    await view(page).locator('.consult-bar__button').click()
    await view(page).getByText('影像会诊需要至少选择一项影像检查').first().waitFor()
    await settle(page)
    await screenshot(page, 'consult-examine-imaging')
    assert.match(page.url(), /consult\/examine/)
  })
})
