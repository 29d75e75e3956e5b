import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { REASONS } from '@contract/reasons'
import { BoundCardSchema } from '@contract/main/account'
import { createUser, findUserByMobile } from '../../../src/domain/identity'
import {
  bearer,
  buildProfileApp,
  freshMobile,
  type ProfileApp,
  signUp,
  smsCode,
  validIdNumber,
} from '../../domain/profile/support'

let ctx: ProfileApp
before(async () => {
  ctx = await buildProfileApp()
})

/** Numbers bound in this file; none may appear whole in any response or log line. */
const usedNumbers: string[] = []
function idNumber(sequence: number, birth = '19880808'): string {
  const number = validIdNumber(birth, sequence)
  usedNumbers.push(number)
  return number
}

function post(url: string, token: string | undefined, payload: unknown, method = 'POST') {
  return ctx.app.inject({
    method: method as 'POST',
    url,
    payload: payload as object,
    ...(token ? { headers: bearer(token) } : {}),
  })
}

function get(url: string, token?: string) {
  return ctx.app.inject({ url, ...(token ? { headers: bearer(token) } : {}) })
}

test('bindIdCard: bound, masked, reflected in the profile; a second account cannot take it', async () => {
  const person = await signUp(ctx.app.db, ctx.clock.now())
  const number = idNumber(11)
  const res = await post('/main/account/idcard', person.token, {
    realName: '张三丰',
    idCard: number,
  })
  assert.equal(res.statusCode, 200, res.body)
  const card = BoundCardSchema.parse(res.json().data)
  assert.equal(card.numberMasked, `${number.slice(0, 3)}***********${number.slice(-4)}`)
  assert.equal(card.holderMasked, '张**')
  const profile = (await get('/main/account/profile', person.token)).json().data
  assert.equal(profile.realNameVerified, false, 'bound, not verified: 已绑定, not 已实名')
  assert.equal(profile.idCardStatus, 'bound')

  const cards = (await get('/main/account/cards', person.token)).json().data
  assert.deepEqual(cards, [card])
  const own = await get(`/main/account/idcard/by-phone?mobile=${person.mobile}`, person.token)
  assert.deepEqual(own.json().data, card)

  const other = await signUp(ctx.app.db, ctx.clock.now())
  const taken = await post('/main/account/idcard', other.token, {
    realName: '张三丰',
    idCard: number,
  })
  assert.equal(taken.statusCode, 400)
  assert.deepEqual(taken.json(), {
    code: 400,
    message: '请求参数有误',
    data: null,
    error: '该身份证已被其他账号绑定',
    reason: REASONS.idCardTaken,
  })
  assert.deepEqual((await get('/main/account/cards', other.token)).json().data, [])
  assert.equal(
    (await get(`/main/account/idcard/by-phone?mobile=${other.mobile}`, other.token)).json().data,
    null,
  )
})

test('bindIdCard: bad input answers 400 with a Chinese message', async () => {
  const person = await signUp(ctx.app.db, ctx.clock.now())
  const cases: [unknown, string][] = [
    [{ realName: '张三', idCard: '12345' }, '请输入 18 位身份证号，末位 X 请大写'],
    [{ realName: '张三', idCard: '11010519491231002x' }, '请输入 18 位身份证号，末位 X 请大写'],
    [{ realName: '张三', idCard: '110105194912310021' }, '身份证号校验位不正确，请核对'],
    [{ realName: '张三', idCard: validIdNumber('19900230') }, '身份证号中的出生日期不正确，请核对'],
    [{ realName: '张三', idCard: validIdNumber('20991231') }, '身份证号中的出生日期不正确，请核对'],
    [{ realName: 'Zhang', idCard: validIdNumber() }, '请输入 2–20 个汉字的真实姓名'],
    [{ idCard: validIdNumber() }, '请输入真实姓名'],
    [{ realName: '张三' }, '请输入身份证号'],
  ]
  for (const [payload, error] of cases) {
    const res = await post('/main/account/idcard', person.token, payload)
    assert.equal(res.statusCode, 400, JSON.stringify(payload))
    assert.equal(res.json().error, error, JSON.stringify(payload))
  }
  assert.deepEqual((await get('/main/account/cards', person.token)).json().data, [])
})

test('ID card endpoints need a valid token; someone else’s phone is refused', async () => {
  const person = await signUp(ctx.app.db, ctx.clock.now())
  const stranger = await signUp(ctx.app.db, ctx.clock.now())
  await post('/main/account/idcard', stranger.token, { realName: '李四', idCard: idNumber(12) })

  for (const [method, url] of [
    ['POST', '/main/account/idcard'],
    ['GET', '/main/account/cards'],
    ['GET', `/main/account/idcard/by-phone?mobile=${person.mobile}`],
  ] as const) {
    const payload = method === 'POST' ? { realName: '张三', idCard: validIdNumber() } : undefined
    const none = await ctx.app.inject({ method, url, payload })
    assert.equal(none.statusCode, 401, url)
    const wrong = await ctx.app.inject({ method, url, payload, headers: bearer('forged') })
    assert.equal(wrong.statusCode, 401, url)
  }
  const foreign = await get(`/main/account/idcard/by-phone?mobile=${stranger.mobile}`, person.token)
  assert.equal(foreign.statusCode, 403)
  assert.equal(foreign.json().error, '只能查询本人手机号绑定的证件')
  const bad = await get('/main/account/idcard/by-phone?mobile=123', person.token)
  assert.equal(bad.statusCode, 400)
  assert.equal(bad.json().error, '请输入正确的 11 位手机号')
})

test('bindPhone: code to the new number; the profile shows it; a used number is refused', async () => {
  const person = await signUp(ctx.app.db, ctx.clock.now(), { password: 'abc12345' })
  const next = freshMobile()
  const wrong = await post('/main/account/phone/bind', person.token, {
    mobile: next,
    code: '12345',
  })
  assert.equal(wrong.statusCode, 400)
  assert.equal(wrong.json().error, '请输入 6 位数字验证码')
  const code = await smsCode(ctx.app.db, next, 'bind', ctx.clock.now())
  const res = await post('/main/account/phone/bind', person.token, {
    mobile: next,
    code,
    password: 'abc12345',
  })
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(res.json().data.mobileMasked, `${next.slice(0, 3)}****${next.slice(7)}`)
  assert.ok(!res.body.includes(next), 'never the full number')
  assert.equal((await findUserByMobile(ctx.app.db, next))?.id, person.user.id)

  const other = await signUp(ctx.app.db, ctx.clock.now())
  const again = await smsCode(ctx.app.db, next, 'bind', ctx.clock.now())
  const oldCode = await smsCode(ctx.app.db, other.mobile!, 'verify-old', ctx.clock.now())
  const taken = await post('/main/account/phone/bind', other.token, {
    mobile: next,
    code: again,
    oldCode,
  })
  assert.equal(taken.statusCode, 400)
  assert.equal(taken.json().error, '该手机号已被其他账号使用')
  assert.equal(
    (await post('/main/account/phone/bind', undefined, { mobile: next, code })).statusCode,
    401,
  )
})

test('notice settings: all on by default, saved field by field', async () => {
  const person = await signUp(ctx.app.db, ctx.clock.now())
  const all = { consultReply: true, reportReady: true, systemNotice: true }
  assert.deepEqual((await get('/main/account/notice', person.token)).json().data, all)
  const saved = await post('/main/account/notice', person.token, { reportReady: false }, 'PUT')
  assert.equal(saved.statusCode, 200, saved.body)
  assert.deepEqual(saved.json().data, { ...all, reportReady: false })
  await post('/main/account/notice', person.token, { systemNotice: false }, 'PUT')
  assert.deepEqual((await get('/main/account/notice', person.token)).json().data, {
    consultReply: true,
    reportReady: false,
    systemNotice: false,
  })
  const other = await signUp(ctx.app.db, ctx.clock.now())
  assert.deepEqual((await get('/main/account/notice', other.token)).json().data, all, 'per person')
  const bad = await post('/main/account/notice', person.token, { reportReady: 'no' }, 'PUT')
  assert.equal(bad.statusCode, 400)
  assert.equal(bad.json().error, '参数 reportReady 格式不正确')
  assert.equal((await get('/main/account/notice')).statusCode, 401)
})

test('addTrack: with or without a token, only the event and the page path are kept', async () => {
  const person = await signUp(ctx.app.db, ctx.clock.now())
  const anonymous = await ctx.app.inject({
    method: 'POST',
    url: '/main/account/track',
    payload: { event: 'page_view', page: '/pages/search/search?keyword=肺结节#top' },
    remoteAddress: '192.0.2.10',
  })
  assert.equal(anonymous.statusCode, 200, anonymous.body)
  const signed = await post('/main/account/track', person.token, { event: 'tap_entry' })
  assert.equal(signed.statusCode, 200)
  const stale = await post('/main/account/track', 'expired-token', { event: 'tap_entry' })
  assert.equal(stale.statusCode, 200, 'a stale token counts as anonymous, not as a failure')

  const rows = await ctx.app.db.selectFrom('tracks').selectAll().orderBy('created_at').execute()
  const anon = rows.find((row) => row.event === 'page_view')!
  assert.equal(anon.user_id, null)
  assert.equal(anon.page, 'pages/search/search', 'no query string, no search term')
  assert.ok(rows.some((row) => row.user_id === person.user.id && row.event === 'tap_entry'))

  const badEvent = await post('/main/account/track', undefined, { event: '看了报告' })
  assert.equal(badEvent.statusCode, 400)
  assert.equal(badEvent.json().error, '事件名格式不正确')
  const badPage = await post('/main/account/track', undefined, {
    event: 'page_view',
    page: '<script>',
  })
  assert.equal(badPage.statusCode, 400)
  assert.equal(badPage.json().error, '页面路径格式不正确')
})

test('addTrack is rate-limited: 60 a minute per client', async () => {
  const ip = '192.0.2.99'
  const send = () =>
    ctx.app.inject({
      method: 'POST',
      url: '/main/account/track',
      payload: { event: 'page_view' },
      remoteAddress: ip,
    })
  for (let i = 0; i < 60; i += 1) assert.equal((await send()).statusCode, 200)
  const limited = await send()
  assert.equal(limited.statusCode, 429)
  assert.match(limited.json().error, /^操作过于频繁，请 \d+ 秒后再试$/)
  ctx.clock.advance(60_000)
  assert.equal((await send()).statusCode, 200)
})

test('deleteAccount: code to the own phone, then nothing personal is left and the phone is free', async () => {
  const person = await signUp(ctx.app.db, ctx.clock.now(), { password: 'abc12345' })
  const mobile = person.mobile!
  await post('/main/account/idcard', person.token, { realName: '王小二', idCard: idNumber(13) })
  await post('/main/account/notice', person.token, { consultReply: false }, 'PUT')
  await post('/main/account/track', person.token, { event: 'page_view', page: 'pages/user/user' })

  assert.equal((await post('/main/account/delete', undefined, { code: '123456' })).statusCode, 401)
  const badCode = await post('/main/account/delete', person.token, { code: 'abc' })
  assert.equal(badCode.json().error, '请输入 6 位数字验证码')
  // A code for another purpose does not delete anything.
  const loginCode = await smsCode(ctx.app.db, mobile, 'login', ctx.clock.now())
  const wrongPurpose = await post('/main/account/delete', person.token, { code: loginCode })
  assert.equal(wrongPurpose.statusCode, 400)

  const code = await smsCode(ctx.app.db, mobile, 'delete', ctx.clock.now())
  const res = await post('/main/account/delete', person.token, { code })
  assert.equal(res.statusCode, 200, res.body)
  assert.deepEqual(res.json().data, { ok: true })

  assert.equal((await get('/main/account/profile', person.token)).statusCode, 401)
  const user = await ctx.app.db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', person.user.id)
    .executeTakeFirstOrThrow()
  assert.deepEqual(
    {
      nickname: user.nickname,
      mobile: user.mobile,
      avatar: user.avatar_url,
      password: user.password_hash,
      wechat: user.wechat_openid,
    },
    { nickname: '已注销用户', mobile: null, avatar: null, password: null, wechat: null },
  )
  for (const table of ['id_cards', 'notice_settings', 'tracks', 'files', 'qr_logins'] as const) {
    const rows = await ctx.app.db
      .selectFrom(table)
      .selectAll()
      .where('user_id', '=', person.user.id)
      .execute()
    assert.equal(rows.length, 0, table)
  }
  // Nothing in the whole database holds the phone number any more.
  for (const table of [
    'users',
    'sms_codes',
    'sms_outbox',
    'code_tickets',
    'login_failures',
  ] as const) {
    const rows = await ctx.app.db.selectFrom(table).selectAll().execute()
    assert.ok(!JSON.stringify(rows).includes(mobile), `${table} does not hold the phone`)
  }
  const fresh = await createUser(ctx.app.db, { mobile, now: ctx.clock.now() })
  assert.notEqual(fresh.id, person.user.id, 'the phone registers afresh')
})

test('bindIdCard is rate-limited: 10 tries a day per account', async () => {
  const person = await signUp(ctx.app.db, ctx.clock.now())
  const owner = await signUp(ctx.app.db, ctx.clock.now())
  const number = idNumber(14)
  await post('/main/account/idcard', owner.token, { realName: '李四', idCard: number })
  for (let i = 0; i < 10; i += 1) {
    const res = await post('/main/account/idcard', person.token, {
      realName: '李四',
      idCard: number,
    })
    assert.equal(res.statusCode, 400)
  }
  const limited = await post('/main/account/idcard', person.token, {
    realName: '李四',
    idCard: number,
  })
  assert.equal(limited.statusCode, 429)
  assert.match(limited.json().error, /^尝试次数过多，请 \d+ 小时后再试$/)
})

test('no response body or log line holds a full ID number', async () => {
  const everything = [
    ...ctx.logs,
    ...(await ctx.app.db.selectFrom('id_cards').selectAll().execute()).map((row) =>
      JSON.stringify(row),
    ),
  ].join('\n')
  assert.ok(usedNumbers.length >= 3)
  for (const number of usedNumbers) {
    assert.ok(!everything.includes(number), 'a full ID number leaked')
    assert.ok(!everything.includes(number.slice(6, 14)), 'a birth date leaked')
  }
})
