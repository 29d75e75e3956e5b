import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Page } from 'playwright-core'
import { BASE_URL, openPhone, screenshot, settle, signIn, view, type Phone } from './support'

/**
 * Issue 20's review in 运营后台, at 390×844: an applicant (a new account, through the API) binds an
 * ID card, saves the form, uploads the two certificate photos and submits; the demo operator goes
 * 我的 → 运营后台 → 专家认证, opens the application (fields beside the photos, fetched with the
 * token; the registry step), rejects it with a reason; the applicant fixes it and submits again;
 * the operator approves it. The queue shows what is waiting, and not what was decided.
 */

const PHONE_390 = { width: 390, height: 844 }
const OPERATOR = { mobile: '13700000003', password: 'demo1234' }
const PASSWORD = 'Expert2026'
const REGISTRY_STEP =
  '在国家卫生健康委员会「医生执业注册信息查询」（https://zwfw.nhc.gov.cn）按姓名、证书编码核对执业地点、类别、范围'
const PRACTICE_NO = '110101198001011'
const QUALIFICATION_NO = '199811110101198001011234567'
const REASON = '执业证书注册页照片不清楚，请重新拍摄后提交'

interface Envelope<T> {
  code: number
  data: T
  error?: string | null
}

async function api<T>(
  url: string,
  init: { method?: string; body?: unknown; token?: string } = {},
): Promise<T> {
  const response = await fetch(`${BASE_URL}${url}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
  const text = await response.text()
  assert.equal(response.status, 200, `${url}: ${text}`)
  return (JSON.parse(text) as Envelope<T>).data
}

async function latestSms(mobile: string): Promise<string> {
  for (let i = 0; i < 40; i += 1) {
    const response = await fetch(`${BASE_URL}/main/demo/sms/latest?mobile=${mobile}`)
    if (response.ok) {
      const body = (await response.json()) as Envelope<{ code: string; purpose: string }>
      if (body.data.purpose === 'register') return body.data.code
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`no register code for ${mobile} in the demo outbox`)
}

/** 林 and the clock's last five digits in Chinese (林三七零九二): the name on this run's ID card. */
function runName(): string {
  const digits = [...String(Date.now() % 100_000).padStart(5, '0')]
  return `林${digits.map((digit) => '零一二三四五六七八九'[Number(digit)]).join('')}`
}

/** A resident ID number with a valid check character (GB 11643). */
function idNumber(): string {
  const body = `11010119800101${String(100 + Math.floor(Math.random() * 800))}`
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
  const sum = [...body].reduce((total, digit, i) => total + Number(digit) * weights[i]!, 0)
  return body + '10X98765432'[sum % 11]!
}

/** A new account, registered with the demo outbox's code; answers its access token. */
async function registerApplicant(mobile: string): Promise<string> {
  await api('/sso/sms/send', { method: 'POST', body: { mobile, purpose: 'register' } })
  await api('/sso/register', {
    method: 'POST',
    body: { mobile, code: await latestSms(mobile), password: PASSWORD, agreed: true },
  })
  const session = await api<{ access_token: string }>('/sso/oauth2/token', {
    method: 'POST',
    body: { grant_type: 'password', username: mobile, password: PASSWORD },
  })
  return session.access_token
}

/** A synthetic certificate page (marked 演示), drawn by the browser as a JPEG. */
async function certificatePhoto(page: Page, title: string): Promise<Buffer> {
  const html = `<body style="margin:0;background:#f4ecd8;font-family:sans-serif">
    <div style="margin:24px;padding:24px;border:6px double #8b5a2b;height:360px;color:#5b3a1a">
      <h1 style="text-align:center;font-size:34px;margin:8px 0 24px">医师执业证书（演示）</h1>
      <p style="font-size:22px">${title}</p>
      <p style="font-size:20px">证书编码：${PRACTICE_NO}</p>
      <p style="font-size:20px">执业类别：临床，执业范围：医学影像和放射治疗专业</p>
      <p style="font-size:18px;color:#a33">本图为测试生成的演示图片，不是真实证书</p>
    </div></body>`
  const data = `data:text/html;charset=utf-8,${encodeURIComponent(html)}`
  const sheet = await page.context().newPage()
  await sheet.setViewportSize({ width: 640, height: 460 })
  await sheet.goto(data)
  const jpeg = await sheet.screenshot({ type: 'jpeg', quality: 85 })
  await sheet.close()
  return jpeg
}

async function uploadPhoto(token: string, kind: string, jpeg: Buffer): Promise<void> {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), `${kind}.jpg`)
  const response = await fetch(`${BASE_URL}/main/experts/application/photos?kind=${kind}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  })
  assert.equal(response.status, 200, await response.text())
}

async function submit(token: string): Promise<string> {
  const agreement = await api<{ version: string }>('/main/app/agreements/expert')
  const application = await api<{ id: string; status: string }>(
    '/main/experts/application/submit',
    { method: 'POST', token, body: { agreementVersion: agreement.version } },
  )
  assert.equal(application.status, 'pending')
  return application.id
}

/** The queue row of this applicant, if the list shows it. */
function queueRow(page: Page, name: string) {
  return view(page).locator('.operator__row', { hasText: name })
}

async function openQueue(page: Page, status: '待审核' | '已认证' | '已驳回'): Promise<void> {
  await view(page).locator('[role=tab]', { hasText: '专家认证' }).click()
  await view(page).locator('[role=radio]', { hasText: status }).click()
  await page.waitForLoadState('networkidle')
  await settle(page)
}

/** A picture without the action's toast over it (drawn outside the pages; it lasts 1.5 s). */
async function quietScreenshot(page: Page, name: string): Promise<void> {
  await page.waitForFunction(() =>
    Array.from(document.querySelectorAll<HTMLElement>('.taro__toast')).every(
      (toast) => getComputedStyle(toast).display === 'none',
    ),
  )
  await screenshot(page, name)
}

async function confirmModal(page: Page, button: string): Promise<void> {
  await page.locator('.taro-modal__foot').getByText(button, { exact: true }).click()
}

describe('expert certification reviewed in 运营后台', () => {
  let operator: Phone
  let token: string
  let applicationId: string
  const mobile = `135${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`
  // A name of this run's own, so the queue row is this applicant's even in a database that
  // earlier runs used.
  const name = runName()

  before(async () => {
    operator = await openPhone(PHONE_390)
    await signIn(operator, OPERATOR)
    token = await registerApplicant(mobile)
    await api('/main/account/idcard', {
      method: 'POST',
      token,
      body: { realName: name, idCard: idNumber() },
    })
    const hospitals = await api<{ id: string; name: string }[]>('/sso/hospitals')
    const hospital = hospitals.find((item) => item.name === '示例市第一人民医院') ?? hospitals[0]!
    await api('/main/experts/application', {
      method: 'POST',
      token,
      body: {
        hospitalId: hospital.id,
        department: '放射科',
        title: 'attending',
        practiceCertificateNo: PRACTICE_NO,
        qualificationCertificateNo: QUALIFICATION_NO,
        practiceCategory: 'clinical',
        practiceScope: '医学影像和放射治疗专业',
        specialities: ['肺结节', '胸部影像'],
        introduction: '从事胸部影像诊断十年（演示）。',
      },
    })
    await uploadPhoto(token, 'practice-info', await certificatePhoto(operator.page, '信息页'))
    await uploadPhoto(
      token,
      'practice-registration',
      await certificatePhoto(operator.page, '注册页'),
    )
    applicationId = await submit(token)
  })
  after(async () => {
    await operator.close()
  })

  it('the operator finds it in the queue from 我的 → 运营后台 → 专家认证', async () => {
    const { page } = operator
    await page.goto(`${BASE_URL}/pages/user/user`)
    await view(page).locator('.nut-cell', { hasText: '运营后台' }).click()
    await view(page).locator('[role=tab]', { hasText: '专家认证' }).click()
    const row = queueRow(page, name)
    await row.waitFor()
    const text = await row.innerText()
    assert.match(text, /示例市第一人民医院 · 放射科 · 主治医师/)
    assert.match(text, /待审核/)
    assert.match(text, /提交于 \d{4}-\d{2}-\d{2} \d{2}:\d{2}/)
    await screenshot(page, 'experts-queue')
  })

  it('the application shows its fields beside its photos and the registry step; 驳回 needs a reason', async () => {
    const { page } = operator
    await queueRow(page, name).click()
    await view(page).getByText(REGISTRY_STEP).waitFor()
    assert.ok(page.url().includes(`id=${applicationId}`))
    for (const text of [PRACTICE_NO, QUALIFICATION_NO, '医学影像和放射治疗专业', '临床']) {
      await view(page).getByText(text, { exact: true }).first().waitFor()
    }
    // Both photos arrive with the operator's token (they are never public).
    const images = view(page).locator('.expert-review__photos img')
    await images.nth(1).waitFor()
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll<HTMLImageElement>('.expert-review__photos img')).every(
        (image) => image.complete && image.naturalWidth > 0,
      ),
    )
    assert.equal(await images.count(), 2)
    await screenshot(page, 'experts-application')
    // 驳回 without a reason is refused in the contract's words, before any request.
    await view(page)
      .locator('.nut-button', { hasText: /^驳回$/ })
      .click()
    await view(page).getByText('请填写驳回原因，申请人会看到它').first().waitFor()
    await view(page).locator('.nut-button', { hasText: '复制查询网址' }).scrollIntoViewIfNeeded()
    await screenshot(page, 'experts-application-decision')
  })

  it('a tap on a photo opens it large', async () => {
    const { page } = operator
    await view(page).getByLabel('查看大图：执业证书信息页').click()
    const preview = page.locator('.taro-preview-image, .preview-image')
    await preview.first().waitFor()
    await quietScreenshot(page, 'experts-photo-preview')
    await preview.first().click()
    await preview.first().waitFor({ state: 'detached' })
  })

  it('the operator rejects it with a reason; it leaves the queue', async () => {
    const { page } = operator
    await view(page).locator('textarea').fill(REASON)
    await view(page)
      .locator('.nut-button', { hasText: /^驳回$/ })
      .click()
    await confirmModal(page, '驳回')
    await view(page).getByText(`驳回原因：${REASON}`).waitFor()
    await view(page).getByText('已驳回', { exact: true }).first().waitFor()
    await quietScreenshot(page, 'experts-rejected')
    await view(page).locator('.nut-button', { hasText: '返回审核队列' }).click()
    await openQueue(page, '待审核')
    assert.equal(await queueRow(page, name).count(), 0, 'a rejected application is not waiting')
    await openQueue(page, '已驳回')
    await queueRow(page, name).waitFor()
  })

  it('the applicant fixes and resubmits; the operator approves; it leaves the queue', async () => {
    const { page } = operator
    const mine = await api<{ status: string; rejectReason: string | null }>(
      '/main/experts/application',
      { token },
    )
    assert.equal(mine.status, 'rejected')
    assert.equal(mine.rejectReason, REASON)
    await uploadPhoto(
      token,
      'practice-registration',
      await certificatePhoto(page, '注册页（重新拍摄）'),
    )
    assert.equal(await submit(token), applicationId)

    await openQueue(page, '待审核')
    await queueRow(page, name).click()
    await view(page).getByText(REGISTRY_STEP).waitFor()
    // The earlier photo and the new one of the registration page.
    await view(page).locator('.expert-review__photos img').nth(2).waitFor()
    await view(page).locator('.nut-button', { hasText: '通过认证' }).click()
    await confirmModal(page, '通过')
    await view(page)
      .getByText(/^已通过认证（/)
      .waitFor()
    await quietScreenshot(page, 'experts-approved')
    await view(page).locator('.nut-button', { hasText: '返回审核队列' }).click()
    await openQueue(page, '待审核')
    assert.equal(await queueRow(page, name).count(), 0, 'an approved application is not waiting')
    await openQueue(page, '已认证')
    await queueRow(page, name).waitFor()
    await screenshot(page, 'experts-queue-approved')
    const profile = await api<{ role: string }>('/main/account/profile', { token })
    assert.equal(profile.role, 'expert', 'approval makes the applicant an expert')
    assert.deepEqual(operator.errors, [], 'no console error or failed request on the way')
  })
})
