import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { QR_LOGIN_PREFIX } from '@contract/main/qr-login'
import { SessionSchema } from '@contract/sso/auth'
import { describeBrowser, maskIp, QR_TTL_MS } from '../../../src/domain/qr-login'
import { bearer, buildProfileApp, type ProfileApp, signUp } from '../../domain/profile/support'

const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'

let ctx: ProfileApp
before(async () => {
  ctx = await buildProfileApp()
})

interface Created {
  id: string
  pollSecret: string
  content: string
  expiresAt: string
}

async function create(ip = '203.0.113.7'): Promise<Created> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/main/account/qr',
    headers: { 'user-agent': CHROME_WINDOWS },
    remoteAddress: ip,
  })
  assert.equal(res.statusCode, 200, res.body)
  return res.json().data
}

function poll(qr: Created, secret = qr.pollSecret) {
  return ctx.app.inject(`/main/account/qr/${qr.id}?pollSecret=${encodeURIComponent(secret)}`)
}

function scan(qr: Created, token?: string) {
  return ctx.app.inject({
    method: 'POST',
    url: `/main/account/qr/${qr.id}/scan`,
    ...(token ? { headers: bearer(token) } : {}),
  })
}

function answer(qr: Created, token: string, approve: boolean) {
  return ctx.app.inject({
    method: 'POST',
    url: `/main/account/qr/${qr.id}/answer`,
    headers: bearer(token),
    payload: { approve },
  })
}

test('the requester is summarised, not recorded whole', () => {
  assert.equal(describeBrowser(CHROME_WINDOWS), 'Chrome 120 · Windows')
  assert.equal(
    describeBrowser(
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15',
    ),
    'Safari 17 · macOS',
  )
  assert.equal(
    describeBrowser(
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.2210.91',
    ),
    'Edge 120 · Windows',
  )
  assert.equal(
    describeBrowser('Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0'),
    'Firefox 121 · Linux',
  )
  assert.equal(describeBrowser(undefined), '未知浏览器')
  assert.equal(maskIp('203.0.113.7'), '203.0.113.*')
  assert.equal(maskIp('::ffff:203.0.113.7'), '203.0.113.*')
  assert.equal(maskIp('2001:db8:85a3:8d3:1319:8a2e:370:7348'), '2001:db8:85a3:8d3:*')
})

test('end to end: create → pending → scan → scanned → approve → the session once → it works', async () => {
  const phone = await signUp(ctx.app.db, ctx.clock.now())
  const qr = await create()
  assert.equal(qr.content, `${QR_LOGIN_PREFIX}${qr.id}`)
  assert.equal(Date.parse(qr.expiresAt) - ctx.clock.now().getTime(), QR_TTL_MS)
  const stored = await ctx.app.db
    .selectFrom('qr_logins')
    .selectAll()
    .where('id', '=', qr.id)
    .executeTakeFirstOrThrow()
  assert.ok(!JSON.stringify(stored).includes(qr.pollSecret), 'the poll secret is stored hashed')

  assert.deepEqual((await poll(qr)).json().data, { status: 'pending' })

  const scanned = await scan(qr, phone.token)
  assert.equal(scanned.statusCode, 200, scanned.body)
  assert.deepEqual(scanned.json().data, {
    id: qr.id,
    browser: 'Chrome 120 · Windows',
    ipMasked: '203.0.113.*',
    createdAt: stored.created_at,
    expiresAt: qr.expiresAt,
  })
  assert.equal((await scan(qr, phone.token)).statusCode, 200, 'the same phone may scan again')
  assert.deepEqual((await poll(qr)).json().data, { status: 'scanned' })

  ctx.clock.advance(5_000)
  const approved = await answer(qr, phone.token, true)
  assert.equal(approved.statusCode, 200, approved.body)
  assert.deepEqual(approved.json().data, { ok: true })

  const first = (await poll(qr)).json().data
  assert.equal(first.status, 'confirmed')
  const session = SessionSchema.parse(first.session)
  assert.equal(session.user.id, phone.user.id)
  assert.notEqual(session.access_token, phone.token, 'the desktop gets a session of its own')
  assert.deepEqual((await poll(qr)).json().data, { status: 'confirmed' }, 'only once')

  const profile = await ctx.app.inject({
    url: '/main/account/profile',
    headers: bearer(session.access_token),
  })
  assert.equal(profile.statusCode, 200, profile.body)
  assert.equal(profile.json().data.id, phone.user.id)

  // Reuse: the code is spent for scanning and answering.
  const rescan = await scan(qr, phone.token)
  assert.equal(rescan.statusCode, 400)
  assert.equal(rescan.json().error, '二维码已失效，请在电脑上刷新')
  assert.equal((await answer(qr, phone.token, true)).statusCode, 400)
})

test('refusing: the desktop sees refused and never gets a session', async () => {
  const phone = await signUp(ctx.app.db, ctx.clock.now())
  const qr = await create()
  await scan(qr, phone.token)
  assert.equal((await answer(qr, phone.token, false)).statusCode, 200)
  assert.deepEqual((await poll(qr)).json().data, { status: 'refused' })
  assert.equal((await answer(qr, phone.token, true)).statusCode, 400, 'no change of mind')
})

test('expiry: an unscanned or unanswered code expires after 2 minutes', async () => {
  const phone = await signUp(ctx.app.db, ctx.clock.now())
  const unscanned = await create()
  const unanswered = await create()
  await scan(unanswered, phone.token)
  ctx.clock.advance(QR_TTL_MS)
  assert.deepEqual((await poll(unscanned)).json().data, { status: 'expired' })
  assert.deepEqual((await poll(unanswered)).json().data, { status: 'expired' })
  const late = await scan(unscanned, phone.token)
  assert.equal(late.statusCode, 400)
  assert.equal(late.json().error, '二维码已失效，请在电脑上刷新')
  const lateAnswer = await answer(unanswered, phone.token, true)
  assert.equal(lateAnswer.statusCode, 400)
  assert.equal(lateAnswer.json().error, '二维码已失效，请在电脑上刷新')
})

test('a confirmed session not collected within a minute is not handed out later', async () => {
  const phone = await signUp(ctx.app.db, ctx.clock.now())
  const qr = await create()
  await scan(qr, phone.token)
  await answer(qr, phone.token, true)
  ctx.clock.advance(61_000)
  assert.deepEqual((await poll(qr)).json().data, { status: 'expired' })
})

test('foreign requests fail clearly', async () => {
  const phone = await signUp(ctx.app.db, ctx.clock.now())
  const stranger = await signUp(ctx.app.db, ctx.clock.now())
  const qr = await create()

  const unknown = await ctx.app.inject(
    `/main/account/qr/00000000-0000-0000-0000-000000000000?pollSecret=x`,
  )
  assert.equal(unknown.statusCode, 404)
  assert.equal(unknown.json().error, '二维码不存在，请在电脑上刷新')
  const wrongSecret = await poll(qr, 'guess')
  assert.equal(wrongSecret.statusCode, 403)
  const noSecret = await ctx.app.inject(`/main/account/qr/${qr.id}`)
  assert.equal(noSecret.statusCode, 400)

  assert.equal((await scan(qr)).statusCode, 401, 'scanning needs a signed-in phone')
  const badToken = await scan(qr, 'not-a-token')
  assert.equal(badToken.statusCode, 401)

  await scan(qr, phone.token)
  const otherScan = await scan(qr, stranger.token)
  assert.equal(otherScan.statusCode, 400, 'a second phone cannot take over the request')
  const otherAnswer = await answer(qr, stranger.token, true)
  assert.equal(otherAnswer.statusCode, 403)
  assert.equal(otherAnswer.json().error, '请使用扫码的账号确认登录')
  assert.deepEqual((await poll(qr)).json().data, { status: 'scanned' })

  const unknownScan = await scan({ ...qr, id: 'nope' }, phone.token)
  assert.equal(unknownScan.statusCode, 404)
  const badAnswer = await ctx.app.inject({
    method: 'POST',
    url: `/main/account/qr/${qr.id}/answer`,
    headers: bearer(phone.token),
    payload: { approve: 'yes' },
  })
  assert.equal(badAnswer.statusCode, 400)
})

test('creating requests is rate-limited per client address', async () => {
  const ip = '198.51.100.23'
  for (let i = 0; i < 60; i += 1) await create(ip)
  const res = await ctx.app.inject({ method: 'POST', url: '/main/account/qr', remoteAddress: ip })
  assert.equal(res.statusCode, 429)
  assert.match(res.json().error, /^操作过于频繁，请 .+后再刷新二维码$/)
  assert.equal(
    (
      await ctx.app.inject({
        method: 'POST',
        url: '/main/account/qr',
        remoteAddress: '198.51.100.24',
      })
    ).statusCode,
    200,
  )
})
