import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { BASE_URL, openPhone, screenshot, settle, signIn, view, type Phone } from './support'

/**
 * Issue 10's 数据切换中心, 导航 and web views on the demo patient: choosing one hospital makes 个人影像
 * show only its exams (全部 brings them all back); 导航 shows the hospital with map links; an
 * allowed web page opens (as a normal page in H5), any other origin is refused with its address.
 */

async function hospitalsShown(phone: Phone): Promise<string[]> {
  const { page } = phone
  await page.goto(`${BASE_URL}/pages/personalImage/index`)
  await view(page).locator('.hospital-group__name').first().waitFor()
  await settle(page)
  return view(page).locator('.hospital-group__name').allInnerTexts()
}

describe('data center, maps and web views', () => {
  let phone: Phone
  before(async () => {
    phone = await openPhone()
    await signIn(phone, { mobile: '13800000001', password: 'demo1234' })
  })
  after(async () => {
    await phone.close()
  })

  it('choosing a hospital narrows 个人影像 to it; 全部 brings every hospital back', async () => {
    const all = await hospitalsShown(phone)
    assert.ok(all.length >= 2, `the demo patient has exams in several hospitals: ${all.join('、')}`)
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/hospitalList/hospitalList`)
    const row = view(page).locator('.data-center__row', { hasText: all[1]! })
    await row.waitFor()
    await screenshot(page, 'data-center')
    await row.locator('.data-center__name').click()
    // The toast is drawn over the pages, outside them.
    await page.getByText(`已切换到 ${all[1]}`).waitFor()
    assert.deepEqual(await hospitalsShown(phone), [all[1]])
    await screenshot(page, 'data-center-images-one-hospital')

    await page.goto(`${BASE_URL}/pages/hospitalList/hospitalList`)
    await view(page).locator('.data-center__row', { hasText: '全部医院' }).click()
    await page.getByText('已切换到全部医院').waitFor()
    assert.deepEqual((await hospitalsShown(phone)).sort(), [...all].sort())
  })

  it('导航 shows the hospital with its address and map links', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/hospitalList/hospitalList`)
    const navigate = view(page).locator('.data-center__navigate').first()
    await navigate.waitFor()
    await navigate.locator('.data-center__navigate-text').click()
    await view(page).getByText('用高德地图打开').waitFor()
    await view(page).getByText('复制地址').waitFor()
    await screenshot(page, 'open-location')
  })

  it('an allowed page opens; another origin is refused with its address', async () => {
    const { page } = phone
    // No internet here: the allowed site answers from the test.
    await page.route('https://www.nhc.gov.cn/**', (route) =>
      route.fulfill({
        contentType: 'text/html; charset=utf-8',
        body: '<h1>国家卫生健康委员会</h1>',
      }),
    )
    const allowed = encodeURIComponent('https://www.nhc.gov.cn/wjw/index.shtml')
    await page.goto(`${BASE_URL}/pages/webview/webview?url=${allowed}`)
    await page.waitForURL('https://www.nhc.gov.cn/wjw/index.shtml')
    await page.getByText('国家卫生健康委员会').waitFor()

    const refused = encodeURIComponent('https://evil.example.com/login')
    await page.goto(`${BASE_URL}/pages/webview/webview?url=${refused}`)
    await view(page).getByText('该网页不在允许范围内，无法打开').waitFor()
    await view(page).getByText('https://evil.example.com').waitFor()
    await screenshot(page, 'webview-refused')
  })
})
