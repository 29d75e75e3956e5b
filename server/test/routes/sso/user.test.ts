import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { UserProfileSchema } from '@contract/sso/auth'
import {
  bearer,
  buildProfileApp,
  type ProfileApp,
  signUp,
  smsCode,
  validIdNumber,
} from '../../domain/profile/support'

let ctx: ProfileApp
before(async () => {
  ctx = await buildProfileApp()
})

function put(token: string | undefined, payload: unknown) {
  return ctx.app.inject({
    method: 'PUT',
    url: '/sso/user',
    payload: payload as object,
    ...(token ? { headers: bearer(token) } : {}),
  })
}

function merge(token: string | undefined, payload: unknown) {
  return ctx.app.inject({
    method: 'POST',
    url: '/sso/user/merge',
    payload: payload as object,
    ...(token ? { headers: bearer(token) } : {}),
  })
}

test('modifyUser: nickname (trimmed) and gender; the profile answers', async () => {
  const person = await signUp(ctx.app.db, ctx.clock.now())
  const res = await put(person.token, { nickname: '  小明  ', gender: 'male' })
  assert.equal(res.statusCode, 200, res.body)
  const profile = UserProfileSchema.parse(res.json().data)
  assert.equal(profile.nickname, '小明')
  const row = await ctx.app.db
    .selectFrom('users')
    .select('gender')
    .where('id', '=', person.user.id)
    .executeTakeFirstOrThrow()
  assert.equal(row.gender, 'male')
  assert.equal((await put(person.token, {})).statusCode, 200, 'nothing to change is fine')
})

test('modifyUser: bad input in Chinese; a foreign avatar URL is refused; a token is needed', async () => {
  const person = await signUp(ctx.app.db, ctx.clock.now())
  const cases: [unknown, string][] = [
    [{ nickname: '   ' }, '昵称不能为空'],
    [{ nickname: '长'.repeat(21) }, '昵称最多 20 个字'],
    [{ gender: 'other' }, '参数 gender 的取值无效'],
    [{ avatarUrl: 'https://tracker.example/a.png' }, '头像地址无效，请重新上传头像'],
  ]
  for (const [payload, error] of cases) {
    const res = await put(person.token, payload)
    assert.equal(res.statusCode, 400, JSON.stringify(payload))
    assert.equal(res.json().error, error)
  }
  assert.equal((await put(undefined, { nickname: '小明' })).statusCode, 401)
  assert.equal((await put('forged', { nickname: '小明' })).statusCode, 401)
})

test('mergeUser: a WeChat account takes in the phone account after an SMS code', async () => {
  const phone = await signUp(ctx.app.db, ctx.clock.now(), { password: 'abc12345' })
  const wechat = await signUp(ctx.app.db, ctx.clock.now(), { mobile: null, wechatOpenid: 'wx-1' })
  await ctx.app.inject({
    method: 'POST',
    url: '/main/account/idcard',
    headers: bearer(phone.token),
    payload: { realName: '钱七', idCard: validIdNumber('19750505', 501) },
  })

  const wrong = await merge(wechat.token, { mobile: phone.mobile, code: '000000' })
  assert.equal(wrong.statusCode, 400)
  assert.equal(wrong.json().error, '请先获取验证码')

  const code = await smsCode(ctx.app.db, phone.mobile!, 'merge', ctx.clock.now())
  const res = await merge(wechat.token, { mobile: phone.mobile, code, password: 'abc12345' })
  assert.equal(res.statusCode, 200, res.body)
  const profile = UserProfileSchema.parse(res.json().data)
  assert.equal(profile.id, wechat.user.id)
  assert.equal(profile.idCardStatus, 'bound', 'the card came along')
  assert.equal(profile.wechatBound, true)
  assert.equal(profile.hasPassword, true)
  assert.ok(profile.mobileMasked?.endsWith(phone.mobile!.slice(-4)))

  assert.equal(
    (await ctx.app.inject({ url: '/main/account/profile', headers: bearer(phone.token) }))
      .statusCode,
    401,
    'the merged account’s sessions are revoked',
  )
  const cards = await ctx.app.inject({ url: '/main/account/cards', headers: bearer(wechat.token) })
  assert.equal(cards.json().data.length, 1)

  const again = await merge(wechat.token, { mobile: phone.mobile, code })
  assert.equal(again.statusCode, 400)
  assert.equal(again.json().error, '该手机号已是当前账号的手机号')
})

test('mergeUser: bad input, a missing token and conflicting ID cards are refused', async () => {
  const wechat = await signUp(ctx.app.db, ctx.clock.now(), { mobile: null, wechatOpenid: 'wx-2' })
  assert.equal(
    (await merge(wechat.token, { mobile: '123', code: '123456' })).json().error,
    '请输入正确的 11 位手机号',
  )
  assert.equal((await merge(wechat.token, { mobile: '13900001111' })).json().error, '请输入验证码')
  assert.equal((await merge(undefined, { mobile: '13900001111', code: '123456' })).statusCode, 401)

  const phone = await signUp(ctx.app.db, ctx.clock.now())
  for (const [token, sequence] of [
    [phone.token, 701],
    [wechat.token, 702],
  ] as const) {
    const bound = await ctx.app.inject({
      method: 'POST',
      url: '/main/account/idcard',
      headers: bearer(token),
      payload: { realName: '孙八', idCard: validIdNumber('19700101', sequence) },
    })
    assert.equal(bound.statusCode, 200)
  }
  const code = await smsCode(ctx.app.db, phone.mobile!, 'merge', ctx.clock.now())
  const refused = await merge(wechat.token, { mobile: phone.mobile, code })
  assert.equal(refused.statusCode, 400)
  assert.equal(refused.json().error, '两个账号绑定了不同的身份证，无法合并')
  assert.equal(
    (await ctx.app.inject({ url: '/main/account/profile', headers: bearer(phone.token) }))
      .statusCode,
    200,
    'nothing changed',
  )
})
