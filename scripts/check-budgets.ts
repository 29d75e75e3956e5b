/**
 * Size budgets of the production builds (run after `npm run build`), and the ingest budgets that
 * hold on a loaded CI machine (see INGEST below). Fails when one is exceeded; the figures are
 * printed either way.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { describeKnowledge, measureKnowledge } from '../bench/knowledge'
import { measureUploads } from '../bench/upload'
import { FIRST_PAINT_CSS_ID, FIRST_PAINT_ID } from '../config/first-paint'
import { H5_DIR, WEAPP_DIR, h5InitialJs, kb, weappPackageSizes } from './lib/sizes'

export const BUDGETS = {
  weappMain: 800 * 1024,
  /** WeChat refuses any single package over 2 MB. */
  weappPackage: 2 * 1024 * 1024,
  /** WeChat's limit for all packages together. */
  weappTotal: 20 * 1024 * 1024,
  h5InitialJsGzip: 150 * 1024,
  /**
   * What a phone downloads before the home page can paint (index.html, the app and home chunks, their
   * CSS), brotli as the server sends it. At 1.6 Mbps every 10 KB is about 50 ms of waiting; 127 KB
   * when this budget was set (issue 6, section 5).
   */
  h5FirstScreenBrotli: 140 * 1024,
} as const

/*
 * Issue 7's ingest budgets are: a 20-slice MR ≤ 1.5 s and a 500-slice CT ≤ 20 s from upload end to
 * 可查看, the first thumbnail of 影像详情 ≤ 300 ms, and the server under 300 MB while it ingests a
 * 1 GB zip. `npm run bench` prints all of them. Only two are enforced here, because only they hold
 * on a loaded 2-core CI machine without flaking:
 * - memory: the server's resident high-water mark while it ingests a CT. Memory does not depend on
 *   how busy the CPU is, and the ingest keeps a bounded amount whatever the zip's size (the 2000-
 *   slice, 1 GB run peaks where the 500-slice one does), so a 300-slice CT (~20 s here) stands for
 *   the 1 GB zip: keeping each slice until the commit, as before, would add ~0.75 MB a slice.
 * - the first thumbnail is a cached read once the upload reads 可查看 (rendered by the ingest):
 *   a fact, not a time. Its time is then a few ms, far below 300, even on a busy machine.
 * The times are not enforced: on this 2-core machine shared by other jobs the same MR run took
 * 0.7–1.7 s and the CT 15–30 s, so a timing gate would fail for reasons unrelated to the code.
 */
export const INGEST = {
  ctSlices: 300,
  serverPeakMb: 300,
} as const

/**
 * Issue 23: the knowledge analysis (通俗解释) of a 2,000-character report within 5 ms. Enforced on
 * the median of thousands of runs, which a loaded machine moves little (0.12 ms here, p99 0.7 ms,
 * when this was set): a pause of the garbage collector or of a busy core shows in the maximum, and
 * the maximum is printed, not enforced.
 */
export const KNOWLEDGE = {
  medianMs: 5,
  runs: 5000,
} as const

/**
 * The DICOM viewer (issue 8) lives in the images subpackage, whose pages open it: that subpackage,
 * viewer included, stays within WeChat's 2 MB per package. Its render core is plain TypeScript
 * with a lookup table per window: no decoder (the server decodes every syntax), no WebGL, no
 * viewer library, and none of it in the main package every user downloads at launch.
 */
export const VIEWER = {
  page: 'pages/personalImage/viewer',
  subpackage: 'pages/personalImage',
  subpackageBytes: 2 * 1024 * 1024,
  /** A text only the render core holds (core/errors.ts BROKEN_DATA): finds where its code went. */
  coreMarker: '影像数据不完整，无法显示',
} as const

/** What must never reach the mini-program's JavaScript, and how it would show in the build. */
export const NOT_IN_APP: readonly { pattern: RegExp; what: string }[] = [
  { pattern: /getContext\(\s*["'](?:experimental-)?webgl2?["']/, what: 'WebGL' },
  // "\0asm", a WebAssembly module's first bytes, in base64: how bundlers inline a decoder's WASM.
  { pattern: /AGFzbQ/, what: '内联的 WebAssembly（解码器）' },
  {
    pattern: /\bKonva\b|cornerstone|dicomParser|\bdaikon\b/,
    what: '查看器或解码库（Konva、cornerstone、dicom-parser、daikon）',
  },
]

/** `text` as it appears in minified output: as is, or with non-ASCII escaped (\u5f71). */
export function containsText(source: string, text: string): boolean {
  if (source.includes(text)) return true
  const escaped = (upper: boolean) =>
    [...text]
      .map((c) => {
        const code = c.charCodeAt(0)
        if (code < 128) return c
        const hex = code.toString(16).padStart(4, '0')
        return `\\u${upper ? hex.toUpperCase() : hex}`
      })
      .join('')
  return source.includes(escaped(false)) || source.includes(escaped(true))
}

export interface ViewerBudget {
  /** The images subpackage, viewer included, bytes. */
  subpackageBytes: number
  /** The viewer page's own files (viewer.js/.json/.wxml/.wxss), bytes. */
  pageBytes: number
  /** Files (relative to the build) that hold the render core. */
  coreFiles: string[]
  failures: string[]
}

/** The viewer's part of a weapp build in `dir` (dist/weapp). */
export function checkViewerBudget(dir = WEAPP_DIR): ViewerBudget {
  const failures: string[] = []
  const appJson = JSON.parse(readFileSync(path.join(dir, 'app.json'), 'utf8')) as {
    subPackages?: { root: string; pages: string[] }[]
  }
  const sub = (appJson.subPackages ?? []).find(
    (entry) => entry.root.replace(/\/$/, '') === VIEWER.subpackage,
  )
  const pageName = VIEWER.page.slice(VIEWER.subpackage.length + 1)
  if (!sub?.pages.includes(pageName))
    failures.push(`查看器页面 ${VIEWER.page} 不在分包 ${VIEWER.subpackage} 中`)
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => statSync(path.join(dir, file)).isFile())
  const inSub = (file: string) => file.startsWith(`${VIEWER.subpackage}/`)
  const bytes = (file: string) => statSync(path.join(dir, file)).size
  const subpackageBytes = files.filter(inSub).reduce((sum, file) => sum + bytes(file), 0)
  const pageBytes = files
    .filter((file) => file.startsWith(`${VIEWER.page}.`))
    .reduce((sum, file) => sum + bytes(file), 0)
  if (subpackageBytes > VIEWER.subpackageBytes)
    failures.push(
      `分包 ${VIEWER.subpackage}（含查看器）${kb(subpackageBytes)} > ${kb(VIEWER.subpackageBytes)}`,
    )

  const coreFiles: string[] = []
  for (const file of files.filter((name) => name.endsWith('.js'))) {
    const source = readFileSync(path.join(dir, file), 'utf8')
    if (containsText(source, VIEWER.coreMarker)) coreFiles.push(file)
    for (const { pattern, what } of NOT_IN_APP)
      if (pattern.test(source))
        failures.push(`${file} 含有 ${what}：查看器只用查找表渲染，解码在服务器`)
  }
  for (const file of files.filter((name) => name.endsWith('.wasm')))
    failures.push(`${file}：小程序包中不应有 WebAssembly（解码在服务器）`)
  if (coreFiles.length === 0)
    failures.push(
      '构建中找不到查看器的渲染核心（src/features/viewer/core）：页面未接入，或标记文字已改',
    )
  for (const file of coreFiles.filter((name) => !inSub(name)))
    failures.push(`渲染核心进了主包（${file}）：它只属于 ${VIEWER.subpackage} 分包`)
  return { subpackageBytes, pageBytes, coreFiles, failures }
}

export interface FirstScreen {
  files: { file: string; bytes: number; brotli: boolean }[]
  bytes: number
  /** Text files the build should have compressed but did not. */
  uncompressed: string[]
}

/**
 * The first screen's bytes on the wire, from the build's own list (config/h5-plugins.ts writes it
 * from index.html after adding the home chunk's preloads): each file's .br when there is one.
 */
export function firstScreenBytes(dir: string): FirstScreen {
  const metaFile = path.join(dir, '.build-meta.json')
  if (!existsSync(metaFile))
    throw new Error(`缺少 ${metaFile}：请用当前配置重新构建（npm run build:h5）`)
  const { firstScreen } = JSON.parse(readFileSync(metaFile, 'utf8')) as { firstScreen: string[] }
  const files = firstScreen.map((file) => {
    const br = path.join(dir, `${file}.br`)
    const brotli = existsSync(br)
    return { file, bytes: statSync(brotli ? br : path.join(dir, file)).size, brotli }
  })
  return {
    files,
    bytes: files.reduce((sum, f) => sum + f.bytes, 0),
    // A variant is left out only when it saves nothing, which never happens above a kilobyte.
    uncompressed: files.filter((f) => !f.brotli && f.bytes > 1024).map((f) => f.file),
  }
}

/**
 * Whether index.html carries the home's prerendered first paint (config/first-paint.ts). A build on a
 * machine without Chromium skips it with a warning; the LCP target depends on it, so budgets fail.
 */
export function hasFirstPaint(dir: string): boolean {
  const html = readFileSync(path.join(dir, 'index.html'), 'utf8')
  return html.includes(`id="${FIRST_PAINT_ID}"`) && html.includes(`id="${FIRST_PAINT_CSS_ID}"`)
}

async function main(): Promise<number> {
  for (const dir of [WEAPP_DIR, H5_DIR]) {
    if (!existsSync(dir)) {
      console.error(`缺少构建产物 ${path.relative(process.cwd(), dir)}：请先运行 npm run build`)
      return 1
    }
  }
  const failures: string[] = []
  const packages = weappPackageSizes()
  const total = packages.reduce((sum, p) => sum + p.bytes, 0)
  console.log('weapp packages')
  for (const pkg of packages) {
    const limit = pkg.name === '(主包)' ? BUDGETS.weappMain : BUDGETS.weappPackage
    const ok = pkg.bytes <= limit
    if (!ok) failures.push(`${pkg.name} ${kb(pkg.bytes)} > ${kb(limit)}`)
    console.log(
      `  ${ok ? 'ok  ' : 'OVER'} ${pkg.name.padEnd(44)} ${kb(pkg.bytes).padStart(10)}  / ${kb(limit)}`,
    )
  }
  if (total > BUDGETS.weappTotal)
    failures.push(`weapp total ${kb(total)} > ${kb(BUDGETS.weappTotal)}`)
  console.log(`  total ${kb(total)} / ${kb(BUDGETS.weappTotal)}`)

  const viewer = checkViewerBudget()
  failures.push(...viewer.failures)
  const viewerOk = viewer.failures.length === 0
  console.log(
    `weapp DICOM viewer (${VIEWER.page}, render core in ${viewer.coreFiles.join(', ') || 'none'})`,
  )
  console.log(
    `  ${viewerOk ? 'ok  ' : 'OVER'} ${VIEWER.subpackage} with the viewer ${kb(viewer.subpackageBytes)} / ${kb(VIEWER.subpackageBytes)}; the page's own files ${kb(viewer.pageBytes)}`,
  )
  for (const failure of viewer.failures) console.log(`       ${failure}`)

  const initial = await h5InitialJs('/')
  const ok = initial.gzipBytes <= BUDGETS.h5InitialJsGzip
  if (!ok)
    failures.push(`H5 initial JS ${kb(initial.gzipBytes)} gzip > ${kb(BUDGETS.h5InitialJsGzip)}`)
  console.log(`h5 initial JavaScript for /  (${initial.files.length} files)`)
  for (const file of initial.files)
    console.log(`       ${file.url.padEnd(44)} ${kb(file.gzipBytes).padStart(10)} gzip`)
  console.log(
    `  ${ok ? 'ok  ' : 'OVER'} total ${kb(initial.gzipBytes)} gzip / ${kb(BUDGETS.h5InitialJsGzip)}`,
  )

  const first = firstScreenBytes(H5_DIR)
  const firstOk = first.bytes <= BUDGETS.h5FirstScreenBrotli && first.uncompressed.length === 0
  if (first.bytes > BUDGETS.h5FirstScreenBrotli)
    failures.push(`H5 first screen ${kb(first.bytes)} brotli > ${kb(BUDGETS.h5FirstScreenBrotli)}`)
  for (const file of first.uncompressed) failures.push(`H5 first screen: ${file} has no .br file`)
  console.log(`h5 first screen on the wire (brotli, ${first.files.length} files)`)
  for (const file of first.files)
    console.log(
      `       ${file.file.padEnd(44)} ${kb(file.bytes).padStart(10)} ${file.brotli ? 'br' : 'plain'}`,
    )
  console.log(
    `  ${firstOk ? 'ok  ' : 'OVER'} total ${kb(first.bytes)} / ${kb(BUDGETS.h5FirstScreenBrotli)}`,
  )

  const painted = hasFirstPaint(H5_DIR)
  if (!painted)
    failures.push('H5 index.html 缺少首页静态首屏（构建时需要 Chromium：config/first-paint.ts）')
  console.log(`h5 prerendered first paint of the home in index.html: ${painted ? 'ok' : 'MISSING'}`)

  console.log(
    `ingest (real server, SQLite, local store; the MR once, a ${INGEST.ctSlices}-slice CT)`,
  )
  const { mr, ct } = await measureUploads({ mrRuns: 1, ctSlices: INGEST.ctSlices })
  const thumbnail = mr.thumbnails[0]!
  if (!thumbnail.cached)
    failures.push(
      `影像详情的首张缩略图在"可查看"后仍需渲染（${thumbnail.timing}），应已在入库时生成`,
    )
  console.log(
    `  ${thumbnail.cached ? 'ok  ' : 'OVER'} MR first thumbnail after 可查看: ${thumbnail.timing} (${thumbnail.ms.toFixed(0)} ms on the wire)`,
  )
  if (ct.status !== 'ready') failures.push(`CT 上传未能入库：${ct.status} ${ct.message ?? ''}`)
  const peakOk = ct.rssPeakMb <= INGEST.serverPeakMb
  if (!peakOk)
    failures.push(`入库时服务器内存峰值 ${ct.rssPeakMb.toFixed(0)} MB > ${INGEST.serverPeakMb} MB`)
  console.log(
    `  ${peakOk ? 'ok  ' : 'OVER'} server peak RSS while ingesting the CT ${ct.rssPeakMb.toFixed(0)} MB / ${INGEST.serverPeakMb} MB (before ${ct.rssBeforeMb.toFixed(0)} MB)`,
  )
  console.log(
    `       not enforced (timing): MR upload end → 可查看 ${mr.medianMs.toFixed(0)} ms, CT ${(ct.readyMs / 1000).toFixed(1)} s`,
  )

  const knowledge = measureKnowledge(KNOWLEDGE.runs)
  const knowledgeOk = knowledge.medianMs <= KNOWLEDGE.medianMs
  if (!knowledgeOk)
    failures.push(
      `通俗解释：${knowledge.chars} 字报告的分析中位数 ${knowledge.medianMs.toFixed(2)} ms > ${KNOWLEDGE.medianMs} ms`,
    )
  console.log('knowledge analysis (issue 23, in-process)')
  console.log(
    `  ${knowledgeOk ? 'ok  ' : 'OVER'} median ${knowledge.medianMs.toFixed(3)} ms / ${KNOWLEDGE.medianMs} ms`,
  )
  for (const line of describeKnowledge(knowledge).split('\n')) console.log(`       ${line}`)

  if (failures.length > 0) {
    console.error(`\n超出预算：\n  ${failures.join('\n  ')}`)
    return 1
  }
  console.log('\nAll budgets met.')
  return 0
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error)
      process.exit(1)
    },
  )
}
