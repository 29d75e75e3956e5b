/**
 * `npm run bench`: prints figures, never passes or fails on them (budgets live in check-budgets.ts).
 * Needs the production builds (npm run build).
 */
import { performance } from 'node:perf_hooks'
import { h5InitialJs, kb, weappPackageSizes } from '../scripts/lib/sizes'
import { printBursts } from './burst'
import { printDicomFigures } from './dicom'
import { describeKnowledge, measureKnowledge } from './knowledge'
import { printRecordsFigures } from './records'
import { demoLogin, demoLoginRequest, startBenchServer } from './server'
import { printUploadFigures } from './upload'
import { printViewerFigures } from './viewer'
import { describeLcp, measureLcp } from './lcp'
import { describePageJs, measurePageJs } from './page-js'

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

async function latency(
  url: string,
  requests: number,
  init?: RequestInit,
  warmUp = 20,
): Promise<{ p50: number; p99: number; perSecond: number }> {
  const times: number[] = []
  for (let i = 0; i < warmUp; i += 1) await (await fetch(url, init)).arrayBuffer()
  const started = performance.now()
  for (let i = 0; i < requests; i += 1) {
    const t0 = performance.now()
    const response = await fetch(url, init)
    if (!response.ok) throw new Error(`${url} answered ${response.status}`)
    await response.arrayBuffer()
    times.push(performance.now() - t0)
  }
  const elapsed = performance.now() - started
  times.sort((a, b) => a - b)
  return {
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    perSecond: (requests / elapsed) * 1000,
  }
}

async function main(): Promise<void> {
  console.log('## Bundle sizes\n')
  console.log('| weapp package | size | files |\n|---|---:|---:|')
  const packages = weappPackageSizes()
  for (const pkg of packages) console.log(`| ${pkg.name} | ${kb(pkg.bytes)} | ${pkg.files} |`)
  console.log(`| **total** | ${kb(packages.reduce((sum, p) => sum + p.bytes, 0))} | |`)

  const initial = await h5InitialJs('/')
  console.log(
    `\n| H5 initial JS for / | ${kb(initial.gzipBytes)} gzip (${kb(initial.bytes)} raw, ${initial.files.length} files) |`,
  )
  console.log(
    `| H5 / first content in Chromium (loopback, no throttling) | ${initial.contentMs} ms |`,
  )

  console.log(`\n${describePageJs(await measurePageJs())}`)

  console.log(`\n${describeLcp(await measureLcp())}`)

  console.log('\n## Server\n')
  const server = await startBenchServer({ WEB_ROOT: 'dist/h5' })
  try {
    console.log(
      `| cold start (spawn → /health, fresh SQLite, migrate + seed) | ${server.startMs.toFixed(0)} ms |`,
    )
    const requests = 500
    for (const [name, target] of [
      ['GET /main/app/version', `${server.url}/main/app/version?softwareName=yingxiang-weapp`],
      ['GET /health', `${server.url}/health`],
    ] as const) {
      const result = await latency(target, requests)
      console.log(
        `| ${name} (${requests} sequential) | p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms, ${result.perSecond.toFixed(0)} req/s |`,
      )
    }
    // Password login is argon2id on purpose: slow enough to make guessing expensive.
    const login = await latency(`${server.url}/sso/oauth2/token`, 50, demoLoginRequest, 3)
    console.log(
      `| POST /sso/oauth2/token password login (50 sequential, argon2id) | p50 ${login.p50.toFixed(1)} ms, p99 ${login.p99.toFixed(1)} ms, ${login.perSecond.toFixed(1)} req/s |`,
    )
    const token = await demoLogin(server.url)
    const cards = await latency(`${server.url}/main/account/cards`, requests, {
      headers: { authorization: `Bearer ${token}` },
    })
    console.log(
      `| GET /main/account/cards authenticated read (${requests} sequential) | p50 ${cards.p50.toFixed(2)} ms, p99 ${cards.p99.toFixed(2)} ms, ${cards.perSecond.toFixed(0)} req/s |`,
    )
  } finally {
    await server.stop()
  }
  await printBursts()
  await printRecordsFigures()
  console.log('')
  await printUploadFigures()
  console.log('')
  await printDicomFigures()
  console.log('')
  await printViewerFigures()
  console.log('')
  console.log(describeKnowledge(measureKnowledge()))
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
