import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { launchChromium } from '../scripts/lib/browser'
import { BASE_URL, openPhone, screenshot, type Phone } from './support'

/**
 * Accounts as a new person meets them, in a phone browser against the demo server: register with a
 * code from the demo SMS outbox, fill reg-info, log out, log in, change the password (a second phone
 * signed in earlier is sent to login), scan-login a desktop, delete the account, and register again.
 */

const PASSWORD = 'Yingxiang2026'
const NEW_PASSWORD = 'Yingxiang2027'
const NICKNAME = '测试用户'
/** The server allows one code per phone per minute (whatever the purpose). */
const SMS_COOLDOWN_MS = 61_000

interface Envelope<T> {
  code: number
  data: T
  error: string | null
}

interface Outbox {
  code: string
  purpose: string
  sentAt: string
}

function randomMobile(): string {
  return `137${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`
}

async function api<T>(
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; body: Envelope<T> }> {
  const response = await fetch(`${BASE_URL}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers ?? {}) },
  })
  return { status: response.status, body: (await response.json()) as Envelope<T> }
}

async function latestSms(mobile: string, purpose: string): Promise<Outbox> {
  for (let i = 0; i < 20; i += 1) {
    const { status, body } = await api<Outbox>(`/main/demo/sms/latest?mobile=${mobile}`)
    if (status === 200 && body.data.purpose === purpose) return body.data
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`no ${purpose} code for ${mobile} in the demo outbox`)
}

/** Waits out the per-phone cooldown since the last code, so the next send is not refused. */
async function waitForCooldown(mobile: string): Promise<void> {
  const { status, body } = await api<Outbox>(`/main/demo/sms/latest?mobile=${mobile}`)
  if (status !== 200) return
  const wait = Date.parse(body.data.sentAt) + SMS_COOLDOWN_MS - Date.now()
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
}

/** Inputs and buttons of the page on screen (Taro keeps earlier pages hidden in the document). */
function field(page: Page, placeholder: string) {
  return page.locator(`.taro_page:visible input[placeholder="${placeholder}"]`)
}

function visible(page: Page, selector: string) {
  return page.locator(`.taro_page:visible ${selector}`)
}

/** The stored token (Taro's H5 storage wraps each value as `{ data }`). */
async function accessToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => {
    const raw = localStorage.getItem('yx-session')
    if (!raw) return null
    const outer = JSON.parse(raw) as { data?: unknown }
    const persisted = (typeof outer.data === 'string' ? JSON.parse(outer.data) : outer) as {
      state?: { token?: { access_token?: string } | null }
    }
    return persisted.state?.token?.access_token ?? null
  })
  assert.ok(token, 'a token is stored')
  return token
}

function shows(page: Page, text: string) {
  return page.locator('.taro_page:visible').getByText(text).first()
}

async function logInWithPassword(page: Page, mobile: string, password: string): Promise<void> {
  await field(page, '请输入手机号').fill(mobile)
  await field(page, '请输入密码').fill(password)
  await visible(page, '.auth-agreement__text').first().click()
  await visible(page, '.form-submit').click()
}

async function sendCode(page: Page, mobile: string, purpose: string): Promise<string> {
  await visible(page, '.form-code-button').click()
  await visible(page, '.form-code-button--disabled').waitFor()
  return (await latestSms(mobile, purpose)).code
}

/** Errors a person would notice; refusals the flow provokes on purpose (400, 401) are expected. */
function unexpected(errors: string[]): string[] {
  return errors.filter(
    (error) =>
      !/^(400|401) /.test(error) &&
      !error.includes('status of 400') &&
      !error.includes('status of 401'),
  )
}

describe('accounts, as a new person', { timeout: 300_000 }, () => {
  const mobile = randomMobile()
  let phone: Phone
  let second: Phone

  before(async () => {
    phone = await openPhone()
    second = await openPhone()
  })
  after(async () => {
    await phone.close()
    await second.close()
  })

  it('shows the user and expert agreements served by the server', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/agreement/agreement`)
    await visible(page, '.agreement-doc__paragraph').first().waitFor()
    await screenshot(page, 'auth-user-agreement')
    await page.goto(`${BASE_URL}/pages/agreement/expertAgreement`)
    await visible(page, '.agreement-doc__paragraph').first().waitFor()
    await screenshot(page, 'auth-expert-agreement')
  })

  it('checks the registration form as it is typed', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/reg/reg`)
    await field(page, '请输入手机号').fill('1181')
    await page.getByText('请输入正确的 11 位手机号').waitFor()
    await field(page, '8 位以上字母和数字').fill('abc')
    await page.getByText('密码至少 8 位，需同时包含字母和数字').waitFor()
    await page.getByText('密码强度：弱').waitFor()
    await visible(page, '.form-submit').click()
    await page.getByText('请输入验证码').first().waitFor()
    await screenshot(page, 'auth-register-errors')
  })

  it('registers with a code from the demo outbox and fills reg-info', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/reg/reg`)
    await field(page, '请输入手机号').fill(mobile)
    const code = await sendCode(page, mobile, 'register')
    await page.getByText(/重新获取\(\d+s\)/).waitFor()
    await field(page, '请输入验证码').fill(code)
    await field(page, '8 位以上字母和数字').fill(PASSWORD)
    await page.getByText('密码强度：强').waitFor()
    await visible(page, '.auth-agreement__text').first().click()
    await screenshot(page, 'auth-register')
    await visible(page, '.form-submit').click()
    await page.waitForURL(/\/pages\/reg\/reg-info/)
    await field(page, '请输入昵称').waitFor()
    await screenshot(page, 'auth-reg-info')
    await field(page, '请输入昵称').fill(NICKNAME)
    await visible(page, '.nut-radio').filter({ hasText: '女' }).click()
    await visible(page, '.form-submit').click()
    await page.waitForURL(/\/pages\/user\/user/)
    await shows(page, NICKNAME).waitFor()
    await screenshot(page, 'auth-mine-signed-in')
  })

  it('logs out', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/user/setup`)
    const button = visible(page, '.setup__logout .nut-button')
    if (await button.isVisible({ timeout: 5000 }).catch(() => false)) {
      await button.click()
      await screenshot(page, 'auth-setup-signed-in')
      await page.locator('.taro-modal__foot').getByText('退出', { exact: true }).click()
      await page.waitForFunction(
        () => !localStorage.getItem('yx-session')?.includes('access_token'),
      )
    } else {
      // The settings page is not built yet: revoke through the API and forget the session.
      const token = await accessToken(page)
      const { status } = await api('/main/account/logout', {
        method: 'POST',
        body: '{}',
        headers: { authorization: `Bearer ${token}` },
      })
      assert.equal(status, 200)
      await page.evaluate(() => localStorage.clear())
    }
    await page.goto(`${BASE_URL}/pages/user/user`)
    await page.getByText('登录 / 注册').waitFor()
  })

  it('logs in with the password, after the agreement is ticked', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/login/login`)
    await field(page, '请输入手机号').fill(mobile)
    await field(page, '请输入密码').fill(PASSWORD)
    await visible(page, '.form-submit').click()
    await page.getByText('请先阅读并同意《用户协议》和《隐私政策》').first().waitFor()
    await screenshot(page, 'auth-login-agreement-required')
    await visible(page, '.auth-agreement__text').first().click()
    await visible(page, '.form-submit').click()
    await page.waitForURL(/\/pages\/user\/user/)
    await shows(page, NICKNAME).waitFor()
  })

  it('changes the password; a phone signed in before is sent to login', async () => {
    // The second phone signs in first, with the old password.
    await second.page.goto(`${BASE_URL}/pages/login/login`)
    await logInWithPassword(second.page, mobile, PASSWORD)
    await second.page.waitForURL(/\/pages\/user\/user/)

    const { page } = phone
    await page.goto(`${BASE_URL}/pages/pwd/pwd`)
    await field(page, '请输入原密码').fill(PASSWORD)
    await field(page, '8 位以上字母和数字').fill(NEW_PASSWORD)
    await field(page, '请再次输入新密码').fill(`${NEW_PASSWORD}x`)
    await page.getByText('两次输入的密码不一致').waitFor()
    await field(page, '请再次输入新密码').fill(NEW_PASSWORD)
    await screenshot(page, 'auth-change-password')
    await visible(page, '.form-submit').click()
    await page.getByText('密码已修改，其他设备已退出登录').waitFor()
    const fresh = await accessToken(page)
    assert.equal(
      (await api('/main/account/profile', { headers: { authorization: `Bearer ${fresh}` } }))
        .status,
      200,
    )

    // The second phone's session is gone: its next call answers 401, and it lands on login.
    const { page: other } = second
    await other.goto(`${BASE_URL}/pages/pwd/pwd`)
    await field(other, '请输入原密码').fill(PASSWORD)
    await field(other, '8 位以上字母和数字').fill('Another2028')
    await field(other, '请再次输入新密码').fill('Another2028')
    await visible(other, '.form-submit').click()
    await other.waitForURL(/\/pages\/login\/login\?autoLogin=1/)
    await other.getByText('登录已过期，请重新登录').waitFor()
    await screenshot(other, 'auth-login-expired')
    // Logging in again returns to the page the person was on.
    await logInWithPassword(other, mobile, NEW_PASSWORD)
    await other.waitForURL(/\/pages\/pwd\/pwd/)
  })

  it('logs a desktop browser in by scanning its QR code', async () => {
    const browser: Browser = await launchChromium()
    try {
      const desktop = await browser.newPage({
        viewport: { width: 1280, height: 800 },
        locale: 'zh-CN',
      })
      const created = desktop.waitForResponse(
        (response) =>
          response.url().endsWith('/main/account/qr') && response.request().method() === 'POST',
      )
      await desktop.goto(`${BASE_URL}/pages/login/login`)
      const { data } = (await (await created).json()) as Envelope<{ id: string; content: string }>
      await desktop.locator('.qr-login__image img').waitFor()
      await desktop.getByText('请使用医影通 App 或小程序扫码登录').waitFor()
      await screenshot(desktop, 'auth-desktop-qr')
      // The phone scans the code (its content names the request) and confirms through the server.
      assert.ok(data.content.endsWith(data.id))
      const id = data.id
      const token = await accessToken(phone.page)
      const auth = { authorization: `Bearer ${token}` }
      // As the in-app scanner does: the decoded text, and the confirm ticket it answers.
      const scanned = await api<{ ticket: string }>(`/main/account/qr/${id}/scan`, {
        method: 'POST',
        body: JSON.stringify({ source: 'scanner', content: data.content }),
        headers: auth,
      })
      assert.equal(scanned.status, 200)
      await desktop.getByText('已扫码，请在手机上确认').waitFor()
      await screenshot(desktop, 'auth-desktop-qr-scanned')
      const answer = await api(`/main/account/qr/${id}/answer`, {
        method: 'POST',
        body: JSON.stringify({ approve: true, ticket: scanned.body.data.ticket }),
        headers: auth,
      })
      assert.equal(answer.status, 200)
      await desktop.waitForURL(/\/pages\/user\/user/, { timeout: 5000 })
      await shows(desktop, NICKNAME).waitFor()
    } finally {
      await browser.close()
    }
  })

  it('resets a forgotten password with a code', async () => {
    const { page } = second
    await page.goto(`${BASE_URL}/pages/pwd/pwd?mode=forgot`)
    await field(page, '请输入注册手机号').waitFor()
    await screenshot(page, 'auth-forgot-password')
  })

  it('deletes the account: login then fails and the phone can register again', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/delAccount/delAccount`)
    await page.getByText('注销后将删除').waitFor()
    await screenshot(page, 'auth-delete-account')
    await waitForCooldown(mobile)
    const code = await sendCode(page, mobile, 'delete')
    await field(page, '请输入验证码').fill(code)
    await visible(page, '.form-submit').click()
    await page.getByText('请先阅读并勾选“我已阅读并同意注销”').first().waitFor()
    await page.getByText('我已阅读并同意注销', { exact: true }).click()
    await visible(page, '.form-submit').click()
    await page.locator('.taro-modal__foot').getByText('确定注销', { exact: true }).click()
    await page.waitForURL(/\/pages\/main\/main|\/$/)
    assert.equal(
      await page.evaluate(
        () => localStorage.getItem('yx-session')?.includes('access_token') ?? false,
      ),
      false,
    )

    await page.goto(`${BASE_URL}/pages/login/login`)
    await logInWithPassword(page, mobile, NEW_PASSWORD)
    await visible(page, '.form-error').waitFor()
    await screenshot(page, 'auth-login-after-deletion')
    assert.match(page.url(), /\/pages\/login\/login/)

    await waitForCooldown(mobile)
    const sent = await api('/sso/sms/send', {
      method: 'POST',
      body: JSON.stringify({ mobile, purpose: 'register' }),
    })
    assert.equal(sent.status, 200)
    const again = await api<{ access_token: string }>('/sso/register', {
      method: 'POST',
      body: JSON.stringify({
        mobile,
        code: (await latestSms(mobile, 'register')).code,
        password: PASSWORD,
        agreed: true,
      }),
    })
    assert.equal(again.status, 200)
  })

  it('showed no unexpected errors', () => {
    assert.deepEqual(unexpected(phone.errors), [])
    assert.deepEqual(unexpected(second.errors), [])
  })
})
