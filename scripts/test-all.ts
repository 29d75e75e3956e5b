/**
 * `npm test`: every gate, in the order a failure is cheapest to find. Stops at the first failing gate
 * and prints how long each one took.
 */
import { spawnSync } from 'node:child_process'
import { performance } from 'node:perf_hooks'

const GATES: { name: string; script: string }[] = [
  { name: 'format', script: 'format:check' },
  { name: 'lint', script: 'lint' },
  { name: 'types', script: 'typecheck' },
  { name: 'unit (Jest)', script: 'test:unit' },
  { name: 'server on SQLite', script: 'test:server' },
  { name: 'server on PostgreSQL', script: 'test:server:pg' },
  { name: 'production builds', script: 'build' },
  { name: 'size budgets', script: 'budgets' },
  { name: 'weapp code quality', script: 'weapp:quality' },
  { name: 'e2e (Chromium)', script: 'test:e2e' },
]

// The production builds here are measured and linted, never shipped: the mini-program gets a
// placeholder API origin instead of stopping for want of TARO_APP_API_ORIGIN (config/app-env.ts).
process.env.BUILD_FOR_CHECKS ??= '1'

const only = process.argv.slice(2)
const results: { name: string; seconds: number; ok: boolean }[] = []
for (const gate of GATES) {
  if (only.length > 0 && !only.includes(gate.script)) continue
  console.log(`\n=== ${gate.name}: npm run ${gate.script}\n`)
  const started = performance.now()
  const run = spawnSync('npm', ['run', '--silent', gate.script], { stdio: 'inherit' })
  const ok = run.status === 0
  results.push({ name: gate.name, seconds: (performance.now() - started) / 1000, ok })
  if (!ok) break
}

console.log('\n=== summary')
for (const result of results) {
  console.log(
    `  ${result.ok ? 'ok  ' : 'FAIL'} ${result.name.padEnd(24)} ${result.seconds.toFixed(1).padStart(6)} s`,
  )
}
const failed = results.find((result) => !result.ok)
if (failed) {
  console.error(`\nnpm test failed at: ${failed.name}`)
  process.exit(1)
}
