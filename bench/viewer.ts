/**
 * The DICOM viewer's figures (issue 8). Part of `npm run bench`; alone: `npx tsx bench/viewer.ts`.
 * Prints figures, never fails on them.
 *
 * 1. Window/level re-render, ours against dwv 0.36, on the same 512² 16-bit CT file in the same
 *    Chromium with a 4× CPU slowdown (CDP Emulation.setCPUThrottlingRate): each library in a page of
 *    its own (bench/viewer-page/*.ts, bundled here with esbuild), served from a temporary directory,
 *    every render at a window not seen before, medians of RENDERS renders after WARM_UP.
 *    The file is the demo's chest CT (server/src/domain/demo-records/phantoms.ts, the middle slice);
 *    our page gets what the app gets from the server: the instance's DICOM JSON and the frame's
 *    decoded bytes, made with the server's own code (dicomJson, decodeFrames).
 * 2. The real H5 viewer: the production H5 build served by the real server process with its demo
 *    data, the demo patient signed in, Chromium at the same slowdown. It reads only the page's own
 *    User Timing entries (`viewer-first-pixels`: tap → first painted preview, `viewer-render`: one
 *    render) and drives the page as a desktop user does (mouse drag = W/L, wheel = slices), on the
 *    demo's 512² chest CT and its 20-slice MR.
 */
import { createServer, type Server } from 'node:http'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { build } from 'esbuild'
import type { Browser, Page } from 'playwright-core'
import { launchChromium } from '../scripts/lib/browser'
import { ensureH5Build } from '../scripts/lib/h5-build'
import { decodeFrames, dicomJson, parse } from '../server/src/dicom'
import { demoChestCt } from '../server/src/domain/demo-records/phantoms'
import { type InstanceRow, instanceMetadata } from '../server/src/domain/records/images'
import { demoLogin, demoLoginRequest, startBenchServer } from './server'
import type { RenderRun } from './viewer-page/timing'

const ROOT = path.resolve(__dirname, '..')
export const CPU_SLOWDOWN = 4
export const RENDERS = 60
export const WARM_UP = 10
/** How long the person looks at 影像详情 before tapping a series (its thumbnails shown). */
export const LOOK_MS = Number(process.env.LOOK_MS ?? 1000)

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

/** The demo chest CT's middle slice: the DICOM file, its DICOM JSON and its decoded frame. */
export async function ctSample(): Promise<{
  file: Buffer
  json: Record<string, unknown>
  frame: Uint8Array
  description: string
}> {
  const study = demoChestCt({
    patient: {
      name: '演示患者',
      idNumber: '11010119900307002X',
      sex: 'F',
      birthDate: '19900307',
    },
    accessionNumber: 'BENCH-CT',
    date: '20261118',
    time: '093000',
    institution: '演示医院',
  })
  const file = study.files[Math.floor(study.files.length / 2)]!
  const instance = parse(file)
  const decoded = await decodeFrames(instance)
  if (!decoded.ok) throw new Error(`CT decode: ${decoded.detail}`)
  const image = instance.image!
  const { pixels } = decoded.frames[0]!
  // What WADO-RS /metadata answers for it: the stored DICOM JSON, the pixel module as served.
  const row = {
    metadata_json: JSON.stringify(dicomJson(instance)),
    study_uid: instance.studyInstanceUid,
    series_uid: instance.seriesInstanceUid,
    sop_instance_uid: instance.sopInstanceUid,
    preview_status: 'ready',
    pixel_format: pixels instanceof Int16Array ? 's16' : 'u16',
  } as InstanceRow
  return {
    file,
    json: instanceMetadata(row) as Record<string, unknown>,
    frame: new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.byteLength),
    description: `${image.columns}×${image.rows} ${image.bitsAllocated}-bit CT (demo chest phantom)`,
  }
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.dcm': 'application/dicom',
  '.raw': 'application/octet-stream',
}

/** A static server of `dir` on a free loopback port (the pages fetch their data from it). */
function serve(dir: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const name = path.basename(new URL(request.url ?? '/', 'http://x').pathname)
    try {
      const body = readFileSync(path.join(dir, name))
      response.writeHead(200, {
        'content-type': MIME[path.extname(name)] ?? 'application/octet-stream',
      })
      response.end(body)
    } catch {
      response.writeHead(404).end()
    }
  })
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () => new Promise<void>((done) => server.close(() => done())),
      })
    })
  })
}

export type Renderer = 'dwv' | 'ours'

/** Writes the two pages, their bundles and the sample into a new temporary directory. */
async function preparePages(): Promise<{ dir: string; description: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'yx-viewer-bench-'))
  const sample = await ctSample()
  writeFileSync(path.join(dir, 'ct.dcm'), sample.file)
  writeFileSync(path.join(dir, 'ct.json'), JSON.stringify(sample.json))
  writeFileSync(path.join(dir, 'ct.raw'), sample.frame)
  for (const name of ['dwv', 'ours'] as const) {
    // ESM: dwv's bundle finds its assets from import.meta.url, which a classic script lacks.
    await build({
      entryPoints: [path.join(ROOT, 'bench', 'viewer-page', `${name}.ts`)],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2020',
      minify: true,
      outfile: path.join(dir, `${name}.js`),
      logLevel: 'error',
    })
    writeFileSync(
      path.join(dir, `${name}.html`),
      `<!doctype html><meta charset="utf-8"><body style="margin:0;background:#000">` +
        `<script type="module" src="${name}.js"></script>`,
    )
  }
  return { dir, description: sample.description }
}

export interface RendererFigures {
  /** W/L change → pixels on the canvas on screen, ms. */
  medianMs: number
  p90Ms: number
  /** Distinct grey values at the image centre over the run (> 1: the image did change). */
  distinctCentre: number
  /** Ours only: the core's render() alone, no canvas, ms. */
  coreMedianMs?: number
  /** Ours only: medians of each stage of a canvas render (render(), putImageData, read-back), ms. */
  stages?: { render: number; put: number; draw: number }
}

async function runPage(
  browser: Browser,
  url: string,
  renderer: Renderer,
  slowdown: number,
): Promise<RendererFigures> {
  // One context per page: nothing of one renderer's JIT or heap is left for the other.
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
  try {
    const page = await context.newPage()
    const problems: string[] = []
    page.on('pageerror', (error) => problems.push(error.message))
    await page.goto(`${url}/${renderer}.html`)
    await page
      .waitForFunction(() => window.__viewerBench ?? window.__viewerBenchError, undefined, {
        timeout: 60_000,
      })
      .catch(() => undefined)
    const error = await page.evaluate(() => window.__viewerBenchError)
    if (error || problems.length > 0) throw new Error(error ?? problems.join('; '))
    const cdp = await context.newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown })
    const run: RenderRun = await page.evaluate(
      ([renders, warmUp]) => window.__viewerBench!(renders!, warmUp!),
      [RENDERS, WARM_UP],
    )
    const figures: RendererFigures = {
      medianMs: median(run.times),
      p90Ms: percentile(run.times, 90),
      distinctCentre: run.distinctCentre,
    }
    if (renderer === 'ours') {
      const core = await page.evaluate(
        ([renders, warmUp]) => window.__viewerBenchCore!(renders!, warmUp!),
        [RENDERS, WARM_UP],
      )
      figures.coreMedianMs = median(core)
      const stages = await page.evaluate(
        ([renders, warmUp]) => window.__viewerBenchStages!(renders!, warmUp!),
        [RENDERS, WARM_UP],
      )
      figures.stages = {
        render: median(stages.render),
        put: median(stages.put),
        draw: median(stages.draw),
      }
    }
    return figures
  } finally {
    await context.close()
  }
}

export interface RenderComparison {
  sample: string
  slowdown: number
  dwv: RendererFigures
  ours: RendererFigures
  /** dwv's median over ours: how many times faster ours is. */
  ratio: number
  /** The machine's 1-minute load average when it ended: other work slows both renderers alike. */
  load: number
}

export async function compareRenders(slowdown = CPU_SLOWDOWN): Promise<RenderComparison> {
  const { dir, description } = await preparePages()
  const server = await serve(dir)
  const browser = await launchChromium()
  try {
    const dwv = await runPage(browser, server.url, 'dwv', slowdown)
    const ours = await runPage(browser, server.url, 'ours', slowdown)
    return {
      sample: description,
      slowdown,
      dwv,
      ours,
      ratio: dwv.medianMs / ours.medianMs,
      load: loadavg()[0]!,
    }
  } finally {
    await browser.close()
    await server.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

export function describeComparison(result: RenderComparison): string {
  const ms = (value: number) => `${value.toFixed(2)} ms`
  const row = (name: string, figures: RendererFigures) =>
    `| ${name} | ${ms(figures.medianMs)} | ${ms(figures.p90Ms)} | ${figures.distinctCentre} |`
  return [
    `W/L re-render of a ${result.sample}, Chromium ${result.slowdown}× CPU slowdown, ` +
      `median of ${RENDERS} (after ${WARM_UP} warm-up), each at a new window, to pixels on the canvas ` +
      `shown at 390² (ours: the image's own size scaled by CSS, as the app; dwv: its own way) ` +
      `(load average ${result.load.toFixed(1)})`,
    '',
    '| renderer | median | p90 | distinct centre greys |',
    '|---|---:|---:|---:|',
    row('ours (src/features/viewer/core)', result.ours),
    row('dwv 0.36.4', result.dwv),
    '',
    `ours is ${result.ratio.toFixed(1)}× faster than dwv (goal ≥ 1.5×; ours ≤ 4 ms: ` +
      `${result.ours.medianMs <= 4 ? 'met' : 'NOT met'}); the core's render() alone: ` +
      `${ms(result.ours.coreMedianMs ?? Number.NaN)} median`,
    ...(result.ours.stages
      ? [
          `ours by stage (medians): render() ${ms(result.ours.stages.render)}, putImageData ` +
            `${ms(result.ours.stages.put)}, read-back of one pixel ` +
            `${ms(result.ours.stages.draw)}`,
        ]
      : []),
  ].join('\n')
}

// ------------------------------------------------------------------------------ the H5 viewer

/** The demo exams the H5 part opens (server/src/domain/demo-records/phantoms.ts). */
export const DEMO_EXAMS = [
  { title: '胸部 CT 平扫（演示）', label: 'CT 512² ×24' },
  { title: '头颅 MR 平扫（演示）', label: 'MR 256² ×20' },
] as const

export interface ViewerRun {
  label: string
  /** Tap on the series → first painted preview (the page's viewer-first-pixels), ms. */
  firstPixelsMs: number
  /** The page's viewer-render entries while the mouse drags the window, ms. */
  renderMedianMs: number
  renders: number
  /** Wheel (one slice) → that slice painted, from the frame cache, ms. */
  sliceMedianMs: number
  slices: number
}

interface Envelope<T> {
  data: T
}

async function api<T>(url: string, token: string): Promise<T> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } })
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`)
  return ((await response.json()) as Envelope<T>).data
}

/** The demo exams' ids, once the seed (pushed right after the server listens) has stored them. */
async function demoExamIds(url: string, token: string): Promise<Map<string, string>> {
  for (let attempt = 0; attempt < 240; attempt++) {
    const groups = await api<{ latest: { id: string; title: string; status: string }[] }[]>(
      `${url}/main/images`,
      token,
    )
    const ids = new Map<string, string>()
    for (const exam of groups.flatMap((group) => group.latest))
      if (exam.status === 'ready') ids.set(exam.title, exam.id)
    if (DEMO_EXAMS.every((exam) => ids.has(exam.title))) return ids
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  throw new Error('demo exams not ready after 120 s')
}

/** Signs the page in the way the app's persisted stores keep a session (as e2e/support.ts does). */
async function signInPage(page: Page, url: string): Promise<void> {
  const response = await fetch(`${url}/sso/oauth2/token`, demoLoginRequest)
  const { data } = (await response.json()) as Envelope<{
    access_token: string
    token_type: string
    expires_in: number
    refresh_token: string
    user: { nickname: string; mobileMasked: string | null }
  }>
  const token = {
    access_token: data.access_token,
    token_type: data.token_type,
    expires_in: data.expires_in,
    refresh_token: data.refresh_token,
  }
  const entries = {
    'yx-session': JSON.stringify({ state: { token }, version: 1 }),
    'yx-app': JSON.stringify({
      state: {
        hasLogin: true,
        userName: data.user.nickname || data.user.mobileMasked || '用户',
        profile: data.user,
      },
      version: 2,
    }),
  }
  await page.goto(`${url}/pages/about/about`)
  await page.evaluate((items) => {
    for (const [key, value] of Object.entries(items))
      localStorage.setItem(key, JSON.stringify({ data: value }))
  }, entries)
}

/** Durations of the page's User Timing measures of that name, in order. */
function measures(page: Page, name: string): Promise<number[]> {
  return page.evaluate(
    (entryName) => performance.getEntriesByName(entryName, 'measure').map((e) => e.duration),
    name,
  )
}

/** The viewer's image canvas: the largest canvas on the page on screen. */
async function viewerCanvasBox(
  page: Page,
): Promise<{ x: number; y: number; width: number; height: number }> {
  const box = await page.evaluate(() => {
    let best: DOMRect | null = null
    for (const canvas of document.querySelectorAll<HTMLCanvasElement>('.taro_page canvas')) {
      const rect = canvas.getBoundingClientRect()
      if (rect.width === 0 || rect.height === 0) continue
      if (!best || rect.width * rect.height > best.width * best.height) best = rect
    }
    return best && { x: best.x, y: best.y, width: best.width, height: best.height }
  })
  if (!box) throw new Error('no viewer canvas on the page')
  return box
}

/**
 * One slice step by the wheel, timed inside the page: from dispatching the wheel event to the end
 * of the next viewer-render entry (the slice painted). The slices stepped to were shown before, so
 * their frames come from the cache.
 */
function wheelToPainted(page: Page, deltaY: number): Promise<number> {
  return page.evaluate(
    (delta) =>
      new Promise<number>((resolve, reject) => {
        let best: HTMLCanvasElement | null = null
        let area = 0
        for (const canvas of document.querySelectorAll<HTMLCanvasElement>('.taro_page canvas')) {
          const rect = canvas.getBoundingClientRect()
          if (rect.width * rect.height > area) {
            best = canvas
            area = rect.width * rect.height
          }
        }
        if (!best) return reject(new Error('no canvas'))
        const rect = best.getBoundingClientRect()
        const started = performance.now()
        const observer = new PerformanceObserver((list) => {
          const entry = list.getEntriesByName('viewer-render')[0]
          if (!entry || entry.startTime < started) return
          observer.disconnect()
          clearTimeout(timer)
          resolve(entry.startTime + entry.duration - started)
        })
        observer.observe({ type: 'measure' })
        const timer = setTimeout(() => {
          observer.disconnect()
          reject(new Error('no viewer-render within 5 s of a wheel step'))
        }, 5000)
        best.dispatchEvent(
          new WheelEvent('wheel', {
            deltaY: delta,
            deltaMode: 0,
            clientX: rect.x + rect.width / 2,
            clientY: rect.y + rect.height / 2,
            bubbles: true,
            cancelable: true,
          }),
        )
      }),
    deltaY,
  )
}

async function viewerRun(
  browser: Browser,
  url: string,
  examId: string,
  label: string,
  slowdown: number,
): Promise<ViewerRun> {
  // A desktop browser at a phone's size: the mouse drives the viewer (drag = W/L, wheel = slices).
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
  })
  try {
    const page = await context.newPage()
    await signInPage(page, url)
    await page.goto(`${url}/pages/personalImage/detail?id=${encodeURIComponent(examId)}`)
    const tile = page.locator('.taro_page:visible .series-grid__tile').first()
    await tile.waitFor({ timeout: 60_000 })
    // A person taps a picture they can see: the tile's thumbnail has loaded, and they look at the
    // page for a moment (LOOK_MS), in which the page's idle work (loading the viewer) may run.
    await tile
      .locator('img')
      .first()
      .evaluate(
        (img: HTMLImageElement) =>
          (img.complete && img.naturalWidth > 0) ||
          new Promise((resolve) => img.addEventListener('load', resolve, { once: true })),
      )
    await page.waitForTimeout(LOOK_MS)
    const cdp = await context.newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown })
    await tile.click()
    await page.waitForFunction(
      () => performance.getEntriesByName('viewer-first-pixels', 'measure').length > 0,
      undefined,
      { timeout: 60_000 },
    )
    const firstPixelsMs = (await measures(page, 'viewer-first-pixels'))[0]!
    // The raw frames replace the preview, and the slices around are fetched ahead.
    await page.waitForFunction(
      () => performance.getEntriesByName('viewer-render', 'measure').length > 0,
      undefined,
      { timeout: 60_000 },
    )
    await page.waitForLoadState('networkidle')

    const box = await viewerCanvasBox(page)
    const before = (await measures(page, 'viewer-render')).length
    const x = box.x + box.width / 2
    const y = box.y + box.height / 2
    await page.mouse.move(x, y)
    await page.mouse.down()
    for (let step = 1; step <= 40; step++) {
      await page.mouse.move(x + step * 3, y - step * 2)
      await page.waitForTimeout(16)
    }
    await page.mouse.up()
    const renderTimes = (await measures(page, 'viewer-render')).slice(before)

    // Step forward then back: every slice painted here was shown (and so cached) a moment before.
    const sliceTimes: number[] = []
    await wheelToPainted(page, 100)
    await page.waitForLoadState('networkidle')
    for (let i = 0; i < 10; i++) {
      sliceTimes.push(await wheelToPainted(page, i % 2 === 0 ? -100 : 100))
      await page.waitForTimeout(50)
    }
    return {
      label,
      firstPixelsMs,
      renderMedianMs: renderTimes.length > 0 ? median(renderTimes) : Number.NaN,
      renders: renderTimes.length,
      sliceMedianMs: median(sliceTimes),
      slices: sliceTimes.length,
    }
  } finally {
    await context.close()
  }
}

/** The real H5 viewer on the demo CT and MR; builds dist/h5 first when it is stale. */
export async function measureH5Viewer(slowdown = CPU_SLOWDOWN): Promise<ViewerRun[]> {
  if (!process.env.WEB_ROOT && !(await ensureH5Build()))
    throw new Error('H5 构建失败，无法测量查看器')
  const server = await startBenchServer({
    WEB_ROOT: path.resolve(ROOT, process.env.WEB_ROOT ?? path.join('dist', 'h5')),
  })
  const browser = await launchChromium()
  try {
    const ids = await demoExamIds(server.url, await demoLogin(server.url))
    const runs: ViewerRun[] = []
    for (const exam of DEMO_EXAMS)
      runs.push(await viewerRun(browser, server.url, ids.get(exam.title)!, exam.label, slowdown))
    return runs
  } finally {
    await browser.close()
    await server.stop()
  }
}

export function describeViewerRuns(runs: ViewerRun[], slowdown = CPU_SLOWDOWN): string {
  const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(1)} ms` : '–')
  return [
    `The H5 viewer (production build, real server on loopback, Chromium ${slowdown}× CPU slowdown; ` +
      `the page's own User Timing entries; the series tapped ${LOOK_MS} ms after its thumbnail showed)`,
    '',
    '| study | tap → first pixels (goal ≤ 150) | W/L render, median (goal ≤ 4) | slice change → painted from cache, median (goal ≤ 16) |',
    '|---|---:|---:|---:|',
    ...runs.map(
      (run) =>
        `| ${run.label} | ${ms(run.firstPixelsMs)} | ${ms(run.renderMedianMs)} (${run.renders} renders) | ${ms(run.sliceMedianMs)} (${run.slices} steps) |`,
    ),
  ].join('\n')
}

export async function printViewerFigures(): Promise<void> {
  console.log('## DICOM viewer\n')
  console.log(describeComparison(await compareRenders()))
  console.log('')
  console.log(describeViewerRuns(await measureH5Viewer()))
}

if (require.main === module) {
  printViewerFigures().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error)
      process.exit(1)
    },
  )
}
