import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import type { DB } from '../../../src/db'
import {
  consumeCodeTicket,
  consumeSmsCode,
  issueSmsCode,
  SMS_LIMITS,
  validateSmsCode,
} from '../../../src/domain/identity'
import { freshIp, freshMobile, migratedDb, recordingSms, TestClock } from './support'

let db: DB
before(async () => {
  db = await migratedDb()
})

const rejectsWith = (promise: Promise<unknown>, statusCode: number, message: string | RegExp) =>
  assert.rejects(promise, (error: { statusCode?: number; userMessage?: string }) => {
    assert.equal(error.statusCode, statusCode)
    if (typeof message === 'string') assert.equal(error.userMessage, message)
    else assert.match(error.userMessage ?? '', message)
    return true
  })

test('a code is 6 digits, stored only as a hash, valid once', async () => {
  const clock = new TestClock()
  const sms = recordingSms()
  const mobile = freshMobile()
  const answer = await issueSmsCode(db, sms, {
    mobile,
    purpose: 'register',
    ip: freshIp(),
    now: clock.now(),
  })
  assert.deepEqual(answer, { cooldownSeconds: 60, expiresInSeconds: 300 })
  const code = sms.last(mobile)
  assert.match(code, /^\d{6}$/)
  const rows = await db.selectFrom('sms_codes').selectAll().where('mobile', '=', mobile).execute()
  assert.equal(rows.length, 1)
  assert.ok(!JSON.stringify(rows).includes(code), 'the code is not stored in clear')

  await consumeSmsCode(db, { mobile, purpose: 'register', code, now: clock.now() })
  await rejectsWith(
    consumeSmsCode(db, { mobile, purpose: 'register', code, now: clock.now() }),
    400,
    '验证码已失效，请重新获取',
  )
})

test('a code is bound to its purpose and expires after 5 minutes', async () => {
  const clock = new TestClock()
  const sms = recordingSms()
  const mobile = freshMobile()
  await issueSmsCode(db, sms, { mobile, purpose: 'login', ip: freshIp(), now: clock.now() })
  const code = sms.last(mobile)
  await rejectsWith(
    consumeSmsCode(db, { mobile, purpose: 'reset', code, now: clock.now() }),
    400,
    '请先获取验证码',
  )
  clock.advance(SMS_LIMITS.ttlMs)
  await rejectsWith(
    consumeSmsCode(db, { mobile, purpose: 'login', code, now: clock.now() }),
    400,
    '验证码已失效，请重新获取',
  )
})

test('five wrong tries from one client end the code for that client, even the right one', async () => {
  const clock = new TestClock()
  const sms = recordingSms()
  const mobile = freshMobile()
  await issueSmsCode(db, sms, { mobile, purpose: 'login', ip: freshIp(), now: clock.now() })
  const code = sms.last(mobile)
  const wrong = code === '000000' ? '111111' : '000000'
  for (let left = 4; left >= 1; left -= 1) {
    await rejectsWith(
      consumeSmsCode(db, { mobile, purpose: 'login', code: wrong, now: clock.now() }),
      400,
      `验证码错误，还可尝试 ${left} 次`,
    )
  }
  await rejectsWith(
    consumeSmsCode(db, { mobile, purpose: 'login', code: wrong, now: clock.now() }),
    400,
    '验证码错误，次数已用完，请重新获取',
  )
  await rejectsWith(
    consumeSmsCode(db, { mobile, purpose: 'login', code, now: clock.now() }),
    400,
    '验证码错误次数过多，请重新获取',
  )
})

test('only the latest code of a phone counts', async () => {
  const clock = new TestClock()
  const sms = recordingSms()
  const mobile = freshMobile()
  await issueSmsCode(db, sms, { mobile, purpose: 'login', ip: freshIp(), now: clock.now() })
  const first = sms.last(mobile)
  clock.advance(SMS_LIMITS.cooldownMs)
  await issueSmsCode(db, sms, { mobile, purpose: 'login', ip: freshIp(), now: clock.now() })
  const second = sms.last(mobile)
  if (first !== second) {
    await assert.rejects(
      consumeSmsCode(db, { mobile, purpose: 'login', code: first, now: clock.now() }),
    )
  }
  await consumeSmsCode(db, { mobile, purpose: 'login', code: second, now: clock.now() })
})

test('one send per phone and purpose per 60 s, answered 429 with the wait', async () => {
  const clock = new TestClock()
  const sms = recordingSms()
  const mobile = freshMobile()
  await issueSmsCode(db, sms, { mobile, purpose: 'login', ip: freshIp(), now: clock.now() })
  clock.advance(15_000)
  await rejectsWith(
    issueSmsCode(db, sms, { mobile, purpose: 'login', ip: freshIp(), now: clock.now() }),
    429,
    '操作过于频繁，请 45 秒后再获取验证码',
  )
  clock.advance(45_000)
  await issueSmsCode(db, sms, { mobile, purpose: 'login', ip: freshIp(), now: clock.now() })
  assert.equal(sms.sent.length, 2)
})

test('five sends per phone and client network a day; another network still gets codes', async () => {
  const clock = new TestClock()
  const sms = recordingSms()
  const mobile = freshMobile()
  const ip = freshIp()
  for (let i = 0; i < SMS_LIMITS.perPhoneClientPerDay; i += 1) {
    await issueSmsCode(db, sms, { mobile, purpose: 'login', ip, now: clock.now() })
    clock.advance(10 * 60_000)
  }
  // Five sends took 50 minutes; the first leaves the window 24 h after it was sent.
  await rejectsWith(
    issueSmsCode(db, sms, { mobile, purpose: 'reset', ip, now: clock.now() }),
    429,
    // 23 h 10 min (rounded up or to the nearest hour).
    /^操作过于频繁，该手机号今日获取验证码次数已达上限，请 2[34] 小时后再试$/,
  )
  await issueSmsCode(db, sms, { mobile, purpose: 'login', ip: freshIp(), now: clock.now() })
  clock.advance(24 * 3_600_000 - 50 * 60_000)
  await issueSmsCode(db, sms, { mobile, purpose: 'login', ip, now: clock.now() })
})

test('twenty sends per client address per hour, whatever the phones', async () => {
  const clock = new TestClock()
  const sms = recordingSms()
  const ip = freshIp()
  for (let i = 0; i < SMS_LIMITS.perIpPerHour; i += 1) {
    await issueSmsCode(db, sms, { mobile: freshMobile(), purpose: 'login', ip, now: clock.now() })
    clock.advance(60_000)
  }
  await rejectsWith(
    issueSmsCode(db, sms, { mobile: freshMobile(), purpose: 'login', ip, now: clock.now() }),
    429,
    '操作过于频繁，当前网络获取验证码次数过多，请 40 分钟后再试',
  )
  await issueSmsCode(db, sms, {
    mobile: freshMobile(),
    purpose: 'login',
    ip: freshIp(),
    now: clock.now(),
  })
  clock.advance(40 * 60_000)
  await issueSmsCode(db, sms, { mobile: freshMobile(), purpose: 'login', ip, now: clock.now() })
  const stored = await db.selectFrom('sms_codes').select('ip_hash').execute()
  assert.ok(
    stored.every((row) => !row.ip_hash.includes(ip)),
    'addresses are stored hashed',
  )
})

test('a failing provider leaves nothing counted against the phone', async () => {
  const clock = new TestClock()
  const mobile = freshMobile()
  const failing = {
    send: async () => {
      throw new Error('gateway down')
    },
  }
  await assert.rejects(
    issueSmsCode(db, failing, { mobile, purpose: 'login', ip: freshIp(), now: clock.now() }),
  )
  const sms = recordingSms()
  await issueSmsCode(db, sms, { mobile, purpose: 'login', ip: freshIp(), now: clock.now() })
  assert.equal(sms.sent.length, 1)
})

test('validateSmsCode hands out a single-use ticket for the same phone and purpose', async () => {
  const clock = new TestClock()
  const sms = recordingSms()
  const mobile = freshMobile()
  await issueSmsCode(db, sms, { mobile, purpose: 'bind', ip: freshIp(), now: clock.now() })
  const { ticket, expiresInSeconds } = await validateSmsCode(db, {
    mobile,
    purpose: 'bind',
    code: sms.last(mobile),
    now: clock.now(),
  })
  assert.equal(expiresInSeconds, 600)
  assert.match(ticket, /^[A-Za-z0-9_-]{43}$/)
  await rejectsWith(
    consumeCodeTicket(db, { ticket, mobile, purpose: 'reset', now: clock.now() }),
    400,
    '验证已过期，请重新获取验证码',
  )
  await consumeCodeTicket(db, { ticket, mobile, purpose: 'bind', now: clock.now() })
  await rejectsWith(
    consumeCodeTicket(db, { ticket, mobile, purpose: 'bind', now: clock.now() }),
    400,
    '验证已过期，请重新获取验证码',
  )
})

test('a ticket expires after 10 minutes', async () => {
  const clock = new TestClock()
  const sms = recordingSms()
  const mobile = freshMobile()
  await issueSmsCode(db, sms, { mobile, purpose: 'bind', ip: freshIp(), now: clock.now() })
  const { ticket } = await validateSmsCode(db, {
    mobile,
    purpose: 'bind',
    code: sms.last(mobile),
    now: clock.now(),
  })
  clock.advance(10 * 60_000)
  await rejectsWith(
    consumeCodeTicket(db, { ticket, mobile, purpose: 'bind', now: clock.now() }),
    400,
    '验证已过期，请重新获取验证码',
  )
})

const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000')

test('strangers guessing from other networks cannot use up the code of the client that asked for it', async () => {
  const clock = new TestClock()
  const sms = recordingSms()
  const mobile = freshMobile()
  const owner = freshIp()
  await issueSmsCode(db, sms, { mobile, purpose: 'reset', ip: owner, now: clock.now() })
  const code = sms.last(mobile)
  const guess = (ip: string, value = wrongFor(code)) =>
    consumeSmsCode(db, { mobile, purpose: 'reset', code: value, ip, now: clock.now() })
  // Each stranger network compares 5 guesses; together others compare at most 20.
  let compared = 0
  for (let n = 0; n < 6; n += 1) {
    const stranger = freshIp()
    for (let i = 0; i < SMS_LIMITS.maxAttempts + 1; i += 1) {
      await assert.rejects(guess(stranger), (error: { userMessage?: string }) => {
        if (error.userMessage?.startsWith('验证码错误，')) compared += 1
        else assert.equal(error.userMessage, '验证码错误次数过多，请重新获取')
        return true
      })
    }
  }
  assert.equal(compared, SMS_LIMITS.maxAttemptsPerCode)
  // The owner's network keeps its own tries: a typo, then the right code.
  await rejectsWith(guess(owner), 400, '验证码错误，还可尝试 4 次')
  await guess(owner, code)
})

test('a stranger sending a code to the phone does not replace the code the owner asked for', async () => {
  const clock = new TestClock()
  const sms = recordingSms()
  const mobile = freshMobile()
  const owner = freshIp()
  await issueSmsCode(db, sms, { mobile, purpose: 'login', ip: owner, now: clock.now() })
  const code = sms.last(mobile)
  clock.advance(SMS_LIMITS.cooldownMs)
  await issueSmsCode(db, sms, { mobile, purpose: 'login', ip: freshIp(), now: clock.now() })
  await consumeSmsCode(db, { mobile, purpose: 'login', code, ip: owner, now: clock.now() })
})

test('thirty wrong code checks per client network an hour, across phones', async () => {
  const clock = new TestClock()
  const sms = recordingSms()
  const attacker = freshIp()
  const mobiles = Array.from({ length: 8 }, () => freshMobile())
  for (const mobile of mobiles) {
    await issueSmsCode(db, sms, { mobile, purpose: 'login', ip: freshIp(), now: clock.now() })
  }
  let refusedAt = -1
  for (let i = 0; i < 40 && refusedAt < 0; i += 1) {
    const mobile = mobiles[Math.floor(i / SMS_LIMITS.maxAttempts)]!
    await assert.rejects(
      consumeSmsCode(db, {
        mobile,
        purpose: 'login',
        code: wrongFor(sms.last(mobile)),
        ip: attacker,
        now: clock.now(),
      }),
      (error: { statusCode?: number; userMessage?: string }) => {
        if (error.statusCode === 429) {
          assert.match(
            error.userMessage ?? '',
            /^操作过于频繁，当前网络验证码错误次数过多，请 (60 分钟|1 小时)后再试$/,
          )
          refusedAt = i
        }
        return true
      },
    )
  }
  assert.equal(refusedAt, SMS_LIMITS.checksPerClientPerHour)
  // Right codes are not guesses: the owners elsewhere are not affected, nor counted.
  const [last] = mobiles.slice(-1)
  await consumeSmsCode(db, {
    mobile: last!,
    purpose: 'login',
    code: sms.last(last!),
    ip: freshIp(),
    now: clock.now(),
  })
})

test('a code asked for on another device works once this client has no live code', async () => {
  const clock = new TestClock()
  const sms = recordingSms()
  const mobile = freshMobile()
  const desktop = freshIp()
  await issueSmsCode(db, sms, { mobile, purpose: 'login', ip: desktop, now: clock.now() })
  clock.advance(SMS_LIMITS.ttlMs)
  // The desktop's code expired; the person asks again from the phone and types it on the desktop.
  await issueSmsCode(db, sms, { mobile, purpose: 'login', ip: freshIp(), now: clock.now() })
  const code = sms.last(mobile)
  await consumeSmsCode(db, { mobile, purpose: 'login', code, ip: desktop, now: clock.now() })
})

test('guesses at codes another client asked for: at most 50 a day per phone and purpose', async () => {
  const clock = new TestClock()
  const sms = recordingSms()
  const mobile = freshMobile()
  const owner = freshIp()
  let compared = 0
  for (let n = 0; n < 3; n += 1) {
    await issueSmsCode(db, sms, { mobile, purpose: 'login', ip: owner, now: clock.now() })
    const code = sms.last(mobile)
    for (let i = 0; i < SMS_LIMITS.maxAttemptsPerCode; i += 1) {
      await assert.rejects(
        consumeSmsCode(db, {
          mobile,
          purpose: 'login',
          code: wrongFor(code),
          ip: freshIp(),
          now: clock.now(),
        }),
        (error: { userMessage?: string }) => {
          if (error.userMessage?.startsWith('验证码错误，')) compared += 1
          return true
        },
      )
    }
    clock.advance(SMS_LIMITS.cooldownMs)
  }
  assert.equal(compared, SMS_LIMITS.othersPerPhonePerDay)
  // The owner's own code is not held back by the strangers' cap.
  await issueSmsCode(db, sms, { mobile, purpose: 'login', ip: owner, now: clock.now() })
  const code = sms.last(mobile)
  await rejectsWith(
    consumeSmsCode(db, {
      mobile,
      purpose: 'login',
      code: wrongFor(code),
      ip: freshIp(),
      now: clock.now(),
    }),
    400,
    '验证码错误次数过多，请重新获取',
  )
  await consumeSmsCode(db, { mobile, purpose: 'login', code, ip: owner, now: clock.now() })
})
