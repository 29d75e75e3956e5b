import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:net'
import path from 'node:path'
import { test } from 'node:test'
import { REPO_ROOT } from '../src/config'
import { isolatedDatabase } from './helpers'

const SERVER = path.join(REPO_ROOT, 'server', 'src', 'server.ts')

function start(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return { child, output: () => ({ stdout, stderr }) }
}

async function freePort(): Promise<number> {
  const server = createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const address = server.address()
  server.close()
  assert.ok(address && typeof address === 'object')
  return address.port
}

test('bad configuration: a clear message, exit code 1, no stack trace', async () => {
  const { child, output } = start({ PORT: 'abc', DATABASE_URL: ':memory:' })
  const [code] = (await once(child, 'exit')) as [number]
  const { stderr } = output()
  assert.equal(code, 1)
  assert.match(stderr, /配置有误，服务未启动/)
  assert.match(stderr, /PORT/)
  assert.doesNotMatch(stderr, /\n\s+at /)
})

test('starts, serves the envelope and shuts down gracefully on SIGTERM', async () => {
  const port = await freePort()
  const database = isolatedDatabase()
  const env: Record<string, string> =
    database.kind === 'postgres'
      ? { DATABASE_URL: database.url, DATABASE_SCHEMA: database.schema ?? '' }
      : { DATABASE_URL: ':memory:' }
  const { child, output } = start({ ...env, PORT: String(port), WEB_ROOT: '/nonexistent' })
  try {
    let body: { code?: number; data?: { version?: string } } = {}
    for (let attempt = 0; attempt < 100; attempt++) {
      try {
        const res = await fetch(
          `http://127.0.0.1:${port}/main/app/version?softwareName=yingxiang-h5`,
        )
        body = (await res.json()) as typeof body
        break
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }
    assert.equal(body.code, 200)
    assert.ok(body.data?.version)
  } finally {
    child.kill('SIGTERM')
  }
  const [code] = (await once(child, 'exit')) as [number]
  const { stdout } = output()
  assert.equal(code, 0)
  const lines = stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { msg: string; req?: { url: string } })
  assert.ok(lines.some((line) => line.msg === 'shutting down'))
  // The request line is logged, its query string (where GET calls carry data) is not.
  // (Demo mode's own pushes of the demo records are logged too: look for this test's request.)
  const logged = lines.find((line) => line.req?.url.startsWith('/main/app/'))
  assert.equal(logged?.req?.url, '/main/app/version')
  assert.doesNotMatch(stdout, /softwareName=/)
})
