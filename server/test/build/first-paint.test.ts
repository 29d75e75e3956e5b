// test-server: no database
/**
 * The prerendered first paint (config/first-paint.ts) on a small stand-in for the Taro build: an
 * index.html like ours and an app script that mounts the way Taro's runtime does (a tab-bar container
 * around #app, a custom-element tab bar that throws without its props, styles injected at run time,
 * the page's content a moment later). Real Chromium, the real server's CSP for index.html.
 */
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import {
  FIRST_PAINT_CSS_ID,
  FIRST_PAINT_ID,
  homePathPattern,
  injectFirstPaint,
  renderFirstPaint,
  type FirstPaint,
} from '../../../config/first-paint'
import { CHROMIUM, launchChromium, newPhone } from '../../../scripts/lib/browser'
import { pageCsp } from '../../src/plugins/security'

const INDEX = `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"/><title>医影通</title>
<script>document.documentElement.style.fontSize="20px"</script>
<script defer="defer" src="/js/app.js"></script><link href="/css/app.css" rel="stylesheet">
<style id="page-frame">#app,body>.shell{max-width:800px;margin:0 auto}</style></head>
<body><div id="app"></div></body></html>`

/** index.html's own CSS: applies at first paint anyway, so only renamed copies may be inlined. */
const APP_CSS = '.home{padding:1rem;color:rgb(51,51,51)}.unused-by-home{color:red}'

/** Mounts like Taro: chrome first, the page a tick later; records frames that show both copies. */
const APP_JS = `
customElements.define('taro-view-core', class extends HTMLElement {})
customElements.define('taro-tabbar', class extends HTMLElement {
  connectedCallback() { if (!this.config) console.error('tabBar 配置错误') }
})
const style = document.createElement('style')
style.textContent = 'taro-view-core{display:block}.shell{display:flex;flex-direction:column;height:100%}' +
  '.bar{height:50px;background:rgb(255,255,255)}#app{flex:1}.badge{display:none}.late-only{color:blue}'
document.head.appendChild(style)
const app = document.getElementById('app')
app.className = 'taro_router'
const container = document.createElement('div')
container.id = 'container'
container.className = 'shell'
const bar = document.createElement('taro-tabbar')
bar.className = 'bar'
bar.textContent = '首页'
bar.config = {}
container.append(app, bar)
document.body.appendChild(container)
window.__frames = { both: 0, neither: 0, swappedAt: 0 }
setTimeout(() => {
  const page = document.createElement('div')
  page.className = 'taro_page'
  app.appendChild(page)
  setTimeout(() => {
    const home = document.createElement('taro-view-core')
    home.className = 'home'
    home.innerHTML = '您的影像与报告，随身可查<span class="badge">隐藏</span>'
    page.appendChild(home)
    page.classList.add('taro_page_show')
    window.__frames.swappedAt = performance.now()
    const check = () => {
      const copy = document.getElementById('${FIRST_PAINT_ID}')
      if (copy) window.__frames.both += 1
      requestAnimationFrame(check)
    }
    requestAnimationFrame(check)
  }, 150)
}, 150)
`

function writeBuild(dir: string): void {
  mkdirSync(path.join(dir, 'js'), { recursive: true })
  mkdirSync(path.join(dir, 'css'), { recursive: true })
  writeFileSync(path.join(dir, 'index.html'), INDEX)
  writeFileSync(path.join(dir, 'js', 'app.js'), APP_JS)
  writeFileSync(path.join(dir, 'css', 'app.css'), APP_CSS)
}

/** Serves the folder with the policy the real server gives index.html. */
function serve(dir: string): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://x').pathname
    const file = path.join(dir, pathname)
    if (pathname !== '/' && existsSync(file) && path.extname(file)) {
      response.setHeader('content-type', file.endsWith('.js') ? 'text/javascript' : 'text/css')
      response.end(readFileSync(file))
      return
    }
    const html = readFileSync(path.join(dir, 'index.html'), 'utf8')
    response.setHeader('content-type', 'text/html; charset=utf-8')
    response.setHeader('content-security-policy', pageCsp(html))
    response.end(html)
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address() as { port: number }
      resolve({ server, url: `http://127.0.0.1:${address.port}` })
    }),
  )
}

async function open(
  browser: Browser,
  url: string,
  options: { blockApp?: boolean } = {},
): Promise<{ page: Page; errors: string[] }> {
  const context = await newPhone(browser)
  const page = await context.newPage()
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error' && !/ERR_FAILED/.test(message.text()))
      errors.push(message.text())
  })
  page.on('pageerror', (error) => errors.push(error.message))
  if (options.blockApp) await page.route('**/js/**', (route) => route.abort())
  await page.goto(url)
  return { page, errors }
}

test('the home addresses are / and the home page path, nothing else', () => {
  const home = new RegExp(homePathPattern('pages/main/main'))
  for (const pathname of ['/', '/pages/main/main', '/pages/main/main/'])
    assert.match(pathname, home)
  for (const pathname of ['/pages/user/user', '/pages/main/mainx', '/x/pages/main/main', '//'])
    assert.doesNotMatch(pathname, home)
})

test('injecting refuses an index.html without the app root instead of writing a broken page', () => {
  assert.throws(
    () =>
      injectFirstPaint(
        '<html><head></head><body></body></html>',
        { markup: '', css: '' },
        {
          homePage: 'pages/main/main',
          maxWidth: 800,
        },
      ),
    /无法写入首屏/,
  )
})

describe(
  'a first paint prerendered from a Taro-like build',
  { skip: !existsSync(CHROMIUM) && `no Chromium at ${CHROMIUM}` },
  () => {
    let dir: string
    let paint: FirstPaint
    let browser: Browser
    let site: { server: Server; url: string }

    before(async () => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'yingxiang-first-paint-'))
      writeBuild(dir)
      paint = await renderFirstPaint(dir)
      writeFileSync(
        path.join(dir, 'index.html'),
        injectFirstPaint(INDEX, paint, { homePage: 'pages/main/main', maxWidth: 800 }),
      )
      browser = await launchChromium()
      site = await serve(dir)
    })

    after(async () => {
      await browser?.close()
      site?.server.close()
      rmSync(dir, { recursive: true, force: true })
    })

    test('copies what is shown, with no ids, renamed classes and elements, and no hidden parts', () => {
      assert.match(paint.markup, /^<div class="fp-shell fp-id-container" id="first-paint"/)
      assert.match(paint.markup, /aria-hidden="true"/)
      assert.match(paint.markup, /\binert\b/)
      assert.match(paint.markup, /<fp-taro-tabbar class="fp-bar">首页<\/fp-taro-tabbar>/)
      assert.match(paint.markup, /<fp-taro-view-core class="fp-home">您的影像与报告，随身可查</)
      assert.doesNotMatch(paint.markup, /隐藏/, 'an element that is not displayed is left out')
      assert.doesNotMatch(paint.markup, / id="(?!first-paint")/)
    })

    test('inlines the run-time CSS it uses, renamed; index.html’s own CSS only where names changed', () => {
      assert.match(paint.css, /fp-taro-view-core\s*\{\s*display: block;/)
      assert.match(paint.css, /\.fp-id-app\s*\{/, '#app of the run-time style, as the copy’s class')
      assert.match(paint.css, /body > \.fp-shell/, 'the page frame of index.html, renamed')
      assert.match(paint.css, /\.fp-home\s*\{/, 'app.css rules for the home, renamed')
      assert.doesNotMatch(paint.css, /late-only|unused-by-home/, 'rules nothing on screen uses')
      assert.doesNotMatch(paint.css, /(^|[}\s])\.home\s*\{/, 'app.css applies by itself already')
    })

    test('without the app, the copy is what the home shows (and only the copy carries the text)', async () => {
      const { page, errors } = await open(browser, `${site.url}/`, { blockApp: true })
      await page.locator(`#${FIRST_PAINT_ID}`).getByText('您的影像与报告，随身可查').waitFor()
      assert.equal(await page.locator(`#${FIRST_PAINT_CSS_ID}`).count(), 1)
      assert.equal(
        await page.evaluate("getComputedStyle(document.querySelector('.fp-id-app')).flexGrow"),
        '1',
        'the run-time rule for #app reaches the copy before the run time has run',
      )
      assert.deepEqual(errors, [])
      await page.context().close()
    })

    test('the app replaces it when its page mounts: no frame with both, no error, CSP intact', async () => {
      const { page, errors } = await open(browser, `${site.url}/`)
      await page.locator('#app .taro_page_show .home').waitFor()
      await page.waitForTimeout(200)
      assert.equal(await page.locator(`#${FIRST_PAINT_ID}`).count(), 0)
      assert.equal(await page.locator(`#${FIRST_PAINT_CSS_ID}`).count(), 0)
      assert.equal(await page.getByText('您的影像与报告，随身可查').count(), 1)
      const frames = (await page.evaluate('window.__frames')) as { both: number }
      assert.equal(frames.both, 0)
      // The tab bar of the copy is never upgraded into Taro's component (it throws without props).
      assert.deepEqual(errors, [])
      await page.context().close()
    })

    test('another address never shows the home copy, and the copy is gone once the page is parsed', async () => {
      const { page, errors } = await open(browser, `${site.url}/pages/user/user`, {
        blockApp: true,
      })
      await page.waitForLoadState('domcontentloaded')
      assert.equal(await page.locator(`#${FIRST_PAINT_ID}`).count(), 0)
      assert.equal(await page.locator(`#${FIRST_PAINT_CSS_ID}`).count(), 0)
      assert.deepEqual(errors, [])
      await page.context().close()
    })
  },
)
