/**
 * The DICOM viewer's figures (issue 8). Part of `npm run bench`; alone: `npx tsx bench/viewer.ts`.
 * Prints figures, never fails on them.
 *
 * 1. Window/level re-render, ours against dwv 0.36, on the same 512² 16-bit CT file in the same
 *    Chromium with a 4× CPU slowdown (CDP Emulation.setCPUThrottlingRate): each library in a page of
 *    its own (bench/viewer-page/*.ts, bundled here with esbuild), served from a temporary directory,
 *    every render at a window not seen before, medians of RENDERS renders after WARM_UP.
 *    The file is the demo's chest CT (server/src/domain/records/demo/phantoms.ts, the middle slice);
 *    our page gets what the app gets from the server: the instance's DICOM JSON and the frame's
 *    decoded bytes, made with the server's own code (dicomJson, decodeFrames).
 * 2. The real H5 viewer (H5 build served by the real server with its demo data): see h5Viewer below.
 */
import { createServer, type Server } from 'node:http'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { build } from 'esbuild'
import type { Browser } from 'playwright-core'
import { launchChromium } from '../scripts/lib/browser'
import { decodeFrames, dicomJson, parse } from '../server/src/dicom'
import { demoChestCt } from '../server/src/domain/records/demo/phantoms'
import { type InstanceRow, instanceMetadata } from '../server/src/domain/records/retrieve'
import type { RenderRun } from './viewer-page/timing'

const ROOT = path.resolve(__dirname, '..')
export const CPU_SLOWDOWN = 4
export const RENDERS = 60
export const WARM_UP = 10

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
  /** Ours only: medians of each stage of a canvas render, ms. */
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
      `median of ${RENDERS} (after ${WARM_UP} warm-up), each at a new window, to pixels on a 390² canvas ` +
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
            `${ms(result.ours.stages.put)}, drawImage to the screen canvas + read-back ` +
            `${ms(result.ours.stages.draw)}`,
        ]
      : []),
  ].join('\n')
}

export async function printViewerFigures(): Promise<void> {
  console.log('## DICOM viewer\n')
  console.log(describeComparison(await compareRenders()))
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
