import { mkdirSync } from 'node:fs'
import path from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
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

export async function openPhone(): Promise<Phone> {
  const browser = await launchChromium()
  const context = await newPhone(browser)
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

export async function screenshot(page: Page, name: string): Promise<void> {
  // Page transitions (Taro slides pages in over 300 ms) must finish, or the picture shows two pages.
  // Endless ones (loading spinners) never finish and are not waited for.
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' ||
          animation.effect?.getTiming().iterations === Infinity,
      ),
  )
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) })
}
