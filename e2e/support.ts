import assert from 'node:assert/strict'
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import type { Browser, BrowserContext, CDPSession, Locator, Page } from 'playwright-core'
import { launchChromium, newPhone } from '../scripts/lib/browser'

export const BASE_URL = process.env.E2E_BASE_URL ?? 'http://127.0.0.1:8080'
export const ARTIFACTS = path.join(__dirname, 'artifacts')
mkdirSync(ARTIFACTS, { recursive: true })

export interface Phone {
  browser: Browser
  context: BrowserContext
  page: Page
  /** Console errors, uncaught exceptions and failed loads seen so far on this phone. */
  errors: string[]
  close: () => Promise<void>
}

/** A phone of the given screen size; the product's design width (375×812) unless told. */
export async function openPhone(viewport?: { width: number; height: number }): Promise<Phone> {
  const browser = await launchChromium()
  const context = await newPhone(browser, viewport)
  const page = await context.newPage()
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('response', (response) => {
    if (response.status() >= 400) errors.push(`${response.status()} ${response.url()}`)
  })
  return { browser, context, page, errors, close: () => browser.close() }
}

/**
 * Waits until page transitions (Taro slides pages in over 300 ms) have finished: one that has not
 * started yet (`pending`, on a busy machine) counts as unfinished. Endless ones (loading spinners)
 * never finish and are not waited for. Before a click on a page just opened, and before a picture.
 */
export async function settle(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      document
        .getAnimations()
        .every(
          (animation) =>
            (animation.playState !== 'running' && !animation.pending) ||
            animation.effect?.getTiming().iterations === Infinity,
        ) &&
      // A page whose slide has not begun yet is moved aside by a transform, with no animation at
      // all. (Not its position: a desktop browser centres pages.)
      Array.from(document.querySelectorAll<HTMLElement>('.taro_page')).every((element) => {
        const transform = getComputedStyle(element).transform
        return transform === 'none' || Math.abs(new DOMMatrixReadOnly(transform).m41) < 1
      }),
  )
}

export async function screenshot(page: Page, name: string): Promise<void> {
  // A picture taken mid-transition shows two pages.
  await settle(page)
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) })
}

interface SessionAnswer {
  data: {
    access_token: string
    token_type: 'bearer'
    expires_in: number
    refresh_token: string
    user: { nickname: string; mobileMasked: string | null }
  }
}

/**
 * Signs in through the API and stores the session the way the app's persisted stores do; answers
 * the access token, for the test's own API calls.
 */
export async function signIn(
  phone: Phone,
  account: { mobile: string; password: string },
): Promise<string> {
  const response = await phone.context.request.post(`${BASE_URL}/sso/oauth2/token`, {
    data: { grant_type: 'password', username: account.mobile, password: account.password },
  })
  assert.equal(response.status(), 200, await response.text())
  const { data: session } = (await response.json()) as SessionAnswer
  const token = {
    access_token: session.access_token,
    token_type: session.token_type,
    expires_in: session.expires_in,
    refresh_token: session.refresh_token,
  }
  const userName = session.user.nickname.trim() || session.user.mobileMasked || '用户'
  // Taro's H5 storage wraps each value as {"data": ...}; zustand persist stores {state, version}.
  const entries = {
    'yx-session': JSON.stringify({ state: { token }, version: 1 }),
    'yx-app': JSON.stringify({
      state: { hasLogin: true, userName, profile: session.user },
      version: 2,
    }),
  }
  await phone.page.goto(`${BASE_URL}/pages/about/about`)
  await phone.page.evaluate((items) => {
    for (const [key, value] of Object.entries(items)) {
      localStorage.setItem(key, JSON.stringify({ data: value }))
    }
  }, entries)
  return session.access_token
}

/** Taro's H5 router keeps earlier pages in the DOM, hidden: look only at the page on screen. */
export function view(page: Page) {
  return page.locator('.taro_page:visible')
}

export type Point = { x: number; y: number }

/** Fingers down at `from`, moved in `steps` to `to`, lifted (real touch events through CDP). */
export async function touchDrag(
  cdp: CDPSession,
  from: Point,
  to: Point,
  steps = 10,
): Promise<void> {
  const at = (t: number) => [
    { x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t, id: 0 },
  ]
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(0) })
  for (let step = 1; step <= steps; step++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(step / steps) })
    await new Promise((resolve) => setTimeout(resolve, 16))
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
}

/** A tab of the tab bar, then the page settled. */
export async function tab(page: Page, name: '首页' | '我的'): Promise<void> {
  await page.locator('.weui-tabbar').getByText(name).click()
  await settle(page)
}

/** 我的 → an entry, from a fresh start of the app (as a person opens it). */
export async function fromMine(page: Page, entry: string): Promise<void> {
  await page.goto(`${BASE_URL}/pages/main/main`)
  await tab(page, '我的')
  await view(page).locator('.nut-cell', { hasText: entry }).click()
  await settle(page)
}

/** Taps a control in the middle of the screen (a fixed bottom bar covers the page's foot). */
export async function tap(locator: Locator): Promise<void> {
  await locator.evaluate((element) => element.scrollIntoView({ block: 'center' }))
  await locator.click()
}
