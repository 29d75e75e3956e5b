import assert from 'node:assert/strict'
import { mkdtempSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { before, test } from 'node:test'
import type { InjectOptions } from 'fastify'
import { createFieldCipher } from '../src/crypto/field-cipher'
import type { DB } from '../src/db'
import { argon2Gate } from '../src/domain/identity/secrets'
import { saveAvatar } from '../src/domain/profile/avatars'
import { bindIdCard } from '../src/domain/profile/id-cards'
import { addTrack, TRACK_LIMIT } from '../src/domain/profile/tracks'
import { createQrLogin, QR_CREATE_PER_HOUR } from '../src/domain/qr-login'
import { createUser, type SmsProvider } from '../src/domain/identity'
import { outboxSmsProvider } from '../src/providers/sms'
import {
  buildIdentityApp,
  codeFor,
  freshIp,
  freshMobile,
  type IdentityApp,
  migratedDb,
  registerUser,
  TestClock,
} from './domain/identity/support'
import { validIdNumber } from './domain/profile/support'

/**
 * Bursts of parallel requests against every limit (issue 6, section 1): at most the limit gets
 * through, on this run's database (SQLite, or PostgreSQL with --pg). The old code read the count,
 * did the slow work and only then wrote: 60 parallel wrong passwords had 51 checked.
 * test/limits-two-servers.test.ts fires the same bursts at two server processes on PostgreSQL.
 */

const BURST = 60

let ctx: IdentityApp
let db: DB
/**
 * The outbox behind a real gateway's delay (tens of milliseconds over the network): the time in which
 * a "check, send, then record" limit lets a burst through.
 */
let outbox: SmsProvider | undefined
const gatewayLike: SmsProvider = {
  async send(mobile, purpose, code) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    outbox ??= outboxSmsProvider(ctx.app.db, ctx.app.log, ctx.clock.now)
    await outbox.send(mobile, purpose, code)
  },
}
before(async () => {
  // The production argon2 cost: a burst's requests overlap for as long as a real check takes, the
  // window in which a limit recorded after the check would let too many through.
  ctx = await buildIdentityApp(
    { logLevel: 'silent', testPasswordHash: false },
    { providers: { sms: gatewayLike } },
  )
  db = await migratedDb()
})

const inject = (options: InjectOptions) => ctx.app.inject(options)
const errorOf = (res: { json(): unknown }) => (res.json() as { error: string | null }).error ?? ''

test(`${BURST} parallel wrong passwords for one phone: at most 5 are checked`, async () => {
  const user = await registerUser(ctx)
  const ip = freshIp()
  const checkedBefore = argon2Gate.completed
  const answers = await Promise.all(
    Array.from({ length: BURST }, () =>
      inject({
        method: 'POST',
        url: '/sso/oauth2/token',
        payload: { grant_type: 'password', username: user.mobile, password: 'wrong1234' },
        remoteAddress: ip,
      }),
    ),
  )
  const checked = argon2Gate.completed - checkedBefore
  const wrong = answers.filter((res) => errorOf(res).startsWith('手机号或密码错误'))
  const refused = answers.filter((res) => res.statusCode === 429)
  assert.ok(checked <= 5, `${checked} passwords were checked`)
  // Four answers "wrong, N tries left"; the fifth failure locks; the rest were refused unchecked.
  assert.equal(wrong.length, 4)
  assert.equal(refused.length, BURST - 4)
  assert.ok(refused.every((res) => errorOf(res).startsWith('密码错误次数过多')))
  const right = await inject({
    method: 'POST',
    url: '/sso/oauth2/token',
    payload: { grant_type: 'password', username: user.mobile, password: user.password },
    remoteAddress: ip,
  })
  assert.equal(right.statusCode, 429, 'locked: even the right password waits')
})

test('30 parallel SMS sends for one phone and purpose: one is sent (60 s cooldown)', async () => {
  const mobile = freshMobile()
  const answers = await Promise.all(
    Array.from({ length: 30 }, () =>
      inject({
        method: 'POST',
        url: '/sso/sms/send',
        payload: { mobile, purpose: 'login' },
        remoteAddress: freshIp(),
      }),
    ),
  )
  assert.equal(answers.filter((res) => res.statusCode === 200).length, 1)
  assert.ok(
    answers
      .filter((res) => res.statusCode !== 200)
      .every(
        (res) =>
          res.statusCode === 429 && /^操作过于频繁，请 \d+ 秒后再获取验证码$/.test(errorOf(res)),
      ),
  )
  const sent = await ctx.app.db
    .selectFrom('sms_codes')
    .select('id')
    .where('mobile', '=', mobile)
    .execute()
  assert.equal(sent.length, 1)
})

test('30 parallel SMS sends from one address to many phones: at most 20 an hour', async () => {
  const ip = freshIp()
  const answers = await Promise.all(
    Array.from({ length: 30 }, () =>
      inject({
        method: 'POST',
        url: '/sso/sms/send',
        payload: { mobile: freshMobile(), purpose: 'register' },
        remoteAddress: ip,
      }),
    ),
  )
  assert.equal(answers.filter((res) => res.statusCode === 200).length, 20)
})

test('30 parallel guesses of one SMS code from one address: at most 5 are compared', async () => {
  const mobile = freshMobile()
  await createUser(ctx.app.db, { mobile, now: ctx.clock.now() })
  const code = await codeFor(ctx.app, mobile, 'login')
  const wrong = code === '000000' ? '111111' : '000000'
  const ip = freshIp()
  // The right code goes first: the old code compared every guess, so it also got through.
  const guesses = [code, ...Array.from({ length: 29 }, () => wrong)]
  const answers = await Promise.all(
    guesses.map((guess) =>
      inject({
        method: 'POST',
        url: '/sso/oauth2/token',
        payload: { grant_type: 'sms_code', mobile, code: guess },
        remoteAddress: ip,
      }),
    ),
  )
  // A compared guess either logs in or answers 验证码错误，…; a refused one 次数过多 or 已失效.
  const compared = answers.filter(
    (res) => res.statusCode === 200 || errorOf(res).startsWith('验证码错误，'),
  )
  assert.ok(compared.length <= 5, `${compared.length} guesses were compared`)
  assert.ok(
    answers.every(
      (res) => res.statusCode === 200 || /^验证码(错误，|错误次数过多|已失效)/.test(errorOf(res)),
    ),
  )
})

test('60 parallel wrong guesses of one SMS code from 60 addresses: 20 are compared', async () => {
  const mobile = freshMobile()
  const code = await codeFor(ctx.app, mobile, 'reset')
  const wrong = code === '000000' ? '111111' : '000000'
  const answers = await Promise.all(
    Array.from({ length: 60 }, () =>
      inject({
        method: 'POST',
        url: '/main/account/code/validate',
        payload: { mobile, code: wrong, purpose: 'reset' },
        remoteAddress: freshIp(),
      }),
    ),
  )
  const compared = answers.filter((res) => errorOf(res).startsWith('验证码错误，'))
  // Every client but the one that asked for the code shares 20 comparisons (SMS_LIMITS).
  assert.equal(compared.length, 20)
  assert.ok(answers.every((res) => /^验证码(错误，|错误次数过多)/.test(errorOf(res))))
})

test('30 parallel avatar uploads: at most 20 an hour are stored', async () => {
  const clock = new TestClock()
  const user = await createUser(db, { mobile: freshMobile(), now: clock.now() })
  const uploadDir = mkdtempSync(path.join(os.tmpdir(), 'yx-burst-'))
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')
  const results = await Promise.allSettled(
    Array.from({ length: 30 }, () =>
      saveAvatar(db, uploadDir, { userId: user.id, bytes: png }, clock.now()),
    ),
  )
  assert.equal(results.filter((result) => result.status === 'fulfilled').length, 20)
  const files = await db.selectFrom('files').select('id').where('user_id', '=', user.id).execute()
  assert.equal(files.length, 20)
})

test('30 parallel ID-card binds by one account: at most 10 a day are tried', async () => {
  const clock = new TestClock()
  const cipher = createFieldCipher(Buffer.alloc(32, 8))
  const user = await createUser(db, { mobile: freshMobile(), now: clock.now() })
  const results = await Promise.allSettled(
    Array.from({ length: 30 }, (_, i) =>
      bindIdCard(
        db,
        cipher,
        user.id,
        { realName: '张三', idCard: validIdNumber('19900307', 200 + i) },
        clock.now(),
      ),
    ),
  )
  const limited = results.filter(
    (result) =>
      result.status === 'rejected' && (result.reason as { statusCode?: number }).statusCode === 429,
  )
  assert.equal(limited.length, 20, 'twenty attempts were refused before any look-up')
})

test('90 parallel analytics events from one address: at most 60 a minute are stored', async () => {
  const clock = new TestClock()
  const ip = freshIp()
  const event = `burst_${Date.now()}`
  const results = await Promise.allSettled(
    Array.from({ length: 90 }, () => addTrack(db, { event, ip }, clock.now())),
  )
  const refused = results.filter(
    (result) =>
      result.status === 'rejected' && (result.reason as { statusCode?: number }).statusCode === 429,
  )
  assert.equal(refused.length, 90 - TRACK_LIMIT.perMinute)
  const stored = await db.selectFrom('tracks').select('id').where('event', '=', event).execute()
  assert.equal(stored.length, TRACK_LIMIT.perMinute)
})

test('90 parallel QR login requests from one address: at most 60 an hour are created', async () => {
  const clock = new TestClock()
  const ip = freshIp()
  const results = await Promise.allSettled(
    Array.from({ length: 90 }, () => createQrLogin(db, { userAgent: undefined, ip }, clock.now())),
  )
  const created = results.filter((result) => result.status === 'fulfilled')
  assert.equal(created.length, QR_CREATE_PER_HOUR)
  assert.ok(
    results.every(
      (result) =>
        result.status === 'fulfilled' ||
        (result.reason as { statusCode?: number }).statusCode === 429,
    ),
  )
  const ids = created.map((result) => result.value.id)
  const rows = await db.selectFrom('qr_logins').select('id').where('id', 'in', ids).execute()
  assert.equal(rows.length, QR_CREATE_PER_HOUR)
})
