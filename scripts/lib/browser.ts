import { existsSync } from 'node:fs'
import { chromium, type Browser, type BrowserContext } from 'playwright-core'

/** Debian's Chromium; Playwright's own browser download cannot work on this kind of machine. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** A phone: the viewport the product is designed for (SPEC section 9: base width 375). */
export const PHONE = { width: 375, height: 812 } as const

// Without the background-networking switches Chromium keeps dialling Google's hosts, which this
// machine's closed network refuses. Playwright gives every launch a fresh, throwaway profile.
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `找不到 Chromium（${CHROMIUM}）：请先运行 apt-get install -y chromium fonts-noto-cjk`,
    )
  }
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS })
}

export function newPhone(
  browser: Browser,
  viewport: { width: number; height: number } = PHONE,
): Promise<BrowserContext> {
  return browser.newContext({
    viewport,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'zh-CN',
    // Our users' phones keep China time; Jest runs in the same zone (jest.config.ts). Without it the
    // browser takes this machine's UTC and a report issued 12:15 (+08:00) reads 04:15, before its exam.
    timezoneId: 'Asia/Shanghai',
    userAgent:
      'Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
  })
}
