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

/** Confirm tickets the scanner got, per request and phone token (the app keeps them in memory). */
const tickets = new Map<string, string>()

async function scan(qr: Created, token?: string) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/main/account/qr/${qr.id}/scan`,
    payload: { source: 'scanner', content: `${QR_LOGIN_PREFIX}${qr.id}` },
    ...(token ? { headers: bearer(token) } : {}),
  })
  if (res.statusCode === 200 && token) tickets.set(`${qr.id}:${token}`, res.json().data.ticket)
  return res
}

function answer(qr: Created, token: string, approve: boolean) {
  return ctx.app.inject({
    method: 'POST',
    url: `/main/account/qr/${qr.id}/answer`,
    headers: bearer(token),
    payload: { approve, ticket: tickets.get(`${qr.id}:${token}`) ?? 'no-ticket' },
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
  const { ticket, ...requester } = scanned.json().data
  assert.match(ticket, /^[A-Za-z0-9_-]{43}$/)
  assert.deepEqual(requester, {
    id: qr.id,
    browser: 'Chrome 120 · Windows',
    ipMasked: '203.0.113.*',
    location: '未知位置',
    sameNetwork: false,
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

test('a link someone sent cannot confirm: the answer needs the ticket only the scan answered', async () => {
  const victim = await signUp(ctx.app.db, ctx.clock.now())
  const qr = await create()
  const answerWith = (payload: object) =>
    ctx.app.inject({
      method: 'POST',
      url: `/main/account/qr/${qr.id}/answer`,
      headers: bearer(victim.token),
      payload,
    })
  // A page opened from a link knows the id only: it can neither scan without the scanner's
  // declaration and payload, nor confirm without a ticket.
  const bareScan = await ctx.app.inject({
    method: 'POST',
    url: `/main/account/qr/${qr.id}/scan`,
    headers: bearer(victim.token),
    payload: {},
  })
  assert.equal(bareScan.statusCode, 400)
  const wrongPayload = await ctx.app.inject({
    method: 'POST',
    url: `/main/account/qr/${qr.id}/scan`,
    headers: bearer(victim.token),
    payload: { source: 'scanner', content: `${QR_LOGIN_PREFIX}someone-else` },
  })
  assert.equal(wrongPayload.statusCode, 400)
  assert.equal(wrongPayload.json().error, '请使用 App 内的扫一扫扫描电脑上的二维码')
  assert.deepEqual((await poll(qr)).json().data, { status: 'pending' }, 'nothing was registered')

  assert.equal((await answerWith({ approve: true })).statusCode, 400, 'no ticket: refused')
  await scan(qr, victim.token)
  const forged = await answerWith({ approve: true, ticket: 'guessed-ticket' })
  assert.equal(forged.statusCode, 403)
  assert.equal(forged.json().error, '请使用 App 内的扫一扫扫描电脑上的二维码')
  assert.deepEqual((await poll(qr)).json().data, { status: 'scanned' })

  // A second scan (the app reopened) issues a new ticket; the old one stops working.
  const oldTicket = tickets.get(`${qr.id}:${victim.token}`)!
  await scan(qr, victim.token)
  const stale = await answerWith({ approve: true, ticket: oldTicket })
  assert.equal(stale.statusCode, 403)
  assert.equal((await answer(qr, victim.token, true)).statusCode, 200)
})

test('the confirm page reads where and when the desktop asked, with the ticket only', async () => {
  const phone = await signUp(ctx.app.db, ctx.clock.now())
  const qr = await create('192.168.1.20')
  const scanned = await ctx.app.inject({
    method: 'POST',
    url: `/main/account/qr/${qr.id}/scan`,
    headers: bearer(phone.token),
    payload: { source: 'scanner', content: `${QR_LOGIN_PREFIX}${qr.id}` },
    remoteAddress: '192.168.1.33',
  })
  assert.equal(scanned.statusCode, 200, scanned.body)
  const { ticket } = scanned.json().data
  const read = (query: string) =>
    ctx.app.inject({
      url: `/main/account/qr/${qr.id}/request?${query}`,
      headers: bearer(phone.token),
      remoteAddress: '192.168.1.33',
    })
  const info = await read(`ticket=${ticket}`)
  assert.equal(info.statusCode, 200, info.body)
  assert.deepEqual(
    {
      location: info.json().data.location,
      ipMasked: info.json().data.ipMasked,
      browser: info.json().data.browser,
      sameNetwork: info.json().data.sameNetwork,
      status: info.json().data.status,
    },
    {
      location: '局域网',
      ipMasked: '192.168.1.*',
      browser: 'Chrome 120 · Windows',
      sameNetwork: true,
      status: 'scanned',
    },
  )
  assert.equal((await read('ticket=wrong')).statusCode, 403)
  assert.equal((await read('')).statusCode, 400)
})

test('confirming is audited for the phone; the desktop’s delivery is a login (扫码)', async () => {
  const phone = await signUp(ctx.app.db, ctx.clock.now())
  const qr = await create()
  await scan(qr, phone.token)
  await answer(qr, phone.token, true)
  await ctx.app.inject({
    url: `/main/account/qr/${qr.id}?pollSecret=${encodeURIComponent(qr.pollSecret)}`,
    headers: { 'user-agent': CHROME_WINDOWS },
    remoteAddress: '203.0.113.7',
  })
  const events = await ctx.app.db
    .selectFrom('audit_events')
    .selectAll()
    .where('user_id', '=', phone.user.id)
    .orderBy('created_at')
    .execute()
  assert.deepEqual(
    events.map((event) => [event.kind, event.detail, event.ip_masked, event.client]),
    [
      ['qr-confirm', null, '127.0.0.*', '未知浏览器'],
      ['login', '扫码', '203.0.113.*', 'Chrome 120 · Windows'],
    ],
  )
})

test('addresses are described honestly, never as a guessed city', async () => {
  const { describeLocation } = await import('../../../src/domain/client-info')
  assert.equal(describeLocation('127.0.0.1'), '本机')
  assert.equal(describeLocation('::1'), '本机')
  assert.equal(describeLocation('::ffff:10.1.2.3'), '局域网')
  assert.equal(describeLocation('172.16.0.9'), '局域网')
  assert.equal(describeLocation('172.32.0.9'), '未知位置')
  assert.equal(describeLocation('fd12:3456::1'), '局域网')
  assert.equal(describeLocation('100.64.1.1'), '运营商内网')
  assert.equal(describeLocation('203.0.113.7'), '未知位置')
  assert.equal(describeLocation('2001:db8::1'), '未知位置')
})
