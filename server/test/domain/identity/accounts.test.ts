import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import type { DB } from '../../../src/db'
import {
  changePassword,
  createUser,
  findSessionByAccessToken,
  issueSmsCode,
  loadProfile,
  loginWithPassword,
  loginWithSmsCode,
  loginWithWechat,
  registerWithSmsCode,
  resetPasswordWithSmsCode,
  toProfile,
} from '../../../src/domain/identity'
import { ensurePolicies } from '../../../src/domain/policies'
import { unconfiguredWechatAuth } from '../../../src/providers/wechat'
import { freshIp, freshMobile, migratedDb, recordingSms, TestClock } from './support'

let db: DB
before(async () => {
  db = await migratedDb()
  await ensurePolicies(db)
})

const sms = recordingSms()

async function code(mobile: string, purpose: 'login' | 'register' | 'reset', clock: TestClock) {
  await issueSmsCode(db, sms, { mobile, purpose, ip: freshIp(), now: clock.now() })
  clock.advance(60_000)
  return sms.last(mobile)
}

test('createUser: defaults, hashed password, duplicate phone refused', async () => {
  const clock = new TestClock()
  const mobile = freshMobile()
  const user = await createUser(db, { mobile, password: 'abc12345', now: clock.now() })
  assert.equal(user.role, 'patient')
  assert.equal(user.gender, 'unknown')
  assert.equal(user.nickname, `用户${mobile.slice(-4)}`)
  assert.match(user.password_hash ?? '', /^\$argon2id\$/)
  await assert.rejects(createUser(db, { mobile, now: clock.now() }), {
    statusCode: 400,
    userMessage: '该手机号已注册，请直接登录',
  })
  const profile = toProfile(user, { idCardStatus: 'verified' })
  assert.deepEqual(profile, {
    id: user.id,
    mobileMasked: `${mobile.slice(0, 3)}****${mobile.slice(7)}`,
    nickname: user.nickname,
    avatarUrl: null,
    role: 'patient',
    realNameVerified: true,
    idCardStatus: 'verified',
    hasPassword: true,
    wechatBound: false,
    createdAt: clock.now().toISOString(),
    gender: 'unknown',
  })
})

test('registration records the agreed policy versions', async () => {
  const clock = new TestClock()
  const mobile = freshMobile()
  const session = await registerWithSmsCode(db, {
    mobile,
    code: await code(mobile, 'register', clock),
    password: 'abc12345',
    now: clock.now(),
  })
  const consents = await db
    .selectFrom('consents')
    .select(['kind', 'version'])
    .where('user_id', '=', session.user.id)
    .orderBy('kind')
    .execute()
  assert.deepEqual(consents, [
    { kind: 'privacy', version: '1.0.0' },
    { kind: 'user', version: '1.0.0' },
  ])
})

test('registering a registered phone: code checked first, then 该手机号已注册', async () => {
  const clock = new TestClock()
  const mobile = freshMobile()
  await createUser(db, { mobile, now: clock.now() })
  await assert.rejects(
    registerWithSmsCode(db, { mobile, code: '123456', password: 'abc12345', now: clock.now() }),
    { statusCode: 400, userMessage: '请先获取验证码' },
  )
  await assert.rejects(
    registerWithSmsCode(db, {
      mobile,
      code: await code(mobile, 'register', clock),
      password: 'abc12345',
      now: clock.now(),
    }),
    { statusCode: 400, userMessage: '该手机号已注册，请直接登录' },
  )
})

test('password login: same answer for a wrong password and an unknown phone', async () => {
  const clock = new TestClock()
  const mobile = freshMobile()
  await createUser(db, { mobile, password: 'abc12345', now: clock.now() })
  const session = await loginWithPassword(db, { mobile, password: 'abc12345', now: clock.now() })
  assert.ok(session.access_token)
  for (const attempt of [
    { mobile, password: 'wrong1234' },
    { mobile: freshMobile(), password: 'abc12345' },
  ]) {
    await assert.rejects(loginWithPassword(db, { ...attempt, now: clock.now() }), {
      statusCode: 400,
      userMessage: '手机号或密码错误，还可尝试 4 次',
    })
  }
})

test('five wrong passwords lock the phone for 15 minutes, known or not', async () => {
  for (const known of [true, false]) {
    const clock = new TestClock()
    const mobile = freshMobile()
    if (known) await createUser(db, { mobile, password: 'abc12345', now: clock.now() })
    for (let i = 0; i < 4; i += 1) {
      await assert.rejects(
        loginWithPassword(db, { mobile, password: 'wrong1234', now: clock.now() }),
        { statusCode: 400 },
      )
    }
    const locked = { statusCode: 429, userMessage: /^密码错误次数过多，请 15 分钟后再试/ }
    await assert.rejects(
      loginWithPassword(db, { mobile, password: 'wrong1234', now: clock.now() }),
      (error: { statusCode: number; userMessage: string }) =>
        error.statusCode === locked.statusCode && locked.userMessage.test(error.userMessage),
    )
    clock.advance(10 * 60_000)
    // Locked: even the right password is refused until the lock runs out.
    await assert.rejects(
      loginWithPassword(db, { mobile, password: 'abc12345', now: clock.now() }),
      { statusCode: 429, userMessage: '密码错误次数过多，请 5 分钟后再试，或使用验证码登录' },
    )
    clock.advance(5 * 60_000)
    if (known) {
      assert.ok(await loginWithPassword(db, { mobile, password: 'abc12345', now: clock.now() }))
    } else {
      await assert.rejects(
        loginWithPassword(db, { mobile, password: 'abc12345', now: clock.now() }),
        { statusCode: 400, userMessage: '手机号或密码错误，还可尝试 4 次' },
      )
    }
  }
})

test('an SMS login lifts the lock; an unknown phone hears 未注册 only after a valid code', async () => {
  const clock = new TestClock()
  const mobile = freshMobile()
  await createUser(db, { mobile, password: 'abc12345', now: clock.now() })
  for (let i = 0; i < 5; i += 1) {
    await assert.rejects(loginWithPassword(db, { mobile, password: 'wrong1234', now: clock.now() }))
  }
  await loginWithSmsCode(db, { mobile, code: await code(mobile, 'login', clock), now: clock.now() })
  assert.ok(await loginWithPassword(db, { mobile, password: 'abc12345', now: clock.now() }))

  const stranger = freshMobile()
  await assert.rejects(
    loginWithSmsCode(db, { mobile: stranger, code: '123456', now: clock.now() }),
    {
      userMessage: '请先获取验证码',
    },
  )
  await assert.rejects(
    loginWithSmsCode(db, {
      mobile: stranger,
      code: await code(stranger, 'login', clock),
      now: clock.now(),
    }),
    { statusCode: 400, userMessage: '该手机号未注册，请先注册' },
  )
})

test('reset password: new password works, every session is revoked', async () => {
  const clock = new TestClock()
  const mobile = freshMobile()
  await createUser(db, { mobile, password: 'abc12345', now: clock.now() })
  const before = await loginWithPassword(db, { mobile, password: 'abc12345', now: clock.now() })
  await resetPasswordWithSmsCode(db, {
    mobile,
    code: await code(mobile, 'reset', clock),
    password: 'new12345',
    now: clock.now(),
  })
  assert.equal(await findSessionByAccessToken(db, before.access_token, clock.now()), undefined)
  await assert.rejects(loginWithPassword(db, { mobile, password: 'abc12345', now: clock.now() }))
  assert.ok(await loginWithPassword(db, { mobile, password: 'new12345', now: clock.now() }))
})

test('change password: old one required and checked, all sessions replaced by a fresh one', async () => {
  const clock = new TestClock()
  const mobile = freshMobile()
  const user = await createUser(db, { mobile, password: 'abc12345', now: clock.now() })
  const a = await loginWithPassword(db, { mobile, password: 'abc12345', now: clock.now() })
  const b = await loginWithPassword(db, { mobile, password: 'abc12345', now: clock.now() })
  await assert.rejects(
    changePassword(db, { userId: user.id, newPassword: 'new12345', now: clock.now() }),
    { statusCode: 400, userMessage: '请输入原密码' },
  )
  await assert.rejects(
    changePassword(db, {
      userId: user.id,
      oldPassword: 'wrong1234',
      newPassword: 'new12345',
      now: clock.now(),
    }),
    { statusCode: 400, userMessage: '原密码错误' },
  )
  const fresh = await changePassword(db, {
    userId: user.id,
    oldPassword: 'abc12345',
    newPassword: 'new12345',
    now: clock.now(),
  })
  for (const old of [a, b]) {
    assert.equal(await findSessionByAccessToken(db, old.access_token, clock.now()), undefined)
  }
  assert.ok(await findSessionByAccessToken(db, fresh.access_token, clock.now()))
  assert.ok(await loginWithPassword(db, { mobile, password: 'new12345', now: clock.now() }))
})

test('change password: wrong old passwords are limited to 5 per 15 minutes', async () => {
  const clock = new TestClock()
  const user = await createUser(db, {
    mobile: freshMobile(),
    password: 'abc12345',
    now: clock.now(),
  })
  const attempt = (oldPassword: string) =>
    changePassword(db, { userId: user.id, oldPassword, newPassword: 'new12345', now: clock.now() })
  for (let i = 0; i < 5; i += 1) await assert.rejects(attempt('wrong1234'), { statusCode: 400 })
  await assert.rejects(attempt('abc12345'), {
    statusCode: 429,
    userMessage: '原密码错误次数过多，请 15 分钟后再试',
  })
  clock.advance(15 * 60_000)
  assert.ok(await attempt('abc12345'))
})

test('an account without a password sets its first one without an old one', async () => {
  const clock = new TestClock()
  const user = await createUser(db, { wechatOpenid: 'openid-first-password', now: clock.now() })
  const session = await changePassword(db, {
    userId: user.id,
    newPassword: 'abc12345',
    now: clock.now(),
  })
  assert.equal(session.user.hasPassword, true)
  assert.equal(session.user.mobileMasked, null)
  assert.equal(session.user.wechatBound, true)
})

test('WeChat login: unconfigured says so; an adapter creates then reuses the account', async () => {
  const clock = new TestClock()
  await assert.rejects(
    loginWithWechat(db, unconfiguredWechatAuth, { code: 'x', now: clock.now() }),
    {
      statusCode: 400,
      userMessage: '未配置微信登录',
    },
  )
  const fake = { exchangeCode: async (c: string) => ({ openid: `openid-${c}` }) }
  const first = await loginWithWechat(db, fake, { code: 'abc', now: clock.now() })
  const second = await loginWithWechat(db, fake, { code: 'abc', now: clock.now() })
  assert.equal(first.user.id, second.user.id)
  assert.equal(first.user.nickname, '微信用户')
  assert.equal(first.user.wechatBound, true)
})

test('loadProfile: a bound ID card is 已绑定; realNameVerified only once a provider verified it', async () => {
  const clock = new TestClock()
  const user = await createUser(db, { mobile: freshMobile(), now: clock.now() })
  assert.equal((await loadProfile(db, user)).realNameVerified, false)
  // The profile side encrypts these; the identity core only looks at whether a row exists.
  await db
    .insertInto('id_cards')
    .values({
      id: `card-${user.id}`,
      user_id: user.id,
      holder_encrypted: 'x',
      number_encrypted: 'x',
      number_hash: `hash-${user.id}`,
      created_at: clock.now().toISOString(),
    })
    .execute()
  assert.equal((await loadProfile(db, user)).realNameVerified, false)
  assert.equal((await loadProfile(db, user)).idCardStatus, 'bound')
  await db
    .updateTable('id_cards')
    .set({ verified_at: clock.now().toISOString(), verified_by: 'test' })
    .where('user_id', '=', user.id)
    .execute()
  assert.equal((await loadProfile(db, user)).realNameVerified, true)
  assert.equal((await loadProfile(db, user)).idCardStatus, 'verified')
})
