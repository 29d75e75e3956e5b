import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { REASONS } from '@contract/reasons'
import type { DB } from '../../../src/db'
import { listAuditEvents } from '../../../src/domain/audit'
import {
  ACCESS_TTL_MS,
  createSession,
  createUser,
  DAY,
  findSessionByAccessToken,
  REFRESH_GRACE_MS,
  REFRESH_RACED,
  REFRESH_REUSED,
  refreshSession,
  revokeSession,
  SESSION_EXPIRED,
  SESSION_MAX_LIFETIME_MS,
} from '../../../src/domain/identity'
import {
  bearer,
  buildIdentityApp,
  freshMobile,
  migratedDb,
  registerUser,
  TestClock,
} from './support'

let db: DB
before(async () => {
  db = await migratedDb()
})

const client = { ip: '203.0.113.7', userAgent: 'Mozilla/5.0 (Windows NT 10.0) Chrome/120.0' }

async function newUserSession(clock: TestClock) {
  const user = await createUser(db, { mobile: freshMobile(), now: clock.now() })
  return { user, session: await createSession(db, user.id, clock.now()) }
}

test('each login starts a family; refreshes stay in it', async () => {
  const clock = new TestClock()
  const { user, session } = await newUserSession(clock)
  const other = await createSession(db, user.id, clock.now())
  const second = await refreshSession(db, session.refresh_token, clock.now(), client)
  const rows = await db
    .selectFrom('sessions')
    .select(['id', 'family_id', 'family_started_at', 'rotated_at'])
    .where('user_id', '=', user.id)
    .orderBy('created_at')
    .execute()
  assert.equal(rows.length, 3)
  const families = new Set(rows.map((row) => row.family_id))
  assert.equal(families.size, 2, 'two logins, two families; the refresh joined its own')
  assert.ok(await findSessionByAccessToken(db, second.access_token, clock.now()))
  assert.ok(await findSessionByAccessToken(db, other.access_token, clock.now()))
})

test('reusing a rotated refresh token revokes the whole family and is audited', async () => {
  const clock = new TestClock()
  const { user, session: stolen } = await newUserSession(clock)
  const unrelated = await createSession(db, user.id, clock.now())
  // The thief refreshes first; later the owner presents the same (now rotated) token.
  const thief = await refreshSession(db, stolen.refresh_token, clock.now(), client)
  clock.advance(REFRESH_GRACE_MS)
  await assert.rejects(refreshSession(db, stolen.refresh_token, clock.now(), client), {
    statusCode: 401,
    userMessage: REFRESH_REUSED,
  })
  assert.equal(await findSessionByAccessToken(db, thief.access_token, clock.now()), undefined)
  await assert.rejects(refreshSession(db, thief.refresh_token, clock.now(), client), {
    statusCode: 401,
  })
  // Another login of the same person (another device) is a different family and keeps working.
  assert.ok(await findSessionByAccessToken(db, unrelated.access_token, clock.now()))

  const events = await listAuditEvents(db, user.id, {})
  assert.equal(events.total, 1)
  assert.equal(events.items[0]!.kind, 'refresh-reuse')
  assert.equal(events.items[0]!.ipMasked, '203.0.113.*')
  assert.equal(events.items[0]!.client, 'Chrome 120 · Windows')
})

test('a refresh token retired by logout is only expired, not theft', async () => {
  const clock = new TestClock()
  const { user, session } = await newUserSession(clock)
  const found = await findSessionByAccessToken(db, session.access_token, clock.now())
  await revokeSession(db, found!.sessionId, clock.now())
  await assert.rejects(refreshSession(db, session.refresh_token, clock.now(), client), {
    statusCode: 401,
    userMessage: SESSION_EXPIRED,
  })
  assert.equal((await listAuditEvents(db, user.id, {})).total, 0)
})

test('a family ends 90 days after its login however often it was refreshed', async () => {
  const clock = new TestClock()
  const { session } = await newUserSession(clock)
  let current = session
  // Refresh every 20 days: each refresh token alone would live 30 days.
  for (let day = 20; day < 90; day += 20) {
    clock.advance(20 * DAY)
    current = await refreshSession(db, current.refresh_token, clock.now(), client)
  }
  // Day 80: the new refresh token must not outlive day 90, nor the access token.
  clock.advance(10 * DAY - ACCESS_TTL_MS / 2)
  const late = await refreshSession(db, current.refresh_token, clock.now(), client)
  assert.equal(late.expires_in, ACCESS_TTL_MS / 2 / 1000)
  clock.advance(ACCESS_TTL_MS / 2)
  assert.equal(await findSessionByAccessToken(db, late.access_token, clock.now()), undefined)
  await assert.rejects(refreshSession(db, late.refresh_token, clock.now(), client), {
    statusCode: 401,
    userMessage: SESSION_EXPIRED,
  })
  assert.equal(SESSION_MAX_LIFETIME_MS, 90 * DAY)
})

test('HTTP: the token endpoint revokes the family on reuse; thief and owner sign in again', async () => {
  const identity = await buildIdentityApp()
  const { app } = identity
  const owner = await registerUser(identity)
  const refresh = (token: string) =>
    app.inject({
      method: 'POST',
      url: '/sso/oauth2/token',
      payload: { grant_type: 'refresh_token', refresh_token: token },
      remoteAddress: '198.51.100.20',
    })
  const thief = await refresh(owner.refresh)
  assert.equal(thief.statusCode, 200)
  identity.clock.advance(REFRESH_GRACE_MS)
  const reused = await refresh(owner.refresh)
  assert.equal(reused.statusCode, 401)
  assert.equal(reused.json().error, REFRESH_REUSED)
  const thiefAccess = (thief.json().data as { access_token: string }).access_token
  const profile = await app.inject({ url: '/main/account/profile', headers: bearer(thiefAccess) })
  assert.equal(profile.statusCode, 401)
})

test('the owner refreshing twice at once is told to retry; nothing is revoked (issue 6 retest)', async () => {
  const clock = new TestClock()
  const { user, session } = await newUserSession(clock)
  // Two tabs: both requests start before either has rotated the row, or one reads it after.
  const results = await Promise.allSettled([
    refreshSession(db, session.refresh_token, clock.now(), client),
    refreshSession(db, session.refresh_token, clock.now(), client),
  ])
  const won = results.filter((result) => result.status === 'fulfilled')
  const lost = results.filter((result) => result.status === 'rejected')
  assert.equal(won.length, 1)
  assert.equal(lost.length, 1)
  assert.deepEqual(
    {
      statusCode: lost[0]!.reason.statusCode,
      userMessage: lost[0]!.reason.userMessage,
      reason: lost[0]!.reason.reason,
    },
    { statusCode: 401, userMessage: REFRESH_RACED, reason: REASONS.refreshRaced },
  )
  const winner = won[0]!.value
  assert.ok(await findSessionByAccessToken(db, winner.access_token, clock.now()))
  // A retry a few seconds later with the old token (a lost response): still no revocation.
  clock.advance(REFRESH_GRACE_MS - 1000)
  await assert.rejects(refreshSession(db, session.refresh_token, clock.now(), client), {
    statusCode: 401,
    userMessage: REFRESH_RACED,
    reason: REASONS.refreshRaced,
  })
  assert.ok(await findSessionByAccessToken(db, winner.access_token, clock.now()))
  assert.ok(await refreshSession(db, winner.refresh_token, clock.now(), client))
  assert.equal((await listAuditEvents(db, user.id, {})).total, 0)
})

test('HTTP: two parallel refreshes with one token give one 200 whose session keeps working', async () => {
  const identity = await buildIdentityApp()
  const { app } = identity
  const owner = await registerUser(identity)
  const refresh = () =>
    app.inject({
      method: 'POST',
      url: '/sso/oauth2/token',
      payload: { grant_type: 'refresh_token', refresh_token: owner.refresh },
    })
  const answers = await Promise.all([refresh(), refresh()])
  assert.deepEqual(answers.map((answer) => answer.statusCode).sort(), [200, 401])
  const winner = answers.find((answer) => answer.statusCode === 200)!
  const loser = answers.find((answer) => answer.statusCode === 401)!
  assert.equal(loser.json().error, REFRESH_RACED)
  assert.equal(loser.json().reason, REASONS.refreshRaced)
  const access = (winner.json().data as { access_token: string }).access_token
  const profile = await app.inject({ url: '/main/account/profile', headers: bearer(access) })
  assert.equal(profile.statusCode, 200, 'the new session from the 200 is not revoked')
})
