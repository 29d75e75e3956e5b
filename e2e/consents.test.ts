import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import {
  PATIENT,
  acceptedConsultation,
  api,
  confirmModal,
  quietScreenshot,
} from './experts-support'
import { BASE_URL, openPhone, settle, signIn, view, type Phone } from './support'

/**
 * Issue 24, 隐私与授权, at 390×844: the demo patient has just consulted the demo expert about one
 * of her exams (set up through the API, as e2e/exam-request does). From 我的 → 设置 → 隐私与授权 she
 * finds that consultation's sharing consent at the top of 会诊资料共享, reads its record, withdraws
 * it, and from that request on the expert's reads through the grant are answered 授权已失效.
 */

const EXPERT = { mobile: '13900000002', password: 'demo1234' }
const EXPERT_NAME = '演示专家'

interface Page1<T> {
  items: T[]
}

describe('issue 24: withdrawing a consultation’s sharing consent ends its grant', () => {
  let phone: Phone
  let patientToken: string
  let expertToken: string
  let consultationId: string
  let grantId: string
  let examTitle: string

  before(async () => {
    phone = await openPhone({ width: 390, height: 844 })
    patientToken = await signIn(phone, PATIENT)
    expertToken = (
      await api<{ access_token: string }>('/sso/oauth2/token', {
        body: { grant_type: 'password', username: EXPERT.mobile, password: EXPERT.password },
      })
    ).access_token
    const experts = await api<Page1<{ id: string; name: string }>>('/main/experts?pageSize=50')
    const demo = experts.items.find((one) => one.name === EXPERT_NAME)
    assert.ok(demo, `${EXPERT_NAME} is in 找专家`)
    let exam: { id: string; title: string } | undefined
    for (let i = 0; i < 240 && !exam; i++) {
      const exams = await api<Page1<{ id: string; status: string; title: string }>>(
        '/image/exams?pageSize=50',
        {
          token: patientToken,
        },
      )
      exam = exams.items.find((one) => one.status === 'ready')
      if (!exam) await new Promise((resolve) => setTimeout(resolve, 500))
    }
    assert.ok(exam, 'the demo patient has an exam')
    examTitle = exam.title
    consultationId = await acceptedConsultation({
      patientToken,
      expertToken,
      expertId: demo.id,
      service: 'text',
      examId: exam.id,
      chiefComplaint: '体检发现肺结节，想请专家看看',
      presentIllness: '无不适',
      questions: '需要复查吗？',
    })
    const detail = await api<{ grant: { id: string; status: string } }>(
      `/main/consultations/${consultationId}`,
      { token: patientToken },
    )
    grantId = detail.grant.id
    assert.equal(detail.grant.status, 'active')
    const shared = await fetch(`${BASE_URL}/main/shared/${grantId}`, {
      headers: { authorization: `Bearer ${expertToken}` },
    })
    assert.equal(shared.status, 200, 'the expert reads the shared records before')
  })

  after(async () => {
    await phone?.close()
  })

  it('我的 → 设置 → 隐私与授权 → 会诊资料共享 → 撤回; the expert is answered 授权已失效', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/main/main`)
    await page.locator('.weui-tabbar').getByText('我的').click()
    await settle(page)
    await view(page).locator('.nut-cell', { hasText: '设置' }).first().click()
    await page.waitForURL(/\/pages\/(user\/)?setup\/?/)
    await settle(page)
    await view(page).locator('.nut-cell', { hasText: '隐私与授权' }).click()
    await page.waitForURL(/\/pages\/user\/privacy/)
    await view(page).getByText('会诊资料共享').first().waitFor()
    await settle(page)
    await quietScreenshot(page, 'consents-list')

    // The newest consent of the group is this consultation's (rows are newest first).
    const group = view(page).locator('.consents__group', { hasText: '会诊资料共享' })
    const card = group.locator('.consents__item').first()
    await card.getByText(`向 ${EXPERT_NAME} 共享 ${examTitle}`).waitFor()
    await card.getByText('已同意').waitFor()
    await card.getByText(/^查看记录（1）$/).click()
    await card.getByText(/会诊申请信息 · 同意并提交/).waitFor()
    await card
      .locator('.nut-button', { hasText: '撤回' })
      .evaluate((element) => element.scrollIntoView({ block: 'center' }))
    await quietScreenshot(page, 'consents-history')
    await card.locator('.nut-button', { hasText: '撤回' }).click()
    await page
      .locator('.taro-modal__content')
      .getByText(/撤回后专家立即不能再查看这些资料/)
      .waitFor()
    await quietScreenshot(page, 'consents-withdraw-confirm')
    await confirmModal(page, '撤回')
    await card.getByText('已撤回').waitFor()
    await card.getByText(/隐私与授权 · 撤回/).waitFor()
    await quietScreenshot(page, 'consents-withdrawn')

    const detail = await api<{ grant: { status: string; statusLabel: string } }>(
      `/main/consultations/${consultationId}`,
      { token: patientToken },
    )
    assert.equal(detail.grant.status, 'revoked')
    const shared = await fetch(`${BASE_URL}/main/shared/${grantId}`, {
      headers: { authorization: `Bearer ${expertToken}` },
    })
    assert.equal(shared.status, 403)
    assert.equal(((await shared.json()) as { error: string }).error, '授权已失效')
  })
})
