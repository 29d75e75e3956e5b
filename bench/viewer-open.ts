/**
 * Where tap → first pixels goes (issue 8): opens the demo CT and MR from 影像详情 in the H5 build at
 * the same 4× CPU slowdown as bench/viewer.ts, and prints every request made after the tap (page
 * chunks, API calls, images) with its start and end relative to the tap, and the viewer's
 * `viewer-first-pixels`. Read it as a waterfall: what waits on what.
 *
 *   npx tsx bench/viewer-open.ts          (WEB_ROOT=dist/h5 by default; builds when stale)
 */
import path from 'node:path'
import type { Page } from 'playwright-core'
import { launchChromium } from '../scripts/lib/browser'
import { ensureH5Build } from '../scripts/lib/h5-build'
import { demoLogin, demoLoginRequest, startBenchServer } from './server'
import { CPU_SLOWDOWN, DEMO_EXAMS } from './viewer'

const ROOT = path.resolve(__dirname, '..')

interface Envelope<T> {
  data: T
}

async function examIds(url: string, token: string): Promise<Map<string, string>> {
  for (let attempt = 0; attempt < 240; attempt++) {
    const response = await fetch(`${url}/main/images`, {
      headers: { authorization: `Bearer ${token}` },
    })
    const groups = (
      (await response.json()) as Envelope<
        { latest: { id: string; title: string; status: string }[] }[]
      >
    ).data
    const ids = new Map<string, string>()
    for (const exam of groups.flatMap((group) => group.latest))
      if (exam.status === 'ready') ids.set(exam.title, exam.id)
    if (DEMO_EXAMS.every((exam) => ids.has(exam.title))) return ids
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  throw new Error('demo exams not ready after 120 s')
}

async function signIn(page: Page, url: string): Promise<void> {
  const { data } = (await (
    await fetch(`${url}/sso/oauth2/token`, demoLoginRequest)
  ).json()) as Envelope<{
    access_token: string
    token_type: string
    expires_in: number
    refresh_token: string
    user: { nickname: string; mobileMasked: string | null }
  }>
  const entries = {
    'yx-session': JSON.stringify({
      state: {
        token: {
          access_token: data.access_token,
          token_type: data.token_type,
          expires_in: data.expires_in,
          refresh_token: data.refresh_token,
        },
      },
      version: 1,
    }),
    'yx-app': JSON.stringify({
      state: { hasLogin: true, userName: data.user.nickname || '用户', profile: data.user },
      version: 2,
    }),
  }
  await page.goto(`${url}/pages/about/about`)
  await page.evaluate((items) => {
    for (const [key, value] of Object.entries(items))
      localStorage.setItem(key, JSON.stringify({ data: value }))
  }, entries)
}

interface Row {
  name: string
  start: number
  end: number
}

async function openOnce(
  page: Page,
  url: string,
  examId: string,
  idleMs: number,
): Promise<{ first: number; rows: Row[] }> {
  await page.goto(`${url}/pages/personalImage/detail?id=${encodeURIComponent(examId)}`)
  const tile = page.locator('.taro_page:visible .series-grid__tile').first()
  await tile.waitFor({ timeout: 60_000 })
  // The person looks at the page before tapping: what the page does while idle can happen here.
  await page.waitForTimeout(idleMs)
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN })
  // The tap's own time in the page (Playwright's click waits for the tile first).
  await page.evaluate(() => {
    document.addEventListener(
      'click',
      () => ((window as unknown as { tapAt: number }).tapAt = performance.now()),
      { capture: true, once: true },
    )
  })
  const profile = Boolean(process.env.PROFILE)
  if (profile) {
    await cdp.send('Profiler.enable')
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 })
    await cdp.send('Profiler.start')
  }
  await tile.click()
  await page.waitForFunction(
    () => performance.getEntriesByName('viewer-first-pixels', 'measure').length > 0,
    undefined,
    { timeout: 60_000 },
  )
  const tapAt = await page.evaluate(() => (window as unknown as { tapAt: number }).tapAt)
  const first = await page.evaluate(
    () => performance.getEntriesByName('viewer-first-pixels', 'measure')[0]!.duration,
  )
  if (profile) {
    const { profile: cpu } = await cdp.send('Profiler.stop')
    printProfile(cpu)
  }
  await page.waitForTimeout(1500)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 })
  const rows = await page.evaluate(
    (from) =>
      performance
        .getEntriesByType('resource')
        .filter((e) => e.startTime >= from - 1)
        .map((e) => ({
          name: e.name.replace(location.origin, '').slice(0, 110),
          start: e.startTime - from,
          end: (e as PerformanceResourceTiming).responseEnd - from,
        })),
    tapAt,
  )
  return { first, rows }
}

interface CpuProfile {
  nodes: {
    id: number
    callFrame: { functionName: string; url: string; lineNumber: number }
    parent?: number
    children?: number[]
  }[]
  samples?: number[]
  timeDeltas?: number[]
}

/** Self time per function (name @ file:line), top 25, and per file. */
function printProfile(cpu: CpuProfile): void {
  const byId = new Map(cpu.nodes.map((n) => [n.id, n]))
  const self = new Map<string, number>()
  const perFile = new Map<string, number>()
  const samples = cpu.samples ?? []
  const deltas = cpu.timeDeltas ?? []
  for (let i = 0; i < samples.length; i++) {
    const node = byId.get(samples[i]!)!
    const dt = (deltas[i + 1] ?? 0) / 1000
    const file = node.callFrame.url.replace(/^.*\//, '') || '(' + node.callFrame.functionName + ')'
    const key = `${node.callFrame.functionName || '(anon)'} @ ${file}:${node.callFrame.lineNumber}`
    self.set(key, (self.get(key) ?? 0) + dt)
    perFile.set(file, (perFile.get(file) ?? 0) + dt)
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `    ${v.toFixed(1).padStart(7)} ms  ${k}`)
  console.log('  self time by file:\n' + top(perFile, 12).join('\n'))
  console.log('  self time by function:\n' + top(self, 25).join('\n'))
}

async function main(): Promise<void> {
  if (!process.env.WEB_ROOT && !(await ensureH5Build())) throw new Error('H5 构建失败')
  const server = await startBenchServer({
    WEB_ROOT: path.resolve(ROOT, process.env.WEB_ROOT ?? path.join('dist', 'h5')),
  })
  const browser = await launchChromium()
  try {
    const ids = await examIds(server.url, await demoLogin(server.url))
    for (const exam of DEMO_EXAMS) {
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        locale: 'zh-CN',
      })
      const page = await context.newPage()
      await signIn(page, server.url)
      const idle = Number(process.env.IDLE_MS ?? 0)
      const { first, rows } = await openOnce(page, server.url, ids.get(exam.title)!, idle)
      console.log(
        `\n${exam.label}: tap → first pixels ${first.toFixed(1)} ms (idle ${idle} ms before the tap)`,
      )
      for (const row of rows.filter((r) => r.start <= first + 200))
        console.log(
          `  ${row.start.toFixed(0).padStart(5)} → ${row.end.toFixed(0).padStart(5)}  ${row.name}`,
        )
      await context.close()
    }
  } finally {
    await browser.close()
    await server.stop()
  }
}

void main()
