import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import type { DB } from '../../../src/db'
import {
  ACCESS_TTL_MS,
  createSession,
  createUser,
  findSessionByAccessToken,
  hashSecret,
  REFRESH_TTL_MS,
  refreshSession,
  revokeSession,
  revokeUserSessions,
} from '../../../src/domain/identity'
import { freshMobile, migratedDb, TestClock } from './support'

let db: DB
before(async () => {
  db = await migratedDb()
})

test('a session holds opaque tokens, stored only as hashes, and the profile', async () => {
  const clock = new TestClock()
  const mobile = freshMobile()
  const user = await createUser(db, { mobile, now: clock.now() })
  const session = await createSession(db, user.id, clock.now())
  assert.equal(session.token_type, 'bearer')
  assert.equal(session.expires_in, 7200)
  assert.match(session.access_token, /^[A-Za-z0-9_-]{43}$/)
  assert.notEqual(session.access_token, session.refresh_token)
  assert.equal(session.user.id, user.id)
  assert.equal(session.user.mobileMasked, `${mobile.slice(0, 3)}****${mobile.slice(7)}`)
  assert.equal(session.user.hasPassword, false)
  assert.equal(session.user.realNameVerified, false)

  const rows = await db.selectFrom('sessions').selectAll().where('user_id', '=', user.id).execute()
  assert.equal(rows.length, 1)
  const stored = JSON.stringify(rows)
  assert.ok(!stored.includes(session.access_token) && !stored.includes(session.refresh_token))
  assert.equal(rows[0]!.access_hash, hashSecret(session.access_token))
})

test('the access token works for 2 hours', async () => {
  const clock = new TestClock()
  const user = await createUser(db, { mobile: freshMobile(), now: clock.now() })
  const session = await createSession(db, user.id, clock.now())
  clock.advance(ACCESS_TTL_MS - 1)
  assert.equal(
    (await findSessionByAccessToken(db, session.access_token, clock.now()))?.user.id,
    user.id,
  )
  clock.advance(1)
  assert.equal(await findSessionByAccessToken(db, session.access_token, clock.now()), undefined)
  assert.equal(await findSessionByAccessToken(db, 'not-a-token', clock.now()), undefined)
})

test('refresh rotates: new tokens, the old refresh and access tokens stop working', async () => {
  const clock = new TestClock()
  const user = await createUser(db, { mobile: freshMobile(), now: clock.now() })
  const first = await createSession(db, user.id, clock.now())
  clock.advance(ACCESS_TTL_MS + 1)
  const second = await refreshSession(db, first.refresh_token, clock.now())
  assert.notEqual(second.access_token, first.access_token)
  assert.notEqual(second.refresh_token, first.refresh_token)
  assert.ok(await findSessionByAccessToken(db, second.access_token, clock.now()))
  await assert.rejects(refreshSession(db, first.refresh_token, clock.now()), { statusCode: 401 })
})

test('an old access token dies with its refresh', async () => {
  const clock = new TestClock()
  const user = await createUser(db, { mobile: freshMobile(), now: clock.now() })
  const first = await createSession(db, user.id, clock.now())
  await refreshSession(db, first.refresh_token, clock.now())
  assert.equal(await findSessionByAccessToken(db, first.access_token, clock.now()), undefined)
})

test('the refresh token expires after 30 days', async () => {
  const clock = new TestClock()
  const user = await createUser(db, { mobile: freshMobile(), now: clock.now() })
  const session = await createSession(db, user.id, clock.now())
  clock.advance(REFRESH_TTL_MS)
  await assert.rejects(refreshSession(db, session.refresh_token, clock.now()), {
    statusCode: 401,
    userMessage: '登录已过期，请重新登录',
  })
})

test('revocation: one session, or all of a user but one', async () => {
  const clock = new TestClock()
  const user = await createUser(db, { mobile: freshMobile(), now: clock.now() })
  const a = await createSession(db, user.id, clock.now())
  const b = await createSession(db, user.id, clock.now())
  const c = await createSession(db, user.id, clock.now())
  const found = await findSessionByAccessToken(db, a.access_token, clock.now())
  await revokeSession(db, found!.sessionId, clock.now())
  assert.equal(await findSessionByAccessToken(db, a.access_token, clock.now()), undefined)
  await assert.rejects(refreshSession(db, a.refresh_token, clock.now()), { statusCode: 401 })

  const keep = (await findSessionByAccessToken(db, c.access_token, clock.now()))!.sessionId
  assert.equal(await revokeUserSessions(db, user.id, { except: keep, now: clock.now() }), 1)
  assert.equal(await findSessionByAccessToken(db, b.access_token, clock.now()), undefined)
  assert.ok(await findSessionByAccessToken(db, c.access_token, clock.now()))
})

test('a deleted account has no live sessions', async () => {
  const clock = new TestClock()
  const user = await createUser(db, { mobile: freshMobile(), now: clock.now() })
  const session = await createSession(db, user.id, clock.now())
  await db
    .updateTable('users')
    .set({ deleted_at: clock.now().toISOString(), mobile: null })
    .where('id', '=', user.id)
    .execute()
  assert.equal(await findSessionByAccessToken(db, session.access_token, clock.now()), undefined)
  await assert.rejects(refreshSession(db, session.refresh_token, clock.now()), { statusCode: 401 })
})
