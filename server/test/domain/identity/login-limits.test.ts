import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import os from 'node:os'
import path from 'node:path'
import { before, test } from 'node:test'
import pino from 'pino'
import { REASONS } from '@contract/reasons'
import type { SmsPurpose } from '@contract/sso/auth'
import type { DB } from '../../../src/db'
import {
  createUser,
  isLoginLocked,
  issueSmsCode,
  LOGIN_LOCK,
  loginWithPassword,
  loginWithSmsCode,
  resetPasswordWithSmsCode,
  SMS_LIMITS,
} from '../../../src/domain/identity'
import { Gate, keyedHash, setSecretKey } from '../../../src/domain/identity/secrets'
import { DEVELOPMENT_SECRET_KEY } from '../../../src/config'
import { phoneTag } from '../../../src/domain/limits'
import { deleteAccount } from '../../../src/domain/profile/account'
import { clientNetwork } from '../../../src/http/client-address'
import { outboxSmsProvider, readOutbox } from '../../../src/providers/sms'
import { freshIp, freshMobile, migratedDb, recordingSms, TestClock } from './support'

/**
 * Issue 6, section 1: a lock a stranger cannot turn against the owner, backoff after repeated locks,
 * per-purpose SMS quotas, the argon2 gate, IPv6 clients per /64, keyed hashes.
 */

let db: DB
before(async () => {
  db = await migratedDb()
})

type Failure = { statusCode?: number; userMessage?: string; reason?: string | null }
async function failureOf(promise: Promise<unknown>): Promise<Failure> {
  try {
    await promise
  } catch (error) {
    return error as Failure
  }
  throw new Error('expected a refusal')
}

async function account(clock: TestClock, password = 'abc12345') {
  const mobile = freshMobile()
  await createUser(db, { mobile, password, now: clock.now() })
  return { mobile, password }
}

const login = (mobile: string, password: string, ip: string, clock: TestClock) =>
  loginWithPassword(db, { mobile, password, ip, now: clock.now() })

test('a stranger locking a phone from one address does not lock the owner elsewhere', async () => {
  const clock = new TestClock()
  const { mobile, password } = await account(clock)
  const stranger = freshIp()
  for (let i = 0; i < LOGIN_LOCK.maxFailures - 1; i += 1) {
    assert.equal((await failureOf(login(mobile, 'wrong1234', stranger, clock))).statusCode, 400)
  }
  const locked = await failureOf(login(mobile, 'wrong1234', stranger, clock))
  assert.equal(locked.statusCode, 429)
  assert.equal(locked.userMessage, '密码错误次数过多，请 15 分钟后再试，或使用验证码登录')
  // Typed: the audit log tells this lock from any other 429 without matching the text.
  assert.ok(isLoginLocked(locked))
  assert.equal(locked.reason, REASONS.loginLocked)
  // The stranger stays locked, even with the right password; the owner at home is not.
  assert.equal((await failureOf(login(mobile, password, stranger, clock))).statusCode, 429)
  assert.ok(await login(mobile, password, freshIp(), clock))
})

test('IPv6 clients count per /64: a fresh address in the same /64 is the same client', async () => {
  const clock = new TestClock()
  const { mobile } = await account(clock)
  for (let i = 1; i <= LOGIN_LOCK.maxFailures; i += 1) {
    await failureOf(login(mobile, 'wrong1234', `2001:db8:1:2::${i}`, clock))
  }
  const sameNetwork = await failureOf(login(mobile, 'wrong1234', '2001:db8:1:2:ffff::9', clock))
  assert.equal(sameNetwork.statusCode, 429)
  const otherNetwork = await failureOf(login(mobile, 'wrong1234', '2001:db8:1:3::1', clock))
  assert.equal(otherNetwork.statusCode, 400)
})

test('each further lock of a phone and client lasts twice as long, at most 4 hours', async () => {
  const clock = new TestClock()
  const { mobile } = await account(clock)
  const ip = freshIp()
  const lockOnce = async () => {
    let last: Failure = {}
    for (let i = 0; i < LOGIN_LOCK.maxFailures; i += 1) {
      last = await failureOf(login(mobile, 'wrong1234', ip, clock))
    }
    return last.userMessage
  }
  assert.equal(await lockOnce(), '密码错误次数过多，请 15 分钟后再试，或使用验证码登录')
  clock.advance(15 * 60_000)
  assert.equal(await lockOnce(), '密码错误次数过多，请 30 分钟后再试，或使用验证码登录')
  clock.advance(30 * 60_000)
  assert.equal(await lockOnce(), '密码错误次数过多，请 60 分钟后再试，或使用验证码登录')
  clock.advance(60 * 60_000)
  assert.equal(await lockOnce(), '密码错误次数过多，请 2 小时后再试，或使用验证码登录')
  clock.advance(2 * 60 * 60_000)
  assert.equal(await lockOnce(), '密码错误次数过多，请 4 小时后再试，或使用验证码登录')
  clock.advance(4 * 60 * 60_000)
  assert.equal(await lockOnce(), '密码错误次数过多，请 4 小时后再试，或使用验证码登录')
})

test('guesses from many addresses hit the phone ceiling; the owner resets by SMS and logs in', async () => {
  const clock = new TestClock()
  const sms = recordingSms()
  const { mobile, password } = await account(clock)
  for (let i = 0; i < LOGIN_LOCK.phoneFailuresPerHour; i += 1) {
    assert.equal((await failureOf(login(mobile, 'wrong1234', freshIp(), clock))).statusCode, 400)
  }
  // Now the phone is closed to passwords from anywhere for the rest of the hour, the owner's too,
  // and the answer names the ways that open it at once.
  const ceiling = await failureOf(login(mobile, password, freshIp(), clock))
  assert.equal(ceiling.statusCode, 429)
  assert.match(
    ceiling.userMessage ?? '',
    /^密码错误次数过多，已暂停该手机号的密码登录，请使用验证码登录或找回密码（也可 \d+ (分钟|小时)后再试）$/,
  )
  assert.ok(isLoginLocked(ceiling), 'the phone ceiling is a lock too')
  // The owner can still get a reset code and set a new password, which opens password login again.
  await issueSmsCode(db, sms, { mobile, purpose: 'reset', ip: freshIp(), now: clock.now() })
  await resetPasswordWithSmsCode(db, {
    mobile,
    code: sms.last(mobile),
    password: 'new12345',
    now: clock.now(),
  })
  assert.ok(await login(mobile, 'new12345', freshIp(), clock))
})

test('an SMS login by the owner lifts the phone ceiling; each stranger keeps its own lock', async () => {
  const clock = new TestClock()
  const sms = recordingSms()
  const { mobile, password } = await account(clock)
  const strangers = Array.from({ length: 7 }, () => freshIp())
  for (const ip of strangers) {
    for (let i = 0; i < LOGIN_LOCK.maxFailures; i += 1) {
      await failureOf(login(mobile, 'wrong1234', ip, clock))
    }
  }
  const owner = freshIp()
  assert.equal((await failureOf(login(mobile, password, owner, clock))).statusCode, 429)
  await issueSmsCode(db, sms, { mobile, purpose: 'login', ip: owner, now: clock.now() })
  await loginWithSmsCode(db, { mobile, code: sms.last(mobile), ip: owner, now: clock.now() })
  // Holding the phone is proof enough: passwords work again for the owner, from anywhere ...
  assert.ok(await login(mobile, password, owner, clock))
  assert.ok(await login(mobile, password, freshIp(), clock))
  // ... while each stranger's own lock stays.
  assert.equal((await failureOf(login(mobile, password, strangers[0]!, clock))).statusCode, 429)
})

test('an SMS login lifts the lock of its own client only', async () => {
  const clock = new TestClock()
  const sms = recordingSms()
  const { mobile, password } = await account(clock)
  const owner = freshIp()
  const stranger = freshIp()
  for (let i = 0; i < LOGIN_LOCK.maxFailures; i += 1) {
    await failureOf(login(mobile, 'wrong1234', owner, clock))
    await failureOf(login(mobile, 'wrong1234', stranger, clock))
  }
  await issueSmsCode(db, sms, { mobile, purpose: 'login', ip: owner, now: clock.now() })
  await loginWithSmsCode(db, { mobile, code: sms.last(mobile), ip: owner, now: clock.now() })
  assert.ok(await login(mobile, password, owner, clock))
  assert.equal((await failureOf(login(mobile, password, stranger, clock))).statusCode, 429)
})

test('SMS sends count per phone and client; past the phone ceiling a fresh client still gets a reset or login code, one per purpose per 10 minutes', async () => {
  const clock = new TestClock()
  const sms = recordingSms()
  const mobile = freshMobile()
  const send = (purpose: SmsPurpose, ip: string) =>
    issueSmsCode(db, sms, { mobile, purpose, ip, now: clock.now() })
  const purposes: SmsPurpose[] = ['login', 'reset', 'register', 'bind', 'merge']
  // The cooldown is per purpose: a login code does not hold up a reset code.
  const first = freshIp()
  await send('login', first)
  await send('reset', first)
  assert.equal((await failureOf(send('login', freshIp()))).statusCode, 429)
  // Strangers fill the phone-wide ceiling, each network up to its 5 a day.
  let sent = 2
  const strangers: string[] = [first]
  while (sent < SMS_LIMITS.perPhonePerDay) {
    clock.advance(SMS_LIMITS.cooldownMs)
    if (sent % SMS_LIMITS.perPhoneClientPerDay === 0) strangers.push(freshIp())
    await send(purposes[sent % purposes.length]!, strangers.at(-1)!)
    sent += 1
  }
  clock.advance(SMS_LIMITS.cooldownMs)
  const full = /^操作过于频繁，该手机号今日获取验证码次数已达上限，请 \d+ (分钟|小时)后再试$/
  // A network that already sent to the phone today is refused, as is any purpose but reset / login.
  assert.match((await failureOf(send('reset', strangers[0]!))).userMessage ?? '', full)
  assert.match((await failureOf(send('register', freshIp()))).userMessage ?? '', full)
  // The owner at a network that sent nothing to the phone today gets a reset code and a login code.
  const owner = freshIp()
  await send('reset', owner)
  const afterOwner = sms.sent.length
  clock.advance(SMS_LIMITS.cooldownMs)
  // That way through is slow: the next fresh network waits for the 10 minutes of the purpose ...
  assert.equal(
    (await failureOf(send('reset', freshIp()))).userMessage,
    '操作过于频繁，该手机号今日获取验证码次数已达上限，请 9 分钟后再试',
  )
  // ... and the owner's network is no longer fresh; login has its own 10 minutes.
  assert.match((await failureOf(send('login', owner))).userMessage ?? '', full)
  await send('login', freshIp())
  assert.equal(sms.sent.length, afterOwner + 1)
  clock.advance(SMS_LIMITS.overCeilingEveryMs)
  await send('reset', freshIp())
})

test('codes and client addresses are stored as keyed HMACs, not bare SHA-256', async () => {
  const clock = new TestClock()
  const sms = recordingSms()
  const mobile = freshMobile()
  const ip = freshIp()
  await issueSmsCode(db, sms, { mobile, purpose: 'login', ip, now: clock.now() })
  const row = await db
    .selectFrom('sms_codes')
    .selectAll()
    .where('mobile', '=', mobile)
    .executeTakeFirstOrThrow()
  const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')
  assert.notEqual(row.code_hash, sha256(`${row.id}:${sms.last(mobile)}`))
  assert.notEqual(row.ip_hash, sha256(ip))
  assert.ok(!row.ip_hash.includes(ip))
  const counters = await db.selectFrom('limit_counters').select('key').execute()
  assert.ok(counters.every(({ key }) => !key.includes(mobile) && !key.includes(ip)))
  // The hash depends on the server secret.
  const before = keyedHash('test', 'value')
  setSecretKey(Buffer.alloc(32, 1))
  try {
    assert.notEqual(keyedHash('test', 'value'), before)
  } finally {
    setSecretKey(DEVELOPMENT_SECRET_KEY)
  }
  assert.equal(keyedHash('test', 'value'), before)
})

test('clientNetwork: IPv4 as is, IPv4-mapped as IPv4, IPv6 by its /64', () => {
  assert.equal(clientNetwork('203.0.113.9'), '203.0.113.9')
  assert.equal(clientNetwork('::ffff:203.0.113.9'), '203.0.113.9')
  assert.equal(clientNetwork('2001:db8:85a3:8d3:1319:8a2e:370:7348'), '2001:db8:85a3:8d3::/64')
  assert.equal(clientNetwork('2001:DB8:85A3:08D3::1'), '2001:db8:85a3:8d3::/64')
  assert.equal(clientNetwork('2001:db8::1'), '2001:db8:0:0::/64')
  assert.equal(clientNetwork('::1'), '0:0:0:0::/64')
  assert.equal(clientNetwork('fe80::1%eth0'), 'fe80:0:0:0::/64')
  assert.equal(clientNetwork('not an address'), 'unknown')
  assert.equal(clientNetwork(undefined), 'unknown')
})

test('the argon2 gate: at most `max` at once, a bounded queue, 429 服务繁忙 beyond it', async () => {
  const gate = new Gate(2, 3, 200)
  let running = 0
  let peak = 0
  const task = () =>
    gate.run(async () => {
      running += 1
      peak = Math.max(peak, running)
      await new Promise((resolve) => setTimeout(resolve, 20))
      running -= 1
      return 'done'
    })
  const results = await Promise.allSettled(Array.from({ length: 10 }, task))
  assert.equal(peak, 2)
  assert.equal(results.filter((result) => result.status === 'fulfilled').length, 5)
  for (const result of results) {
    if (result.status === 'rejected') {
      assert.equal(result.reason.statusCode, 429)
      assert.equal(result.reason.userMessage, '服务繁忙，请稍后再试')
    }
  }
  // A waiter gives up after maxWaitMs.
  const slow = new Gate(1, 5, 30)
  const long = slow.run(() => new Promise((resolve) => setTimeout(resolve, 200)))
  await assert.rejects(
    slow.run(async () => 'late'),
    { statusCode: 429 },
  )
  await long
  assert.equal(await slow.run(async () => 'free again'), 'free again')
})

test('deleting an account forgets every counter that names its phone', async () => {
  const clock = new TestClock()
  const sms = recordingSms()
  const { mobile } = await account(clock)
  const user = await db
    .selectFrom('users')
    .select('id')
    .where('mobile', '=', mobile)
    .executeTakeFirstOrThrow()
  await failureOf(login(mobile, 'wrong1234', freshIp(), clock))
  await issueSmsCode(db, sms, { mobile, purpose: 'delete', ip: freshIp(), now: clock.now() })
  const named = async () =>
    (await db.selectFrom('limit_counters').select('key').execute()).filter(({ key }) =>
      key.includes(phoneTag(mobile)),
    )
  assert.ok((await named()).length >= 4, 'login and SMS counters name the phone')
  await deleteAccount(
    db,
    user.id,
    { code: sms.last(mobile) },
    { uploadDir: path.join(os.tmpdir(), 'yx-no-uploads') },
    clock.now(),
  )
  assert.deepEqual(await named(), [])
})

test('the SMS outbox holds neither the number nor the code in clear', async () => {
  const clock = new TestClock()
  const mobile = freshMobile()
  const outbox = outboxSmsProvider(db, pino({ level: 'silent' }), clock.now)
  await issueSmsCode(db, outbox, { mobile, purpose: 'login', ip: freshIp(), now: clock.now() })
  const rows = await db.selectFrom('sms_outbox').selectAll().execute()
  const [message] = await readOutbox(db, mobile)
  assert.ok(message && /^\d{6}$/.test(message.code))
  assert.equal(message.purpose, 'login')
  assert.ok(!JSON.stringify(rows).includes(mobile), 'no number in clear')
  assert.ok(!JSON.stringify(rows).includes(message.code), 'no code in clear')
  assert.deepEqual(await readOutbox(db, freshMobile()), [])
})
