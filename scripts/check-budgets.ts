/**
 * Size budgets of the production builds (run after `npm run build`). Fails the build when one is
 * exceeded; the figures are printed either way.
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
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

  if (failures.length > 0) {
    console.error(`\n超出体积预算：\n  ${failures.join('\n  ')}`)
    return 1
  }
  console.log('\nAll size budgets met.')
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
