import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { InjectOptions } from 'fastify'
import { SessionSchema } from '@contract/sso/auth'
import {
  bearer,
  buildIdentityApp,
  codeFor,
  freshIp,
  freshMobile,
  registerUser,
  type IdentityApp,
} from '../../domain/identity/support'

let ctx: IdentityApp
/** Every phone, password and code the tests use, and every response body: none may leak. */
const secrets = new Set<string>()
const bodies: string[] = []

before(async () => {
  ctx = await buildIdentityApp()
})

async function call(options: InjectOptions) {
  const res = await ctx.app.inject(options)
  bodies.push(res.body)
  return res
}

const post = (url: string, payload: object, extra: Partial<InjectOptions> = {}) =>
  call({ method: 'POST', url, payload, remoteAddress: freshIp(), ...extra })

function remember<T extends { mobile: string; password?: string }>(value: T): T {
  secrets.add(value.mobile)
  if (value.password) secrets.add(value.password)
  return value
}

async function code(mobile: string, purpose: 'login' | 'register' | 'reset') {
  const value = await codeFor(ctx.app, mobile, purpose)
  secrets.add(value)
  ctx.clock.advance(61_000)
  return value
}

test('POST /sso/sms/send answers the cooldown and expiry, then 429 within 60 s', async () => {
  const mobile = remember({ mobile: freshMobile() }).mobile
  const res = await post('/sso/sms/send', { mobile, purpose: 'register' })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), {
    code: 200,
    message: 'ok',
    data: { cooldownSeconds: 60, expiresInSeconds: 300 },
    error: null,
    reason: null,
  })
  ctx.clock.advance(30_000)
  const again = await post('/sso/sms/send', { mobile, purpose: 'register' })
  assert.equal(again.statusCode, 429)
  assert.deepEqual(again.json(), {
    code: 429,
    message: '操作过于频繁',
    data: null,
    error: '操作过于频繁，请 30 秒后再获取验证码',
    reason: null,
  })
  ctx.clock.advance(30_000)
})

test('POST /sso/sms/send refuses bad input in Chinese', async () => {
  const cases: [object, string][] = [
    [{ mobile: '10345678901', purpose: 'login' }, '请输入正确的 11 位手机号'],
    [{ purpose: 'login' }, '请输入手机号'],
    [{ mobile: '13800138000', purpose: 'spam' }, '参数 purpose 的取值无效'],
  ]
  for (const [payload, error] of cases) {
    const res = await post('/sso/sms/send', payload)
    assert.equal(res.statusCode, 400, JSON.stringify(payload))
    assert.equal(res.json().error, error)
  }
})

test('the demo outbox logs the masked phone, never the code', async () => {
  const mobile = remember({ mobile: freshMobile() }).mobile
  const sent = await code(mobile, 'login')
  const line = ctx.logs.find(
    (l) => l.includes('验证码已发送（演示）') && l.includes(mobile.slice(7)),
  )
  assert.ok(line, 'the send is logged')
  assert.ok(line.includes(`${mobile.slice(0, 3)}****${mobile.slice(7)}`))
  assert.ok(!line.includes(sent) && !line.includes(mobile))
})

test('POST /sso/register creates the account and answers a session', async () => {
  const { mobile, password } = remember({ mobile: freshMobile(), password: 'abc12345' })
  const res = await post('/sso/register', {
    mobile,
    code: await code(mobile, 'register'),
    password,
    agreed: true,
  })
  assert.equal(res.statusCode, 200)
  const session = SessionSchema.parse(res.json().data)
  assert.equal(session.user.mobileMasked, `${mobile.slice(0, 3)}****${mobile.slice(7)}`)
  assert.equal(session.user.role, 'patient')
  assert.equal(session.user.hasPassword, true)
  const profile = await call({
    url: '/main/account/profile',
    headers: bearer(session.access_token),
  })
  assert.equal(profile.json().data.id, session.user.id)

  const again = await post('/sso/register', {
    mobile,
    code: await code(mobile, 'register'),
    password,
    agreed: true,
  })
  assert.equal(again.statusCode, 400)
  assert.equal(again.json().error, '该手机号已注册，请直接登录')
})

test('POST /sso/register refuses bad input in Chinese', async () => {
  const mobile = remember({ mobile: freshMobile() }).mobile
  const base = { mobile, code: '123456', password: 'abc12345', agreed: true }
  const cases: [object, string][] = [
    [{ ...base, agreed: false }, '请阅读并同意用户协议和隐私政策'],
    [{ ...base, password: 'abcdefgh' }, '密码需同时包含字母和数字'],
    [{ ...base, password: 'ab1' }, '密码至少 8 位，需同时包含字母和数字'],
    [{ ...base, code: '12345' }, '请输入 6 位数字验证码'],
    [base, '请先获取验证码'],
  ]
  for (const [payload, error] of cases) {
    const res = await post('/sso/register', payload)
    assert.equal(res.statusCode, 400, JSON.stringify(payload))
    assert.equal(res.json().error, error)
  }
})

test('POST /sso/oauth2/token: password grant, and the same refusal for unknown phones', async () => {
  const user = await registerUser(ctx)
  remember(user)
  const ok = await post('/sso/oauth2/token', {
    grant_type: 'password',
    username: user.mobile,
    password: user.password,
  })
  assert.equal(ok.statusCode, 200)
  assert.equal(SessionSchema.parse(ok.json().data).user.id, user.userId)

  const stranger = remember({ mobile: freshMobile() }).mobile
  const wrong = await post('/sso/oauth2/token', {
    grant_type: 'password',
    username: user.mobile,
    password: 'wrong1234',
  })
  const unknown = await post('/sso/oauth2/token', {
    grant_type: 'password',
    username: stranger,
    password: 'wrong1234',
  })
  assert.equal(wrong.statusCode, 400)
  assert.deepEqual(wrong.json(), unknown.json())
  assert.equal(wrong.json().error, '手机号或密码错误，还可尝试 4 次')
})

test('POST /sso/oauth2/token: five failures from one client lock password login (429)', async () => {
  const user = remember(await registerUser(ctx))
  // The lock counts per phone and client (address): the attempts come from one address.
  const ip = freshIp()
  const attempt = (password: string) =>
    post(
      '/sso/oauth2/token',
      { grant_type: 'password', username: user.mobile, password },
      { remoteAddress: ip },
    )
  for (let i = 0; i < 4; i += 1) assert.equal((await attempt('wrong1234')).statusCode, 400)
  const locked = await attempt('wrong1234')
  assert.equal(locked.statusCode, 429)
  assert.equal(locked.json().error, '密码错误次数过多，请 15 分钟后再试，或使用验证码登录')
  assert.equal((await attempt(user.password)).statusCode, 429)
  ctx.clock.advance(15 * 60_000)
  assert.equal((await attempt(user.password)).statusCode, 200)
})

test('POST /sso/oauth2/token: SMS-code grant', async () => {
  const user = remember(await registerUser(ctx))
  const res = await post('/sso/oauth2/token', {
    grant_type: 'sms_code',
    mobile: user.mobile,
    code: await code(user.mobile, 'login'),
  })
  assert.equal(res.statusCode, 200)
  assert.equal(res.json().data.user.id, user.userId)

  const stranger = remember({ mobile: freshMobile() }).mobile
  const unknown = await post('/sso/oauth2/token', {
    grant_type: 'sms_code',
    mobile: stranger,
    code: await code(stranger, 'login'),
  })
  assert.equal(unknown.statusCode, 400)
  assert.equal(unknown.json().error, '该手机号未注册，请先注册')
})

test('POST /sso/oauth2/token: refresh rotates, the old tokens stop working', async () => {
  const user = remember(await registerUser(ctx))
  ctx.clock.advance(2 * 3_600_000)
  const expired = await call({ url: '/main/account/profile', headers: bearer(user.access) })
  assert.equal(expired.statusCode, 401)

  const res = await post('/sso/oauth2/token', {
    grant_type: 'refresh_token',
    refresh_token: user.refresh,
  })
  assert.equal(res.statusCode, 200)
  const next = SessionSchema.parse(res.json().data)
  const profile = await call({ url: '/main/account/profile', headers: bearer(next.access_token) })
  assert.equal(profile.statusCode, 200)

  // Past the grace period for the owner's own parallel refreshes (see REFRESH_GRACE_MS).
  ctx.clock.advance(30_000)
  const reused = await post('/sso/oauth2/token', {
    grant_type: 'refresh_token',
    refresh_token: user.refresh,
  })
  assert.equal(reused.statusCode, 401)
  // Reusing a rotated token is theft: the whole family ends, the new session included.
  assert.deepEqual(reused.json(), {
    code: 401,
    message: '请重新登录！',
    data: null,
    error: '登录凭证已在其他设备使用，为保护账号安全请重新登录',
    reason: null,
  })
  const after = await call({ url: '/main/account/profile', headers: bearer(next.access_token) })
  assert.equal(after.statusCode, 401)
})

test('POST /sso/oauth2/token refuses bad input in Chinese', async () => {
  const cases: [object, number, string][] = [
    [{ grant_type: 'password', username: '13800138000' }, 400, '缺少参数 password'],
    [
      { grant_type: 'password', username: '1380013800', password: 'x' },
      400,
      '请输入正确的 11 位手机号',
    ],
    [{ grant_type: 'magic' }, 400, '参数 grant_type 格式不正确'],
    [{ grant_type: 'refresh_token', refresh_token: 'nope' }, 401, '登录已过期，请重新登录'],
  ]
  for (const [payload, status, error] of cases) {
    const res = await post('/sso/oauth2/token', payload)
    assert.equal(res.statusCode, status, JSON.stringify(payload))
    assert.equal(res.json().error, error, JSON.stringify(payload))
  }
})

test('POST /sso/password/reset sets a new password and signs every device out', async () => {
  const user = remember(await registerUser(ctx))
  const res = await post('/sso/password/reset', {
    mobile: user.mobile,
    code: await code(user.mobile, 'reset'),
    password: 'new12345',
  })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json().data, { ok: true })
  secrets.add('new12345')
  const old = await call({ url: '/main/account/profile', headers: bearer(user.access) })
  assert.equal(old.statusCode, 401)
  const login = await post('/sso/oauth2/token', {
    grant_type: 'password',
    username: user.mobile,
    password: 'new12345',
  })
  assert.equal(login.statusCode, 200)

  const stranger = remember({ mobile: freshMobile() }).mobile
  const unknown = await post('/sso/password/reset', {
    mobile: stranger,
    code: await code(stranger, 'reset'),
    password: 'new12345',
  })
  assert.equal(unknown.statusCode, 400)
  assert.equal(unknown.json().error, '该手机号未注册，请先注册')

  const weak = await post('/sso/password/reset', {
    mobile: user.mobile,
    code: '123456',
    password: '12345678',
  })
  assert.equal(weak.statusCode, 400)
  assert.equal(weak.json().error, '密码需同时包含字母和数字')
})

test('outside demo mode without SMS_PROVIDER, sending answers 503 and the outbox route is gone', async () => {
  const prod = await buildIdentityApp({ demoMode: false })
  const mobile = freshMobile()
  const res = await prod.app.inject({
    method: 'POST',
    url: '/sso/sms/send',
    payload: { mobile, purpose: 'register' },
  })
  assert.equal(res.statusCode, 503)
  // A 5xx of ours says what is wrong in the message the app toasts (SPEC section 8).
  assert.deepEqual(res.json(), {
    code: 503,
    message: '短信服务未配置，暂时无法发送验证码',
    data: null,
    error: null,
    reason: null,
  })
  assert.ok(
    prod.logs.some((line) => line.includes('短信服务未配置')),
    'the operator is told why',
  )
  const outbox = await prod.app.inject(`/main/demo/sms/latest?mobile=${mobile}`)
  assert.equal(outbox.statusCode, 404)

  const staging = await buildIdentityApp({ demoMode: false, smsProvider: 'outbox' })
  const sent = await staging.app.inject({
    method: 'POST',
    url: '/sso/sms/send',
    payload: { mobile, purpose: 'register' },
  })
  assert.equal(sent.statusCode, 200)
  assert.equal((await staging.app.inject(`/main/demo/sms/latest?mobile=${mobile}`)).statusCode, 404)
})

after(() => {
  // Runs before helpers' after hook closes the app; the logs and bodies are complete by now.
  const logs = ctx.logs.join('\n')
  const answers = bodies.join('\n')
  assert.ok(secrets.size > 10)
  for (const secret of secrets) {
    assert.ok(!logs.includes(secret), `a log line holds ${secret}`)
    assert.ok(!answers.includes(secret), `a response holds ${secret}`)
  }
})
