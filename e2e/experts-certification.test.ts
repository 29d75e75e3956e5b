import assert from 'node:assert/strict'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Page } from 'playwright-core'
import { BASE_URL, openPhone, screenshot, signIn, view, type Phone } from './support'

/**
 * 专家认证, the applicant's side (issue 20): a new patient starts from 我的, is told to bind an ID
 * card first and does, fills the form (hospital from 选择医院, its department, title, certificate
 * numbers, specialities, the two certificate photos), is stopped until the agreement is ticked,
 * submits and sees 待审核, on the page and on 我的. The operator's review is another test's.
 */

const PASSWORD = 'Expert2026'
const PHOTO = path.resolve(__dirname, '../server/src/domain/content/demo/media/talk-ct.jpg')
const PHONE_SIZE = { width: 390, height: 844 }

interface Envelope<T> {
  code: number
  data: T
}

async function api<T>(url: string, body?: unknown): Promise<{ status: number; body: Envelope<T> }> {
  const response = await fetch(`${BASE_URL}${url}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as Envelope<T> }
}

async function latestSms(mobile: string): Promise<string> {
  for (let i = 0; i < 40; i += 1) {
    const { status, body } = await api<{ code: string; purpose: string }>(
      `/main/demo/sms/latest?mobile=${mobile}`,
    )
    if (status === 200 && body.data.purpose === 'register') return body.data.code
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`no register code for ${mobile} in the demo outbox`)
}

/** A new account, registered as a user does (a code from the demo outbox): no card, no application. */
async function register(): Promise<string> {
  const mobile = `135${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`
  const sent = await api('/sso/sms/send', { mobile, purpose: 'register' })
  assert.equal(sent.status, 200, JSON.stringify(sent.body))
  const code = await latestSms(mobile)
  const done = await api('/sso/register', { mobile, code, password: PASSWORD, agreed: true })
  assert.equal(done.status, 200, JSON.stringify(done.body))
  return mobile
}

/** A resident ID number with a valid check character (GB 11643). */
function idNumber(): string {
  const body = `110101198${Math.floor(Math.random() * 10)}0512${String(100 + Math.floor(Math.random() * 800))}`
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
  const sum = [...body].reduce((total, digit, i) => total + Number(digit) * weights[i]!, 0)
  return body + '10X98765432'[sum % 11]!
}

async function type(page: Page, placeholder: string, value: string): Promise<void> {
  const input = view(page).locator(`input[placeholder="${placeholder}"]`)
  await input.fill('')
  await input.pressSequentially(value)
}

/** A NutUI button by its text (its label sits in an inner span the button itself covers). */
function button(page: Page, text: string) {
  return view(page).locator('.nut-button', { hasText: text })
}

/**
 * A certificate photo: the add tile, then 从相册选择 on the browser build's sheet (拍摄 / 从相册选择),
 * whose tap opens the file dialog, taken as Playwright's filechooser event.
 */
async function uploadPhoto(page: Page, kindLabel: string): Promise<void> {
  await view(page).locator(`[aria-label="上传${kindLabel}"]`).click()
  const album = page.locator('.taro__actionSheet div', { hasText: /^从相册选择$/ })
  await album.waitFor()
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), album.click()])
  await chooser.setFiles(PHOTO)
  await view(page).locator(`[aria-label="删除${kindLabel}第 1 张"]`).waitFor()
}

describe('专家认证: a patient applies', () => {
  let phone: Phone

  before(async () => {
    const mobile = await register()
    phone = await openPhone(PHONE_SIZE)
    await signIn(phone, { mobile, password: PASSWORD })
  })
  after(async () => {
    await phone.close()
  })

  it('from 我的, binds the ID card the page asks for first', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/user/user`)
    await view(page).locator('.nut-cell', { hasText: '申请成为专家' }).click()
    await view(page).getByText('成为医影通认证专家').waitFor()
    await view(page).getByText('请先绑定本人身份证：认证的姓名以身份证为准').waitFor()
    await screenshot(page, 'experts-intro-no-idcard')

    await button(page, '去绑定身份证').click()
    await view(page).getByText('提交认证').waitFor()
    await type(page, '与身份证一致', '陈认证')
    await type(page, '18 位居民身份证号', idNumber())
    await view(page).locator('.form-submit').click()
    await view(page).locator('.idcard-card__badge', { hasText: '已绑定' }).waitFor()
    await page.goBack()
    await view(page).getByText('开始认证').waitFor()
    await view(page)
      .getByText('请先绑定本人身份证', { exact: false })
      .waitFor({ state: 'detached' })
  })

  it('fills the form: hospital from 选择医院, department, numbers, specialities, photos', async () => {
    const { page } = phone
    await button(page, '开始认证').click()
    await view(page).getByText('执业信息').waitFor()
    await screenshot(page, 'experts-form-empty')

    // Nothing filled: each field says what it needs, in the contract's words.
    await button(page, '提交审核').click()
    await view(page).getByText('请选择医院').waitFor()
    await view(page).getByText('请上传执业证书信息页和注册页照片').waitFor()
    await screenshot(page, 'experts-form-errors')

    await view(page).locator('[aria-label="选择医院"]').click()
    await view(page).getByText('找不到我的医院？').waitFor()
    await view(page).getByText('演示').first().waitFor()
    await screenshot(page, 'experts-select-hospital')
    await view(page).locator('.select-hospital__search input').fill('第一人民')
    await view(page).locator('.select-hospital__name', { hasText: '示例市第一人民医院' }).click()

    await view(page).getByText('示例市第一人民医院').waitFor()
    await view(page).locator('[aria-label="选择科室"]').click()
    await page.locator('.cert-sheet__item:visible', { hasText: '放射科' }).click()
    await view(page).locator('[aria-label="科室：放射科，点击更换"]').waitFor()
    await view(page).locator('.cert-chip', { hasText: '主治医师' }).click()
    await type(page, '见执业证书信息页', '110101200112345')
    await type(page, '见医师资格证书', '200111110101123456789012345')
    await view(page).locator('.cert-chip', { hasText: '临床' }).click()
    await type(page, '与执业证书一致，如 医学影像和放射治疗专业', '医学影像和放射治疗专业')
    await view(page).locator('.cert-tag', { hasText: '胸部影像' }).click()
    await view(page)
      .locator('.cert-tag', { hasText: /^肺结节$/ })
      .click()
    await view(page).locator('textarea').fill('从事胸部影像诊断十余年，擅长肺结节的随访与鉴别。')
    await uploadPhoto(page, '执业证书信息页')
    await uploadPhoto(page, '执业证书注册页')
    await screenshot(page, 'experts-form-filled')
  })

  it('waits for the agreement, then submits and sees 待审核, on the page and on 我的', async () => {
    const { page } = phone
    await button(page, '提交审核').click()
    await view(page).getByText('请阅读并同意《专家服务协议》').waitFor()
    assert.equal(await view(page).locator('.cert-status').count(), 0)
    await view(page).getByText('我已阅读并同意').click()
    await button(page, '提交审核').click()
    await view(page).locator('.cert-status__label', { hasText: '待审核' }).waitFor()
    await view(page).getByText('撤回申请').waitFor()
    await view(page).getByText('110101200112345').waitFor()
    await screenshot(page, 'experts-pending')

    await page.goto(`${BASE_URL}/pages/user/user`)
    const entry = view(page).locator('.nut-cell', { hasText: '专家认证' })
    await entry.getByText('待审核').waitFor()
    await screenshot(page, 'experts-mine-pending')
  })
})
