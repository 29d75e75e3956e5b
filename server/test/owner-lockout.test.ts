import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import type { InjectOptions } from 'fastify'
import { SMS_PURPOSES } from '@contract/sso/auth'
import { LOGIN_LOCK, OWN_PHONE_ONLY, SMS_LIMITS, type SmsProvider } from '../src/domain/identity'
import { outboxSmsProvider } from '../src/providers/sms'
import {
  bearer,
  buildIdentityApp,
  freshIp,
  type IdentityApp,
  recordingSms,
  registerUser,
} from './domain/identity/support'

/**
 * Issue 6, section 1, as a stranger without an account attacks it over HTTP from a handful of
 * addresses (the security test of the hardened limits): the owner must keep a way in. Found: five
 * wrong code checks from anywhere ended the owner's code; wrong passwords from 7 addresses and SMS
 * requests for every purpose from them closed password login, login codes and reset codes for 24 h.
 */

/** Records every code (to read the owner's own) and keeps the demo outbox registerUser reads. */
const sms = recordingSms()
let outbox: SmsProvider | undefined
const recordingOutbox: SmsProvider = {
  async send(mobile, purpose, code) {
    await sms.send(mobile, purpose, code)
    outbox ??= outboxSmsProvider(ctx.app.db, ctx.app.log, ctx.clock.now)
    await outbox.send(mobile, purpose, code)
  },
}
let ctx: IdentityApp
before(async () => {
  ctx = await buildIdentityApp({ logLevel: 'silent' }, { providers: { sms: recordingOutbox } })
})

const inject = (options: InjectOptions) => ctx.app.inject(options)
const post = (url: string, payload: object, remoteAddress: string, headers = {}) =>
  inject({ method: 'POST', url, payload, remoteAddress, headers })
const errorOf = (res: { json(): unknown }) => (res.json() as { error: string | null }).error ?? ''
const guesses = ['111111', '222222', '333333', '444444', '555555']

/** A stranger's loop of wrong code checks for the phone (every 300 ms in the report). */
async function hammerCodes(mobile: string, ip: string, rounds: number): Promise<void> {
  for (let i = 0; i < rounds; i += 1) {
    for (const purpose of ['reset', 'login'] as const) {
      const res = await post(
        '/main/account/code/validate',
        { mobile, code: guesses[i % guesses.length], purpose },
        ip,
      )
      assert.ok([400, 429].includes(res.statusCode), res.body)
    }
  }
}

test("a stranger checking codes from another address cannot end the owner's code", async () => {
  const owner = await registerUser(ctx)
  const stranger = freshIp()
  const home = freshIp()
  await hammerCodes(owner.mobile, stranger, 5)
  const sent = await post('/sso/sms/send', { mobile: owner.mobile, purpose: 'reset' }, home)
  assert.equal(sent.statusCode, 200, sent.body)
  const code = sms.last(owner.mobile)
  // The stranger keeps going while the owner types the code ...
  await hammerCodes(owner.mobile, stranger, 20)
  // ... which still works.
  const reset = await post(
    '/main/account/password/forgot',
    { mobile: owner.mobile, code, password: 'fresh2024' },
    home,
  )
  assert.equal(reset.statusCode, 200, reset.body)
})

test('stranger from 8 addresses cannot lock the owner out', async () => {
  const owner = await registerUser(ctx)
  const { mobile } = owner
  const strangers = Array.from({ length: 8 }, () => freshIp())

  // Wrong passwords from every address: 5 each, and again after each 15-minute lock (80 in all).
  for (let round = 0; round < 2; round += 1) {
    for (const ip of strangers) {
      for (let i = 0; i < LOGIN_LOCK.maxFailures; i += 1) {
        const res = await post(
          '/sso/oauth2/token',
          { grant_type: 'password', username: mobile, password: 'wrong1234' },
          ip,
        )
        assert.ok([400, 429].includes(res.statusCode), res.body)
      }
    }
    ctx.clock.advance(LOGIN_LOCK.lockMs)
  }
  // SMS requests for every purpose once a minute from the addresses in turn, for 10 minutes.
  let turn = 0
  for (let minute = 0; minute < 10; minute += 1) {
    for (const purpose of SMS_PURPOSES) {
      const res = await post('/sso/sms/send', { mobile, purpose }, strangers[turn % 8]!)
      turn += 1
      if (purpose === 'delete' || purpose === 'verify-old') {
        // Only the signed-in owner gets those, at the account's own phone.
        assert.equal(res.statusCode, 400)
        assert.equal(errorOf(res), OWN_PHONE_ONLY)
      }
    }
    ctx.clock.advance(SMS_LIMITS.cooldownMs)
  }
  // Wrong code checks from the same addresses.
  for (const ip of strangers.slice(0, 4)) await hammerCodes(mobile, ip, 3)

  const home = freshIp()
  // Password login is closed for the phone, and the answer says what to do instead.
  const closed = await post(
    '/sso/oauth2/token',
    { grant_type: 'password', username: mobile, password: owner.password },
    home,
  )
  assert.equal(closed.statusCode, 429)
  assert.match(errorOf(closed), /请使用验证码登录或找回密码/)

  // The owner gets a reset code and sets a new password, strangers guessing all the while.
  const resetCode = await post('/sso/sms/send', { mobile, purpose: 'reset' }, home)
  assert.equal(resetCode.statusCode, 200, resetCode.body)
  const code = sms.last(mobile)
  await hammerCodes(mobile, strangers[5]!, 3)
  const reset = await post('/sso/password/reset', { mobile, code, password: 'mine2024' }, home)
  assert.equal(reset.statusCode, 200, reset.body)
  ctx.clock.advance(SMS_LIMITS.cooldownMs)

  // A login code, and a login with it.
  const loginCode = await post('/sso/sms/send', { mobile, purpose: 'login' }, home)
  assert.equal(loginCode.statusCode, 200, loginCode.body)
  const login = await post(
    '/sso/oauth2/token',
    { grant_type: 'sms_code', mobile, code: sms.last(mobile) },
    home,
  )
  assert.equal(login.statusCode, 200, login.body)
  // And the new password works from anywhere.
  const byPassword = await post(
    '/sso/oauth2/token',
    { grant_type: 'password', username: mobile, password: 'mine2024' },
    freshIp(),
  )
  assert.equal(byPassword.statusCode, 200, byPassword.body)
})

test('the public send routes refuse delete and verify-old codes; the signed-in owner gets them', async () => {
  const owner = await registerUser(ctx)
  for (const url of ['/sso/sms/send', '/main/account/code/send']) {
    for (const purpose of ['delete', 'verify-old']) {
      const res = await post(url, { mobile: owner.mobile, purpose }, freshIp())
      assert.equal(res.statusCode, 400, `${url} ${purpose}`)
      assert.equal(errorOf(res), OWN_PHONE_ONLY)
    }
  }
  const before = sms.sent.length
  const own = await post(
    '/main/account/code/send-own',
    { purpose: 'delete' },
    freshIp(),
    bearer(owner.access),
  )
  assert.equal(own.statusCode, 200, own.body)
  assert.equal(sms.sent.length, before + 1)
})
