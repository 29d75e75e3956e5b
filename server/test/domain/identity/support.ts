import type { FastifyInstance } from 'fastify'
import type { SmsPurpose } from '@contract/sso/auth'
import { buildApp, type BuildOptions } from '../../../src/app'
import type { Config } from '../../../src/config'
import type { DB } from '../../../src/db'
import type { SmsProvider } from '../../../src/domain/identity'
import { closeAfter, openTestDatabase, testConfig } from '../../helpers'

/** Shared by the identity tests (domain and routes); not a test file itself. */

/** A clock the tests move by hand, so expiries and rate windows are crossed without sleeping. */
export class TestClock {
  private time: number
  constructor(start = '2030-01-01T08:00:00.000Z') {
    this.time = Date.parse(start)
  }
  now = (): Date => new Date(this.time)
  advance(ms: number): void {
    this.time += ms
  }
}

/** An SMS provider that keeps what it was asked to send. */
export function recordingSms(): SmsProvider & {
  sent: { mobile: string; purpose: SmsPurpose; code: string }[]
  last(mobile: string): string
} {
  const sent: { mobile: string; purpose: SmsPurpose; code: string }[] = []
  return {
    sent,
    async send(mobile, purpose, code) {
      sent.push({ mobile, purpose, code })
    },
    last(mobile) {
      const found = sent.filter((message) => message.mobile === mobile).at(-1)
      if (!found) throw new Error('no code sent to that phone')
      return found.code
    },
  }
}

/** A migrated, unseeded database for domain tests. */
export async function migratedDb(): Promise<DB> {
  const handle = openTestDatabase()
  await handle.migrate()
  return handle.db
}

export interface IdentityApp {
  app: FastifyInstance
  clock: TestClock
  /** Every JSON log line written, for the no-personal-data checks. */
  logs: string[]
}

/** The whole app with a hand-moved clock and its log lines captured. */
export async function buildIdentityApp(
  overrides: Partial<Config> = {},
  options: Omit<BuildOptions, 'now' | 'logStream'> = {},
): Promise<IdentityApp> {
  const clock = new TestClock()
  const logs: string[] = []
  const app = await buildApp(testConfig({ logLevel: 'info', ...overrides }), {
    ...options,
    now: clock.now,
    logStream: { write: (line) => void logs.push(line) },
  })
  closeAfter(() => app.close())
  return { app, clock, logs }
}

let ipCounter = 0

/** A client address nobody else in the file uses, so per-IP limits only bite where a test wants. */
export function freshIp(): string {
  ipCounter += 1
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`
}

let mobileCounter = 0

/** A valid mainland number nobody else in the process uses. */
export function freshMobile(): string {
  mobileCounter += 1
  return `137${String(process.pid % 10000).padStart(4, '0')}${String(mobileCounter).padStart(4, '0')}`
}

/** Sends a code through the API and reads it back from the demo outbox endpoint. */
export async function codeFor(
  app: FastifyInstance,
  mobile: string,
  purpose: SmsPurpose,
): Promise<string> {
  const sent = await app.inject({
    method: 'POST',
    url: '/sso/sms/send',
    payload: { mobile, purpose },
    remoteAddress: freshIp(),
  })
  if (sent.statusCode !== 200) throw new Error(`send failed: ${sent.body}`)
  const latest = await app.inject(`/main/demo/sms/latest?mobile=${mobile}`)
  if (latest.statusCode !== 200) throw new Error(`outbox read failed: ${latest.body}`)
  return (latest.json() as { data: { code: string } }).data.code
}

export interface RegisteredUser {
  mobile: string
  password: string
  access: string
  refresh: string
  userId: string
}

/** Registers a fresh phone through the API (demo mode) and answers its tokens. */
export async function registerUser(
  { app, clock }: IdentityApp,
  password = 'abc12345',
): Promise<RegisteredUser> {
  const mobile = freshMobile()
  const code = await codeFor(app, mobile, 'register')
  const res = await app.inject({
    method: 'POST',
    url: '/sso/register',
    payload: { mobile, code, password, agreed: true },
  })
  if (res.statusCode !== 200) throw new Error(`register failed: ${res.body}`)
  const data = res.json().data as {
    access_token: string
    refresh_token: string
    user: { id: string }
  }
  // Later sends to this phone are past the 60 s cooldown.
  clock.advance(61_000)
  return {
    mobile,
    password,
    access: data.access_token,
    refresh: data.refresh_token,
    userId: data.user.id,
  }
}

export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` }
}
