/**
 * Size budgets of the production builds (run after `npm run build`). Fails the build when one is
 * exceeded; the figures are printed either way.
 */
import { existsSync } from 'node:fs'
import path from 'node:path'
import { H5_DIR, WEAPP_DIR, h5InitialJs, kb, weappPackageSizes } from './lib/sizes'

export const BUDGETS = {
  weappMain: 800 * 1024,
  /** WeChat refuses any single package over 2 MB. */
  weappPackage: 2 * 1024 * 1024,
  /** WeChat's limit for all packages together. */
  weappTotal: 20 * 1024 * 1024,
  h5InitialJsGzip: 150 * 1024,
} as const

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
