import type { FastifyInstance } from 'fastify'
import type { SmsPurpose } from '@contract/sso/auth'
import { buildApp } from '../../../src/app'
import type { Config } from '../../../src/config'
import type { DB } from '../../../src/db'
import { createSession, createUser, issueSmsCode, type User } from '../../../src/domain/identity'
import { closeAfter, openTestDatabase, testConfig } from '../../helpers'

/** Shared by the profile tests (domain and routes); not a test file itself. */

/** A clock moved by hand, so expiries and rate windows pass without sleeping. */
export class Clock {
  private time: number
  constructor(start = '2030-06-01T08:00:00.000Z') {
    this.time = Date.parse(start)
  }
  now = (): Date => new Date(this.time)
  advance(ms: number): void {
    this.time += ms
  }
}

/** A migrated, unseeded database for domain tests. */
export async function migratedDb(): Promise<DB> {
  const handle = openTestDatabase()
  await handle.migrate()
  return handle.db
}

export interface ProfileApp {
  app: FastifyInstance
  clock: Clock
  /** Every JSON log line, for the no-personal-data checks. */
  logs: string[]
}

/** The whole app on a fresh database, with a hand-moved clock and its log lines captured. */
export async function buildProfileApp(overrides: Partial<Config> = {}): Promise<ProfileApp> {
  const clock = new Clock()
  const logs: string[] = []
  const app = await buildApp(testConfig({ logLevel: 'info', ...overrides }), {
    now: clock.now,
    logStream: { write: (line) => void logs.push(line) },
  })
  closeAfter(() => app.close())
  return { app, clock, logs }
}

let mobileCounter = 0

/** A valid number nobody else in this process uses (199…: the identity tests use 137…, the demo accounts 138…/139…). */
export function freshMobile(): string {
  mobileCounter += 1
  return `199${String(process.pid % 10000).padStart(4, '0')}${String(mobileCounter).padStart(4, '0')}`
}

let ipCounter = 0
export function freshIp(): string {
  ipCounter += 1
  return `10.200.${(ipCounter >> 8) & 255}.${ipCounter & 255}`
}

export interface TestUser {
  user: User
  mobile: string | null
  token: string
}

/** An account with a live session, made through the identity domain (no SMS round trip). */
export async function signUp(
  db: DB,
  now: Date,
  options: {
    mobile?: string | null
    wechatOpenid?: string
    password?: string
    role?: 'patient' | 'expert' | 'operator'
  } = {},
): Promise<TestUser> {
  const mobile = options.mobile === undefined ? freshMobile() : options.mobile
  const user = await createUser(db, {
    ...(mobile ? { mobile } : {}),
    ...(options.wechatOpenid ? { wechatOpenid: options.wechatOpenid } : {}),
    ...(options.password ? { password: options.password } : {}),
    ...(options.role ? { role: options.role } : {}),
    now,
  })
  const session = await createSession(db, user.id, now)
  return { user, mobile, token: session.access_token }
}

/**
 * Sends a code to `mobile` and answers it. The identity domain keeps one send per phone per minute,
 * so the send is stamped a little after the previous one for the same phone (never in the past of
 * `now`, so the code is valid at `now`).
 */
const lastSend = new Map<string, number>()
export async function smsCode(
  db: DB,
  mobile: string,
  purpose: SmsPurpose,
  now: Date,
): Promise<string> {
  const previous = lastSend.get(mobile)
  const at = Math.max(now.getTime() - 60_000, (previous ?? 0) + 61_000)
  lastSend.set(mobile, at)
  let code = ''
  await issueSmsCode(
    db,
    {
      async send(_mobile, _purpose, sent) {
        code = sent
      },
    },
    { mobile, purpose, ip: freshIp(), now: new Date(at) },
  )
  return code
}

export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` }
}

/**
 * A valid GB 11643 number for a birth date, with the right check character (the sequence varies
 * so tests get distinct people).
 */
export function validIdNumber(birth = '19900307', sequence = 123, region = '110105'): string {
  const first17 = `${region}${birth}${String(sequence).padStart(3, '0')}`
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
  const sum = [...first17].reduce((acc, digit, i) => acc + Number(digit) * weights[i]!, 0)
  return `${first17}${'10X98765432'[sum % 11]}`
}
