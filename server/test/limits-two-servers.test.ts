import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { before, test } from 'node:test'
import { closeAfter, isolatedDatabase, TEST_PG_URL } from './helpers'

/**
 * Two real server processes (`server/src/server.ts`) on one PostgreSQL database, a burst fired at
 * both alternately: the limits hold across processes because they live in the database, not in
 * memory. Runs in the --pg run of the server suite (scripts/test-server.ts --pg); on SQLite it is
 * skipped (one embedded file is not how several processes are deployed).
 */

const ROOT = path.resolve(__dirname, '..', '..')
const DEMO_PATIENT = '13800000001'
const skip = TEST_PG_URL ? false : 'PostgreSQL only: runs in `npx tsx scripts/test-server.ts --pg`'

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

async function startServer(schema: string): Promise<string> {
  const port = await freePort()
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/src/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: TEST_PG_URL,
      DATABASE_SCHEMA: schema,
      // Demo mode (seeded accounts, the SMS outbox) on loopback, whatever the caller's NODE_ENV.
      NODE_ENV: 'development',
      DEMO_MODE: 'on',
      LOG_LEVEL: 'silent',
      // The burst varies the client address through the (trusted) loopback proxy hop.
      TRUST_PROXY: '1',
      WEB_ROOT: path.join(os.tmpdir(), `yx-no-web-${randomBytes(4).toString('hex')}`),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  closeAfter(async () => {
    if (child.exitCode !== null) return
    child.kill('SIGTERM')
    await new Promise((resolve) => child.once('exit', resolve))
  })
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 90_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited during start-up: ${stderr}`)
    if (Date.now() > deadline) throw new Error(`server did not start: ${stderr}`)
    try {
      if ((await fetch(`${url}/health`)).ok) return url
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

let servers: string[] = []
before(async () => {
  if (skip) return
  const database = isolatedDatabase()
  const schema = database.kind === 'postgres' ? database.schema! : ''
  // One after the other: the first migrates and seeds the fresh schema, the second finds it ready.
  servers = [await startServer(schema)]
  servers.push(await startServer(schema))
})

let addressCounter = 0
const freshAddress = () => `198.51.${(addressCounter >> 8) & 255}.${(addressCounter += 1) & 255}`

/** Fires `count` POSTs at once, alternately at the two servers. */
async function burst(
  count: number,
  url: string,
  body: (i: number) => object,
  address: (i: number) => string,
): Promise<{ status: number; error: string }[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const res = await fetch(`${servers[i % 2]}${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address(i) },
        body: JSON.stringify(body(i)),
      })
      const json = (await res.json()) as { error: string | null }
      return { status: res.status, error: json.error ?? '' }
    }),
  )
}

test('two servers, 60 parallel wrong passwords for one phone: 5 checked', { skip }, async () => {
  const ip = freshAddress()
  const answers = await burst(
    60,
    '/sso/oauth2/token',
    () => ({ grant_type: 'password', username: DEMO_PATIENT, password: 'wrong1234' }),
    () => ip,
  )
  const wrong = answers.filter((a) => a.error.startsWith('手机号或密码错误'))
  // Four "wrong, N left" answers and one lock after a check; every other attempt was refused unchecked.
  assert.equal(wrong.length, 4, JSON.stringify(answers.map((a) => a.error)))
  assert.ok(answers.every((a) => a.status === 400 || a.status === 429))
  assert.equal(answers.filter((a) => a.status === 429).length, 56)
})

test('two servers, 30 parallel SMS sends for one phone: one sent', { skip }, async () => {
  const mobile = `1370000${String(process.pid % 10000).padStart(4, '0')}`
  const answers = await burst(
    30,
    '/sso/sms/send',
    () => ({ mobile, purpose: 'login' }),
    () => freshAddress(),
  )
  assert.equal(answers.filter((a) => a.status === 200).length, 1)
})

test('two servers, 30 parallel sends from one address: at most 20', { skip }, async () => {
  const ip = freshAddress()
  const answers = await burst(
    30,
    '/sso/sms/send',
    (i) => ({ mobile: `1360000${String(i).padStart(4, '0')}`, purpose: 'register' }),
    () => ip,
  )
  assert.equal(answers.filter((a) => a.status === 200).length, 20)
})

test(
  'two servers, 30 parallel guesses of one code from one address: at most 5 compared',
  { skip },
  async () => {
    const sent = await burst(
      1,
      '/sso/sms/send',
      () => ({ mobile: DEMO_PATIENT, purpose: 'login' }),
      () => freshAddress(),
    )
    assert.equal(sent[0]!.status, 200)
    const latest = await fetch(`${servers[1]}/main/demo/sms/latest?mobile=${DEMO_PATIENT}`)
    const { code } = ((await latest.json()) as { data: { code: string } }).data
    const wrong = code === '000000' ? '111111' : '000000'
    const guesser = freshAddress()
    const answers = await burst(
      30,
      '/sso/oauth2/token',
      (i) => ({ grant_type: 'sms_code', mobile: DEMO_PATIENT, code: i === 0 ? code : wrong }),
      () => guesser,
    )
    const compared = answers.filter((a) => a.status === 200 || a.error.startsWith('验证码错误，'))
    assert.ok(compared.length <= 5, `${compared.length} guesses were compared`)
  },
)

test(
  'two servers, 60 parallel wrong guesses of one code from 60 addresses: 20 compared',
  { skip },
  async () => {
    const mobile = `1350000${String(process.pid % 10000).padStart(4, '0')}`
    const sent = await burst(1, '/sso/sms/send', () => ({ mobile, purpose: 'reset' }), freshAddress)
    assert.equal(sent[0]!.status, 200)
    const latest = await fetch(`${servers[1]}/main/demo/sms/latest?mobile=${mobile}`)
    const { code } = ((await latest.json()) as { data: { code: string } }).data
    const wrong = code === '000000' ? '111111' : '000000'
    const answers = await burst(
      60,
      '/main/account/code/validate',
      () => ({ mobile, code: wrong, purpose: 'reset' }),
      () => freshAddress(),
    )
    const compared = answers.filter((a) => a.error.startsWith('验证码错误，'))
    assert.equal(compared.length, 20, JSON.stringify(answers.map((a) => a.error)))
  },
)

test(
  'two servers, 90 parallel analytics events from one address: 60 stored',
  { skip },
  async () => {
    const ip = freshAddress()
    const answers = await burst(
      90,
      '/main/account/track',
      () => ({ event: 'page_view' }),
      () => ip,
    )
    assert.equal(answers.filter((a) => a.status === 200).length, 60)
    assert.equal(answers.filter((a) => a.status === 429).length, 30)
  },
)

test(
  'two servers, 90 parallel QR login requests from one address: 60 created',
  { skip },
  async () => {
    const ip = freshAddress()
    const answers = await burst(
      90,
      '/main/account/qr',
      () => ({}),
      () => ip,
    )
    assert.equal(answers.filter((a) => a.status === 200).length, 60)
    assert.equal(answers.filter((a) => a.status === 429).length, 30)
  },
)
