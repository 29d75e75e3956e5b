import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { AuditEventSchema } from '@contract/main/security'
import {
  bearer,
  buildIdentityApp,
  codeFor,
  type IdentityApp,
  registerUser,
} from '../../domain/identity/support'

const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'

let ctx: IdentityApp
before(async () => {
  ctx = await buildIdentityApp()
})

function login(mobile: string, password: string, ip = '203.0.113.9') {
  return ctx.app.inject({
    method: 'POST',
    url: '/main/account/login',
    payload: { mobile, password },
    headers: { 'user-agent': CHROME_WINDOWS },
    remoteAddress: ip,
  })
}

async function events(token: string, query = '') {
  const res = await ctx.app.inject({
    url: `/main/account/security-events${query}`,
    headers: bearer(token),
  })
  assert.equal(res.statusCode, 200, res.body)
  const data = res.json().data as { items: unknown[]; total: number; page: number }
  return { ...data, items: data.items.map((item) => AuditEventSchema.parse(item)) }
}

test('登录记录: logins, failures, a lock, password change and logout, newest first, masked', async () => {
  const user = await registerUser(ctx)
  assert.equal((await login(user.mobile, 'wrong123')).statusCode, 400)
  ctx.clock.advance(1000)
  const ok = await login(user.mobile, user.password)
  assert.equal(ok.statusCode, 200)
  const token = ok.json().data.access_token as string
  ctx.clock.advance(1000)
  const changed = await ctx.app.inject({
    method: 'PUT',
    url: '/main/account/password',
    headers: bearer(token),
    payload: { oldPassword: user.password, newPassword: 'new12345' },
  })
  assert.equal(changed.statusCode, 200, changed.body)
  const fresh = changed.json().data.access_token as string
  ctx.clock.advance(1000)

  const list = await events(fresh)
  assert.deepEqual(
    list.items.map((event) => [event.kind, event.detail]),
    [
      ['password-change', null],
      ['login', '密码'],
      ['login-failed', '密码'],
      ['register', null],
    ],
  )
  const login0 = list.items[1]!
  assert.equal(login0.label, '登录')
  assert.equal(login0.ipMasked, '203.0.113.*')
  assert.equal(login0.location, '未知位置')
  assert.equal(login0.client, 'Chrome 120 · Windows')
  assert.ok(!JSON.stringify(list).includes(user.mobile), 'no phone number in the record')

  const out = await ctx.app.inject({
    method: 'POST',
    url: '/main/account/logout',
    headers: bearer(fresh),
  })
  assert.equal(out.statusCode, 200)
  ctx.clock.advance(1000)
  const again = await login(user.mobile, 'new12345')
  const latest = await events(again.json().data.access_token)
  assert.deepEqual(
    latest.items.slice(0, 2).map((event) => event.kind),
    ['login', 'logout'],
  )
})

test('a lock is recorded once per quarter hour, however often the locked phone is tried', async () => {
  const user = await registerUser(ctx)
  const ip = '198.51.100.77'
  const statuses: number[] = []
  for (let i = 0; i < 8; i += 1)
    statuses.push((await login(user.mobile, `bad${i}pass`, ip)).statusCode)
  assert.deepEqual(statuses.slice(0, 4), [400, 400, 400, 400])
  assert.ok(
    statuses.slice(4).every((status) => status === 429),
    statuses.join(),
  )
  // The owner signs in by code (the lock is per phone and client, and a code proves the phone).
  ctx.clock.advance(1000)
  const code = await codeFor(ctx.app, user.mobile, 'login')
  const byCode = await ctx.app.inject({
    method: 'POST',
    url: '/main/account/login',
    payload: { mobile: user.mobile, code },
  })
  assert.equal(byCode.statusCode, 200, byCode.body)
  const list = await events(byCode.json().data.access_token, '?pageSize=50')
  const kinds = list.items.map((event) => event.kind)
  assert.equal(kinds.filter((kind) => kind === 'lock').length, 1)
  assert.equal(kinds.filter((kind) => kind === 'login-failed').length, 4)
  assert.equal(list.items[0]!.detail, '验证码')
})

test('a 429 that is not the phone’s lock (the address’s own limit) records no lock', async () => {
  const user = await registerUser(ctx)
  const ip = '198.51.100.78'
  // The address spends its 50 failures an hour on numbers without an account ...
  for (let i = 0; i < 50; i += 1) {
    assert.equal(
      (await login(`1370000${String(i).padStart(4, '0')}`, 'bad1pass', ip)).statusCode,
      400,
    )
  }
  // ... so the next try at the user's phone is refused for the address, not for the phone.
  const limited = await login(user.mobile, 'bad1pass', ip)
  assert.equal(limited.statusCode, 429)
  assert.equal(limited.json().error, '操作过于频繁，请 60 分钟后再试')
  const list = await events(user.access, '?pageSize=50')
  assert.deepEqual(
    list.items.map((event) => event.kind),
    ['register'],
  )
})

test('paged newest first; only one’s own events; a token is needed; bad paging in Chinese', async () => {
  const user = await registerUser(ctx)
  const other = await registerUser(ctx)
  for (let i = 0; i < 12; i += 1) {
    ctx.clock.advance(1000)
    assert.equal((await login(user.mobile, user.password)).statusCode, 200)
  }
  const first = await events(user.access, '?page=1&pageSize=10')
  const second = await events(user.access, '?page=2&pageSize=10')
  assert.equal(first.total, 13)
  assert.equal(first.items.length, 10)
  assert.equal(second.items.length, 3)
  const times = [...first.items, ...second.items].map((event) => event.createdAt)
  assert.deepEqual(times, [...times].sort().reverse())
  assert.equal(second.items.at(-1)!.kind, 'register')
  const ids = new Set([...first.items, ...second.items].map((event) => event.id))
  assert.equal(ids.size, 13, 'pages do not overlap')

  assert.equal((await events(other.access)).total, 1, 'the other account sees only its own')
  const anonymous = await ctx.app.inject('/main/account/security-events')
  assert.equal(anonymous.statusCode, 401)
  const bad = await ctx.app.inject({
    url: '/main/account/security-events?pageSize=500',
    headers: bearer(user.access),
  })
  assert.equal(bad.statusCode, 400)
  assert.equal(bad.json().error, '每页最多 50 条')
})

test('password reset by SMS is recorded for the account', async () => {
  const user = await registerUser(ctx)
  const code = await codeFor(ctx.app, user.mobile, 'reset')
  const reset = await ctx.app.inject({
    method: 'POST',
    url: '/sso/password/reset',
    payload: { mobile: user.mobile, code, password: 'reset1234' },
  })
  assert.equal(reset.statusCode, 200, reset.body)
  ctx.clock.advance(1000)
  const back = await login(user.mobile, 'reset1234')
  const list = await events(back.json().data.access_token)
  assert.deepEqual(
    list.items.slice(0, 2).map((event) => event.kind),
    ['login', 'password-reset'],
  )
})
