import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { createSession } from '../../../src/domain/identity'
import {
  MERGE_PASSWORD_REQUIRED,
  MERGE_WRONG_PASSWORD,
  PROOF_REQUIRED,
  PROOF_WRONG_PASSWORD,
} from '../../../src/domain/profile/account'
import {
  bearer,
  buildProfileApp,
  freshMobile,
  type ProfileApp,
  signUp,
  smsCode,
} from '../../domain/profile/support'
import { readOutbox } from '../../../src/providers/sms'

let ctx: ProfileApp
before(async () => {
  ctx = await buildProfileApp()
})

function post(url: string, token: string, payload: object) {
  return ctx.app.inject({ method: 'POST', url, payload, headers: bearer(token) })
}

async function works(token: string): Promise<boolean> {
  const res = await ctx.app.inject({ url: '/main/account/profile', headers: bearer(token) })
  return res.statusCode === 200
}

async function outbox(mobile: string) {
  // The outbox stores the number as a keyed hash and the text sealed: read it through the provider.
  return readOutbox(ctx.app.db, mobile)
}

async function auditKinds(userId: string): Promise<string[]> {
  const rows = await ctx.app.db
    .selectFrom('audit_events')
    .select('kind')
    .where('user_id', '=', userId)
    .execute()
  return rows.map((row) => row.kind)
}

test('bindPhone needs proof of the current identity; a session alone is not enough', async () => {
  const person = await signUp(ctx.app.db, ctx.clock.now(), { password: 'abc12345' })
  const next = freshMobile()
  const code = await smsCode(ctx.app.db, next, 'bind', ctx.clock.now())
  const bare = await post('/main/account/phone/bind', person.token, { mobile: next, code })
  assert.equal(bare.statusCode, 400)
  assert.equal(bare.json().error, PROOF_REQUIRED)
  const wrong = await post('/main/account/phone/bind', person.token, {
    mobile: next,
    code,
    password: 'wrong1234',
  })
  assert.equal(wrong.statusCode, 400)
  assert.equal(wrong.json().error, PROOF_WRONG_PASSWORD)
  // The number did not change, and the bind code was not used up by the refused attempts.
  const row = await ctx.app.db
    .selectFrom('users')
    .select('mobile')
    .where('id', '=', person.user.id)
    .executeTakeFirstOrThrow()
  assert.equal(row.mobile, person.mobile)
})

test('wrong passwords as proof are limited: 5 per 15 minutes per account', async () => {
  const person = await signUp(ctx.app.db, ctx.clock.now(), { password: 'abc12345' })
  const next = freshMobile()
  const statuses: number[] = []
  for (let i = 0; i < 6; i += 1) {
    const res = await post('/main/account/phone/bind', person.token, {
      mobile: next,
      code: '123456',
      password: `wrong${i}abc`,
    })
    statuses.push(res.statusCode)
  }
  assert.deepEqual(statuses, [400, 400, 400, 400, 400, 429])
  // Even the right password waits out the limit: the limit must not tell right from wrong.
  const right = await post('/main/account/phone/bind', person.token, {
    mobile: next,
    code: '123456',
    password: 'abc12345',
  })
  assert.equal(right.statusCode, 429)
})

test('a code to the OLD phone proves the owner; other sessions end; the old phone is told', async () => {
  const person = await signUp(ctx.app.db, ctx.clock.now())
  const elsewhere = await createSession(ctx.app.db, person.user.id, ctx.clock.now())
  const oldMobile = person.mobile!
  const sent = await post('/main/account/code/send-own', person.token, { purpose: 'verify-old' })
  assert.equal(sent.statusCode, 200, sent.body)
  const oldCode = (await outbox(oldMobile)).at(-1)!.code
  const next = freshMobile()
  const code = await smsCode(ctx.app.db, next, 'bind', ctx.clock.now())
  const res = await post('/main/account/phone/bind', person.token, { mobile: next, code, oldCode })
  assert.equal(res.statusCode, 200, res.body)

  assert.equal(await works(person.token), true, 'the caller stays signed in')
  assert.equal(await works(elsewhere.access_token), false, 'every other session is signed out')

  const notice = (await outbox(oldMobile)).at(-1)!
  assert.equal(notice.purpose, 'notice')
  assert.match(notice.code, /更换为 \d{3}\*{4}\d{4}/)
  assert.ok(!notice.code.includes(next), 'the notice masks the new number')
  // The demo code reader skips notices: the latest CODE of the old phone is still the verify one.
  const latest = await ctx.app.inject(`/main/demo/sms/latest?mobile=${oldMobile}`)
  assert.equal(latest.statusCode, 200, latest.body)
  assert.equal(latest.json().data.purpose, 'verify-old')

  assert.deepEqual(await auditKinds(person.user.id), ['phone-rebind'])
})

test('a WeChat account without phone or password binds its first phone with the new code only', async () => {
  const wechat = await signUp(ctx.app.db, ctx.clock.now(), {
    mobile: null,
    wechatOpenid: 'wx-first-phone',
  })
  const next = freshMobile()
  const code = await smsCode(ctx.app.db, next, 'bind', ctx.clock.now())
  const res = await post('/main/account/phone/bind', wechat.token, { mobile: next, code })
  assert.equal(res.statusCode, 200, res.body)
  const own = await post('/main/account/code/send-own', wechat.token, { purpose: 'verify-old' })
  assert.equal(own.statusCode, 200, 'now it has a phone to verify with')
})

test('mergeUser needs the phone account’s password; the phone is told; other sessions end', async () => {
  const phone = await signUp(ctx.app.db, ctx.clock.now(), { password: 'abc12345' })
  const wechat = await signUp(ctx.app.db, ctx.clock.now(), {
    mobile: null,
    wechatOpenid: 'wx-merge-proof',
  })
  const wechatElsewhere = await createSession(ctx.app.db, wechat.user.id, ctx.clock.now())
  const merge = (payload: object) => post('/sso/user/merge', wechat.token, payload)

  let code = await smsCode(ctx.app.db, phone.mobile!, 'merge', ctx.clock.now())
  const missing = await merge({ mobile: phone.mobile, code })
  assert.equal(missing.statusCode, 400)
  assert.equal(missing.json().error, MERGE_PASSWORD_REQUIRED)

  code = await smsCode(ctx.app.db, phone.mobile!, 'merge', ctx.clock.now())
  const wrong = await merge({ mobile: phone.mobile, code, password: 'nope12345' })
  assert.equal(wrong.statusCode, 400)
  assert.equal(wrong.json().error, MERGE_WRONG_PASSWORD)
  assert.equal(await works(phone.token), true, 'nothing merged yet')

  code = await smsCode(ctx.app.db, phone.mobile!, 'merge', ctx.clock.now())
  const res = await merge({ mobile: phone.mobile, code, password: 'abc12345' })
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(await works(wechat.token), true)
  assert.equal(await works(wechatElsewhere.access_token), false)
  const notice = (await outbox(phone.mobile!)).at(-1)!
  assert.equal(notice.purpose, 'notice')
  assert.match(notice.code, /并入/)
  assert.deepEqual(await auditKinds(wechat.user.id), ['account-merge'])
})

test('without an SMS gateway the change still succeeds; the notice failure is only logged', async () => {
  const prod = await buildProfileApp({ demoMode: false })
  const person = await signUp(prod.app.db, prod.clock.now(), { password: 'abc12345' })
  const next = freshMobile()
  const code = await smsCode(prod.app.db, next, 'bind', prod.clock.now())
  const res = await prod.app.inject({
    method: 'POST',
    url: '/main/account/phone/bind',
    payload: { mobile: next, code, password: 'abc12345' },
    headers: bearer(person.token),
  })
  assert.equal(res.statusCode, 200, res.body)
  assert.ok(prod.logs.some((line) => line.includes('security notice not sent')))
  assert.ok(!prod.logs.some((line) => line.includes(person.mobile!)), 'no number in the log')
})

test('a burst of 30 wrong passwords as proof: at most 5 are checked, the rest refused', async () => {
  const person = await signUp(ctx.app.db, ctx.clock.now(), { password: 'abc12345' })
  const next = freshMobile()
  const answers = await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      post('/main/account/phone/bind', person.token, {
        mobile: next,
        code: '123456',
        password: `burst${i}abc`,
      }),
    ),
  )
  const checked = answers.filter((res) => res.json().error === PROOF_WRONG_PASSWORD).length
  const refused = answers.filter((res) => res.statusCode === 429).length
  assert.ok(checked <= 5, `checked ${checked}`)
  assert.equal(checked + refused, 30)
})
