/**
 * Largest Contentful Paint of the H5 home on a phone network (issue 6, section 5): Chromium with a 4×
 * CPU slowdown, 1.6 Mbps down / 750 kbps up and 150 ms round trips (CDP throttling), a cold cache, the
 * median of three loads, against the real server process on a fresh SQLite database serving dist/h5.
 *
 * `npm run bench` prints it; `npx tsx bench/lcp.ts` runs it alone. Builds dist/h5 first when it is
 * missing or older than its sources; with WEB_ROOT set (as for `npm start`) it measures that build as is.
 */
import path from 'node:path'
import type { Browser } from 'playwright-core'
import { launchChromium, newPhone } from '../scripts/lib/browser'
import { ensureH5Build } from '../scripts/lib/h5-build'
import { startBenchServer } from './server'

const ROOT = path.resolve(__dirname, '..')

/** The profile of the issue's measurement; CDP takes throughput in bytes per second. */
export const PHONE_NETWORK = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1_000_000) / 8,
  uploadThroughput: (750 * 1_000) / 8,
} as const
export const CPU_SLOWDOWN = 4
export const RUNS = 3

export interface LcpRun {
  /** LCP in ms from navigation start. */
  lcpMs: number
  /** What the largest paint was (tag and class), to see what the figure is about. */
  element: string
  /**
   * When the app's own first page had mounted (ms from navigation start). The home's first paint is a
   * static copy in index.html (config/first-paint.ts); this is when the app behind it can be used.
   */
  appMs: number
  /** Bytes on the wire (headers included) for everything loaded until the measurement. */
  transferredBytes: number
  /** The largest responses on the wire, biggest first. */
  files: { url: string; bytes: number }[]
}

export interface LcpResult {
  medianMs: number
  runs: LcpRun[]
  /** Transfer of the median run. */
  transferredBytes: number
}

declare global {
  interface Window {
    __lcp?: { time: number; element: string }
    __appMounted?: number
  }
}

const webRoot = () => path.resolve(ROOT, process.env.WEB_ROOT ?? path.join('dist', 'h5'))

async function measureOnce(browser: Browser, url: string): Promise<LcpRun> {
  // A new context has its own empty HTTP cache: every run is a cold load.
  const context = await newPhone(browser)
  try {
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send('Network.enable')
    await cdp.send('Network.clearBrowserCache')
    await cdp.send('Network.emulateNetworkConditions', PHONE_NETWORK)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN })

    const urls = new Map<string, string>()
    const sizes = new Map<string, number>()
    cdp.on('Network.requestWillBeSent', (event) => urls.set(event.requestId, event.request.url))
    cdp.on('Network.loadingFinished', (event) =>
      sizes.set(event.requestId, event.encodedDataLength),
    )

    await page.addInitScript(() => {
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { element?: Element })[]) {
          const element = entry.element
          window.__lcp = {
            time: entry.startTime,
            element: element
              ? `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).trim().split(/\s+/).join('.')}` : ''}`
              : '(removed)',
          }
        }
      }).observe({ type: 'largest-contentful-paint', buffered: true })
      const mounted = new MutationObserver(() => {
        if (!document.querySelector('#app .taro_page.taro_page_show > *')) return
        window.__appMounted = performance.now()
        mounted.disconnect()
      })
      mounted.observe(document, {
        childList: true,
        subtree: true,
        attributes: true,
        attributeFilter: ['class'],
      })
    })

    await page.goto(`${url}/`, { waitUntil: 'load', timeout: 120_000 })
    await page.waitForSelector('.taro_page', { timeout: 120_000 })
    await page.waitForLoadState('networkidle', { timeout: 120_000 })
    // Late paints (a font or an image) still count; give the slowed page a moment to report them.
    await page.waitForTimeout(1500)
    const lcp = await page.evaluate(() => window.__lcp)
    const appMs = await page.evaluate(() => window.__appMounted ?? -1)
    if (!lcp) throw new Error('Chromium reported no largest-contentful-paint entry')

    const files = [...sizes]
      .map(([id, bytes]) => ({ url: new URL(urls.get(id) ?? url).pathname, bytes }))
      .sort((a, b) => b.bytes - a.bytes)
    return {
      lcpMs: Math.round(lcp.time),
      element: lcp.element,
      appMs: Math.round(appMs),
      transferredBytes: files.reduce((sum, file) => sum + file.bytes, 0),
      files: files.slice(0, 5),
    }
  } finally {
    await context.close()
  }
}

export async function measureLcp(runs = RUNS): Promise<LcpResult> {
  if (!process.env.WEB_ROOT && !(await ensureH5Build()))
    throw new Error('H5 构建失败，无法测量首屏')
  const server = await startBenchServer({ WEB_ROOT: webRoot() })
  try {
    return await measureLcpAt(server.url, runs)
  } finally {
    await server.stop()
  }
}

/** The same measurement against a server that is already running at `url`. */
export async function measureLcpAt(url: string, runs = RUNS): Promise<LcpResult> {
  const browser = await launchChromium()
  try {
    const results: LcpRun[] = []
    for (let i = 0; i < runs; i += 1) results.push(await measureOnce(browser, url))
    const sorted = [...results].sort((a, b) => a.lcpMs - b.lcpMs)
    const median = sorted[Math.floor(sorted.length / 2)]!
    return { medianMs: median.lcpMs, runs: results, transferredBytes: median.transferredBytes }
  } finally {
    await browser.close()
  }
}

export function describeLcp(result: LcpResult): string {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
  const lines = [
    `H5 LCP (4× CPU, 1.6 Mbps, 150 ms RTT, cold): ${result.medianMs} ms, median of ${result.runs.length}; transferred ${kb(result.transferredBytes)}`,
    `  runs: ${result.runs.map((run) => `${run.lcpMs} ms (${run.element})`).join(', ')}`,
    `  app mounted (its own first page shown): ${result.runs.map((run) => `${run.appMs} ms`).join(', ')}`,
    `  largest on the wire: ${result.runs[0]!.files.map((file) => `${file.url} ${kb(file.bytes)}`).join(', ')}`,
  ]
  return lines.join('\n')
}

if (require.main === module) {
  measureLcp().then(
    (result) => {
      console.log(describeLcp(result))
      process.exit(0)
    },
    (error: unknown) => {
      console.error(error)
      process.exit(1)
    },
  )
}
