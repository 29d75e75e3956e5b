import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import { ROUTES, PRODUCT_NAME } from '../src/routes'
import { BASE_URL, openPhone, screenshot, type Phone } from './support'

describe('app shell in a phone browser', () => {
  let phone: Phone
  before(async () => {
    phone = await openPhone()
  })
  after(async () => {
    await phone.close()
  })

  it('opens / on the Home tab with the product name and the bottom bar', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/`)
    await page.getByText('您的影像与报告，随身可查').waitFor()
    assert.equal(await page.title(), PRODUCT_NAME)
    await page.locator('.weui-tabbar').getByText('首页').waitFor()
    await page.locator('.weui-tabbar').getByText('我的').waitFor()
    await screenshot(page, 'home')
  })

  it('switches to 我的 from the tab bar', async () => {
    const { page } = phone
    await page.locator('.weui-tabbar').getByText('我的').click()
    await page.getByText('登录 / 注册').waitFor()
    assert.equal(new URL(page.url()).pathname, '/pages/user/user')
    await page.locator('.mine').getByText('个人报告').waitFor()
    await screenshot(page, 'mine')
  })

  it('loads a deep link by its exact spec path', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/personalReport/index`)
    // Built in issue 7: signed out, it asks to log in and come back.
    await page.getByText('登录后才能查看个人报告').waitFor()
    await screenshot(page, 'deep-link-personal-report')
  })

  it('shows the privacy policy served by the server', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/privacyPolicy/privacyPolicy`)
    await page.getByText('隐私政策', { exact: false }).first().waitFor()
    await page.getByText('个人信息', { exact: false }).first().waitFor()
    await screenshot(page, 'privacy-policy')
  })

  it('asks for consent with 不同意 / 同意并继续, and a browser that cannot close says so', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/privacyPolicy/privacyPolicy?consent=1`)
    await page.locator('.privacy-policy__paragraph').first().waitFor()
    await page.getByText('同意并继续', { exact: true }).waitFor()
    await screenshot(page, 'privacy-consent')
    await page.locator('.privacy-policy__refuse').click()
    // A browser tab cannot be closed by the page: the user is told, and may read the policy again.
    await page.getByText('重新阅读隐私政策').waitFor()
    await screenshot(page, 'privacy-refused')
  })

  it('answers an unknown API path with the JSON envelope', async () => {
    // The page's request context: its 404 is expected and not a page error.
    const response = await phone.context.request.get(`${BASE_URL}/main/no-such-call`)
    assert.equal(response.status(), 404)
    const body = (await response.json()) as Record<string, unknown>
    assert.deepEqual(Object.keys(body).sort(), ['code', 'data', 'error', 'message', 'reason'])
    assert.equal(body.code, 404)
    assert.equal(typeof body.error, 'string')
    assert.equal(body.reason, null)
  })

  it('reaches every route of the spec by its exact path', async () => {
    const { page } = phone
    for (const route of ROUTES) {
      const response = await page.goto(`${BASE_URL}/${route.path}`)
      assert.equal(response?.status(), 200, route.path)
      await page.locator('.taro_page').first().waitFor({ timeout: 10_000 })
      if (route.issue !== undefined) {
        await page.getByText('该功能即将上线，敬请期待').waitFor({ timeout: 10_000 })
      }
    }
  })

  it('sends the page its security headers and the scripts compressed at build time', async () => {
    // Any Content-Security-Policy violation on the pages above is a console error, caught below.
    const home = await phone.context.request.get(`${BASE_URL}/`, {
      headers: { accept: 'text/html', 'accept-encoding': 'br' },
    })
    const headers = home.headers()
    assert.match(headers['content-security-policy'] ?? '', /frame-ancestors 'none'/)
    assert.match(headers['content-security-policy'] ?? '', /script-src 'self' 'sha256-/)
    assert.equal(headers['x-frame-options'], 'DENY')
    assert.equal(headers['content-encoding'], 'br')
    const script = /<script defer="defer" src="([^"]+)"/.exec(await home.text())?.[1]
    assert.ok(script, 'index.html names its scripts')
    const js = await phone.context.request.get(`${BASE_URL}${script}`, {
      headers: { 'accept-encoding': 'gzip, br' },
    })
    assert.equal(js.headers()['content-encoding'], 'br')
    assert.match(js.headers()['cache-control'] ?? '', /immutable/)
  })

  it('logged no console errors on any of those pages', () => {
    assert.deepEqual(phone.errors, [])
  })
})

describe('the built mini-program', () => {
  it('registers every spec route in app.json (no operator page), tabs in the main package', () => {
    const appJson = JSON.parse(
      readFileSync(path.join(__dirname, '..', 'dist', 'weapp', 'app.json'), 'utf8'),
    ) as {
      pages: string[]
      subPackages: { root: string; pages: string[] }[]
      tabBar: { list: { pagePath: string }[] }
    }
    const registered = [
      ...appJson.pages,
      ...appJson.subPackages.flatMap((sub) => sub.pages.map((page) => `${sub.root}/${page}`)),
    ]
    // Every route but the operators' pages, which are H5 only.
    assert.deepEqual(
      [...registered].sort(),
      ROUTES.filter((route) => !route.h5Only)
        .map((route) => route.path)
        .sort(),
    )
    assert.ok(!registered.some((page) => page.startsWith('pages/operator/')))
    for (const tab of appJson.tabBar.list)
      assert.ok(appJson.pages.includes(tab.pagePath), tab.pagePath)
  })
})
