import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Page } from 'playwright-core'
import { launchChromium } from '../scripts/lib/browser'
import { PASSWORD, register } from './experts-support'
import { ARTIFACTS, BASE_URL, openPhone, screenshot, signIn, view, type Phone } from './support'

/**
 * The settings, profile and scan pages as the demo patient uses them: Mine, 设置, 通知设置, 个人信息,
 * 绑定手机号, 实名认证 (a wrong check digit refused, a valid card bound and shown masked), 关于我们,
 * 欢迎, 诊断信息, and scan login (a desktop browser shows the QR code, the phone reads it from a
 * photo, confirms, and the desktop is signed in).
 */

const PATIENT = { mobile: '13800000001', password: 'demo1234' }
/** The demo patient arrives with a bound (synthetic) card; binding one is shown on the expert. */

/** GB 11643-1999 check character. */
function checkChar(first17: string): string {
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
  const sum = [...first17].reduce((total, digit, i) => total + Number(digit) * weights[i], 0)
  return '10X98765432'[sum % 11]
}

// A made-up number for a person born 1990-03-07 in Beijing's Dongcheng district.
const FIRST17 = '11010119900307123'
const VALID_ID = `${FIRST17}${checkChar(FIRST17)}`
const WRONG_ID = `${FIRST17}${checkChar(FIRST17) === '0' ? '1' : '0'}`

async function type(page: Page, placeholder: string, value: string): Promise<void> {
  const input = view(page).locator(`input[placeholder="${placeholder}"]`)
  await input.fill('')
  await input.pressSequentially(value)
}

describe('settings, profile and scan pages', () => {
  let phone: Phone
  before(async () => {
    phone = await openPhone()
    await signIn(phone, PATIENT)
  })
  after(async () => {
    await phone.close()
  })

  it('我的 shows the patient with the masked phone and 申请成为专家', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/user/user`)
    await view(page).locator('.mine__hint', { hasText: '138****0001' }).waitFor()
    await view(page).getByText('申请成为专家').waitFor()
    assert.equal(await view(page).getByText('患者咨询').count(), 0)
    await screenshot(page, 'profile-mine-patient')
    await page.goto(`${BASE_URL}/pages/user/user-ol`)
    await view(page).locator('.title-bar__title', { hasText: '我的' }).waitFor()
    await view(page).locator('.mine__hint', { hasText: '138****0001' }).waitFor()
    await screenshot(page, 'profile-mine-ol')
  })

  it('设置 lists the account entries with their state', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/setup/setup`)
    await view(page).getByText('退出登录').waitFor()
    await view(page).locator('.setup__extra-text', { hasText: '138****0001' }).waitFor()
    await screenshot(page, 'profile-setup')
    await page.goto(`${BASE_URL}/pages/user/setup`)
    await view(page).getByText('通知设置').waitFor()
  })

  it('通知设置 saves a switch on the server', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/user/notice`)
    const toggle = page.locator('[aria-label="系统通知"]')
    await toggle.waitFor()
    const before = await toggle.getAttribute('aria-checked')
    const saved = page.waitForResponse(
      (response) =>
        response.url().includes('/main/account/notice') && response.request().method() === 'PUT',
    )
    await toggle.click()
    assert.equal((await saved).status(), 200)
    await page.reload()
    await page.locator('[aria-label="系统通知"]').waitFor()
    assert.notEqual(
      await page.locator('[aria-label="系统通知"]').getAttribute('aria-checked'),
      before,
    )
    await screenshot(page, 'profile-notice')
  })

  it("实名认证 shows the demo patient's card masked", async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/idcard/idcard`)
    await view(page).locator('.idcard-card__badge', { hasText: '已绑定' }).waitFor()
    await view(page).getByText('110***********', { exact: false }).waitFor()
    await screenshot(page, 'profile-idcard-demo-patient')
  })

  it('实名认证 refuses a wrong check digit, then binds a valid card and shows it masked', async () => {
    // A new account has no card yet (the demo expert has one now: it is certified under its
    // holder's name): the whole binding, on a phone of its own.
    const newPhone = await openPhone()
    try {
      await signIn(newPhone, { mobile: await register(), password: PASSWORD })
      await bindCard(newPhone)
    } finally {
      await newPhone.close()
    }
  })

  async function bindCard(phone: Phone): Promise<void> {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/idcard/idcard`)
    await view(page).getByText('提交认证').waitFor()
    await type(page, '与身份证一致', '张三')
    await type(page, '18 位居民身份证号', WRONG_ID)
    await view(page).getByText('身份证号校验位不正确', { exact: false }).waitFor()
    await screenshot(page, 'profile-idcard-wrong-check-digit')

    // The server refuses it too, whatever the page lets through.
    const token = await page.evaluate(() => {
      const raw = localStorage.getItem('yx-session') ?? '{}'
      const stored = JSON.parse(JSON.parse(raw).data as string) as {
        state: { token: { access_token: string } }
      }
      return stored.state.token.access_token
    })
    const refused = await phone.context.request.post(`${BASE_URL}/main/account/idcard`, {
      data: { realName: '张三', idCard: WRONG_ID },
      headers: { Authorization: `Bearer ${token}` },
    })
    assert.equal(refused.status(), 400)
    const refusal = (await refused.json()) as { error: string }
    assert.ok(refusal.error.length > 0)
    assert.ok(!JSON.stringify(refusal).includes(WRONG_ID))

    await type(page, '18 位居民身份证号', VALID_ID.toLowerCase())
    assert.equal(await view(page).getByText('身份证号校验位不正确', { exact: false }).count(), 0)
    await view(page).locator('.form-submit').click()
    const masked = `${VALID_ID.slice(0, 3)}***********${VALID_ID.slice(-4)}`
    await view(page).getByText(masked).waitFor()
    await view(page).locator('.idcard-card__badge', { hasText: '已绑定' }).waitFor()
    assert.equal(await view(page).getByText(VALID_ID).count(), 0)
    await screenshot(page, 'profile-idcard-bound')
    // Reloading shows the card from the server, still masked.
    await page.reload()
    await view(page).getByText(masked).waitFor()
  }

  it('个人信息 shows the profile and saves a new nickname', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/userInfo/userInfo`)
    await view(page).getByText('身份证').first().waitFor()
    // A stored card is 已绑定; 已实名 needs a real-name provider, which the demo has not.
    await view(page).locator('.user-info__extra-text', { hasText: '已绑定' }).waitFor()
    await screenshot(page, 'profile-user-info')
    await view(page).locator('.nut-cell', { hasText: '昵称' }).click()
    const input = view(page).locator('.user-info__input input')
    await input.waitFor()
    await input.fill('')
    await input.pressSequentially('小张')
    await screenshot(page, 'profile-nickname-dialog')
    await page.locator('.nut-dialog .nut-button', { hasText: '保存' }).click()
    await view(page).locator('.user-info__extra-text', { hasText: '小张' }).waitFor()
  })

  it('裁剪头像, 绑定手机号, 关于我们, 欢迎 and 诊断信息 render', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/uview-ui/components/u-avatar-cropper/u-avatar-cropper`)
    await view(page).getByText('点击头像，从相册选择或拍摄一张照片').waitFor()
    await screenshot(page, 'profile-avatar-cropper')

    await page.goto(`${BASE_URL}/pages/bindTel/bindTel`)
    await view(page).getByText('138****0001').waitFor()
    await type(page, '请输入新手机号', '10')
    await view(page).getByText('请输入正确的 11 位手机号').waitFor()
    await screenshot(page, 'profile-bind-tel')

    await page.goto(`${BASE_URL}/pages/about/about`)
    await view(page).getByText('开源软件许可').waitFor()
    await view(page)
      .locator('.about__version', { hasText: /版本 \d+\.\d+\.\d+/ })
      .waitFor()
    await screenshot(page, 'profile-about')

    await page.goto(`${BASE_URL}/pages/lead/lead`)
    await view(page).getByText('影像报告，随身可查').waitFor()
    await screenshot(page, 'profile-lead')

    await page.goto(`${BASE_URL}/pages/test/test`)
    await view(page).getByText('复制诊断信息').waitFor()
    const text = (await view(page).locator('.diagnostics').textContent()) ?? ''
    assert.ok(!text.includes('access_token'))
    await screenshot(page, 'profile-diagnostics')
  })

  it('scan login: the desktop shows a QR code, the phone reads it and confirms', async () => {
    const desktopBrowser = await launchChromium()
    try {
      const desktop = await desktopBrowser.newContext({
        viewport: { width: 1280, height: 800 },
        locale: 'zh-CN',
      })
      const desktopPage = await desktop.newPage()
      await desktopPage.goto(`${BASE_URL}/pages/login/login`)
      const qrTab = desktopPage.getByText('扫码登录', { exact: true })
      if ((await desktopPage.locator('.qr-login').count()) === 0) await qrTab.first().click()
      const qrImage = desktopPage.locator('.qr-login__image img').first()
      await qrImage.waitFor()
      await desktopPage.waitForFunction(
        () => (document.querySelector('.qr-login__image img') as HTMLImageElement | null)?.complete,
      )
      await desktopPage.screenshot({ path: path.join(ARTIFACTS, 'profile-desktop-qr.png') })
      const dataUrl = (await qrImage.getAttribute('src')) ?? ''
      assert.ok(dataUrl.startsWith('data:image/png;base64,'))
      const photo = path.join(ARTIFACTS, 'login-qr-photo.png')
      writeFileSync(photo, Buffer.from(dataUrl.split(',')[1], 'base64'))

      // The phone reads the code from a photo (jsQR), as a browser without camera access would.
      const { page } = phone
      await page.goto(`${BASE_URL}/pages/scanPage/scanPage`)
      await view(page).getByText('从相册选择').waitFor()
      await screenshot(page, 'profile-scan-page')
      const chooser = page.waitForEvent('filechooser')
      await view(page).locator('.nut-button', { hasText: '从相册选择' }).click()
      await (await chooser).setFiles(photo)
      await page.waitForURL(/\/pages\/scanLogin\/scanLogin\?id=/)
      await view(page).getByText('电脑端登录确认').waitFor()
      await view(page).getByText('确认登录').waitFor()
      await screenshot(page, 'profile-scan-login-confirm')
      await view(page).locator('.nut-button', { hasText: '确认登录' }).click()
      await view(page).getByText('已确认登录').waitFor()
      await screenshot(page, 'profile-scan-login-approved')

      // The desktop learns it within 2 s and holds a session of its own.
      await desktopPage.waitForFunction(
        () => (localStorage.getItem('yx-session') ?? '').includes('access_token'),
        undefined,
        { timeout: 5000 },
      )
      await desktopPage.waitForTimeout(500)
      await desktopPage.screenshot({ path: path.join(ARTIFACTS, 'profile-desktop-signed-in.png') })

      // A request the server does not know is refused with its message (an expected 4xx).
      const seen = phone.errors.length
      await page.goto(`${BASE_URL}/pages/scanLogin/scanLogin?id=${'x'.repeat(20)}`)
      await view(page).getByText('无法登录').waitFor()
      await screenshot(page, 'profile-scan-login-unknown')
      phone.errors.splice(seen)
    } finally {
      await desktopBrowser.close()
    }
  })

  it('退出登录 asks first, then shows 我的 signed out', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/setup/setup`)
    await view(page).locator('.setup__logout .nut-button').click()
    await page.locator('.taro__modal').getByText('退出', { exact: true }).click()
    await view(page).getByText('登录 / 注册').waitFor()
    assert.equal(new URL(page.url()).pathname, '/pages/user/user')
  })

  it('logged no console errors', () => {
    assert.deepEqual(phone.errors, [])
  })
})
