import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Locator, Page } from 'playwright-core'
import { BASE_URL, openPhone, screenshot, settle, signIn, view, type Phone } from './support'

/*
 * Issue 18, section 1, as a new user meets it: 个人报告 (the hospitals' reports) and 我的上传 (the
 * own studies) are both reached by tapping from home and from 我的; NutUI's own icons (the consent
 * checkbox, the gender radios, the password eye) are drawn at a size one can see and tap.
 */

/** The box of an element and whether its icon was painted (pixels other than the background). */
async function iconOf(page: Page, icon: Locator) {
  await icon.scrollIntoViewIfNeeded()
  const box = await icon.boundingBox()
  assert.ok(box, 'the icon has a box')
  const style = await icon.evaluate((element) => {
    const computed = getComputedStyle(element)
    return { mask: computed.maskImage || computed.webkitMaskImage, fill: computed.backgroundColor }
  })
  let painted = 0
  if (box.width > 0 && box.height > 0) {
    // The pixels on screen inside the icon's box, counted in the page (no PNG decoder needed).
    const png = (await page.screenshot({ clip: box })).toString('base64')
    painted = await page.evaluate(async (data) => {
      const image = new Image()
      image.src = `data:image/png;base64,${data}`
      await image.decode()
      const canvas = document.createElement('canvas')
      canvas.width = image.width
      canvas.height = image.height
      const context = canvas.getContext('2d')!
      context.drawImage(image, 0, 0)
      const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data
      let count = 0
      for (let i = 0; i < pixels.length; i += 4) {
        if (pixels[i]! < 235 || pixels[i + 1]! < 235 || pixels[i + 2]! < 235) count += 1
      }
      return count
    }, png)
  }
  return { width: box.width, height: box.height, painted, ...style }
}

function assertDrawn(
  name: string,
  icon: { width: number; height: number; painted: number; mask: string },
) {
  assert.ok(icon.width >= 16 && icon.height >= 16, `${name}: ${icon.width}×${icon.height}`)
  // NutUI draws its icons as an SVG mask (no icon font): the mask is there and paints pixels.
  assert.match(icon.mask, /^url\("data:image\/svg\+xml/, `${name}: mask ${icon.mask}`)
  assert.ok(icon.painted > 20, `${name}: ${icon.painted} pixels painted`)
}

describe('entries and NutUI icons, as a new user meets them', () => {
  let phone: Phone
  before(async () => {
    phone = await openPhone()
    await phone.page.setViewportSize({ width: 390, height: 844 })
  })
  after(async () => {
    await phone.close()
  })

  it('登录: the consent checkbox and the password eye are drawn; ticking it shows', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/`)
    await page.locator('.weui-tabbar').getByText('我的').click()
    await view(page).getByText('登录 / 注册').click()
    await view(page).getByText('我已阅读并同意').first().waitFor()
    await settle(page)
    await screenshot(page, 'entries-login')
    const box = view(page).locator('.auth-agreement .nut-checkbox-icon')
    assertDrawn('登录 checkbox', await iconOf(page, box))
    assertDrawn('密码 eye', await iconOf(page, view(page).locator('.form-field__eye .nut-icon')))
    await box.click()
    await view(page).locator('.auth-agreement .nut-checkbox-icon-checked').waitFor()
    assertDrawn(
      '登录 checkbox ticked',
      await iconOf(page, view(page).locator('.auth-agreement .nut-checkbox-icon')),
    )
  })

  it('注册: the consent checkbox is drawn', async () => {
    const { page } = phone
    await view(page).getByText('注册账号').click()
    await view(page).getByText('已有账号？去登录').waitFor()
    await settle(page)
    assertDrawn(
      '注册 checkbox',
      await iconOf(page, view(page).locator('.auth-agreement .nut-checkbox-icon')),
    )
    await screenshot(page, 'entries-register')
  })

  it('个人报告 and 我的上传 are reached by tapping, from home and from 我的', async () => {
    const { page } = phone
    await signIn(phone, { mobile: '13800000001', password: 'demo1234' })
    await page.goto(`${BASE_URL}/`)
    await view(page).locator('.home__entry', { hasText: '个人报告' }).click()
    await page.waitForURL(/\/pages\/personalReport\/index(\?|$)/)
    // The demo patient's hospital reports, not the empty list of uploads.
    await view(page).locator('.report-card').first().waitFor()
    await screenshot(page, 'entries-personal-report')
    await page.goBack()
    await view(page).locator('.home__entry', { hasText: '我的上传' }).click()
    await page.waitForURL(/\/pages\/personalReport\/index-ys/)
    await view(page).getByText('上传DICOM').first().waitFor()

    await page.goto(`${BASE_URL}/pages/user/user`)
    await view(page).locator('.nut-cell', { hasText: '个人报告' }).click()
    await page.waitForURL(/\/pages\/personalReport\/index(\?|$)/)
    await view(page).locator('.report-card').first().waitFor()
    await page.goto(`${BASE_URL}/pages/user/user`)
    await view(page).locator('.nut-cell', { hasText: '我的上传' }).click()
    await page.waitForURL(/\/pages\/personalReport\/index-ys/)
    await view(page).getByText('上传DICOM').first().waitFor()
    assert.equal(await page.locator('.mine').getByText('我的报告').count(), 0)
  })

  it('完善注册信息: the gender radios are drawn', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/reg/reg-info`)
    await view(page).locator('.nut-radio').first().waitFor()
    await settle(page)
    assertDrawn(
      '性别 radio',
      await iconOf(page, view(page).locator('.nut-radio .nut-icon').first()),
    )
    await screenshot(page, 'entries-reg-info')
  })

  it('注销账号: the consent checkbox is drawn', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/delAccount/delAccount`)
    await view(page).getByText('注销后将删除').waitFor()
    await settle(page)
    assertDrawn(
      '注销 checkbox',
      await iconOf(page, view(page).locator('.nut-checkbox .nut-checkbox-icon').first()),
    )
  })
})
