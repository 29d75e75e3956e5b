import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { before, test } from 'node:test'
import pino from 'pino'
import type { DB } from '../../src/db'
import { createSession, createUser, issueSmsCode } from '../../src/domain/identity'
import { reserve } from '../../src/domain/limits'
import { purgeExpired, startPurgeSchedule } from '../../src/domain/retention'
import {
  freshIp,
  freshMobile,
  migratedDb,
  recordingSms,
  TestClock,
} from '../domain/identity/support'

let db: DB
before(async () => {
  db = await migratedDb()
})

const HOUR = 3_600_000
const DAY = 24 * HOUR

test('purgeExpired deletes expired codes, tickets, outbox, counters, events and sessions only', async () => {
  const clock = new TestClock()
  const sms = recordingSms()
  const mobile = freshMobile()
  const user = await createUser(db, { mobile, now: clock.now() })
  // Old things, made two days ago ...
  await issueSmsCode(db, sms, { mobile, purpose: 'login', ip: freshIp(), now: clock.now() })
  await reserve(db, { key: 'purge:old', limit: 1, windowMs: HOUR, now: clock.now() })
  await createSession(db, user.id, clock.now())
  await db
    .updateTable('sessions')
    .set({ refresh_expires_at: new Date(clock.now().getTime() + DAY).toISOString() })
    .where('user_id', '=', user.id)
    .execute()
  const insertAt = (at: Date, label: string) =>
    Promise.all([
      db
        .insertInto('code_tickets')
        .values({
          id: randomUUID(),
          ticket_hash: `${label}-${randomUUID()}`,
          mobile,
          purpose: 'login',
          expires_at: new Date(at.getTime() + 10 * 60_000).toISOString(),
          used_at: null,
          created_at: at.toISOString(),
        })
        .execute(),
      db
        .insertInto('sms_outbox')
        .values({
          id: randomUUID(),
          mobile,
          purpose: 'login',
          code: label,
          created_at: at.toISOString(),
        })
        .execute(),
      db
        .insertInto('rate_events')
        .values({ id: randomUUID(), bucket: `purge:${label}`, created_at: at.toISOString() })
        .execute(),
      db
        .insertInto('login_failures')
        .values({
          mobile: `${label}-${mobile}`,
          failures: 1,
          locked_until: null,
          updated_at: at.toISOString(),
        })
        .execute(),
    ])
  await insertAt(clock.now(), 'old')
  clock.advance(2 * DAY)
  // ... and fresh ones, made now.
  await issueSmsCode(db, sms, { mobile, purpose: 'login', ip: freshIp(), now: clock.now() })
  await reserve(db, { key: 'purge:new', limit: 1, windowMs: HOUR, now: clock.now() })
  await createSession(db, user.id, clock.now())
  await insertAt(clock.now(), 'new')

  const counts = await purgeExpired(db, clock.now())
  assert.equal(counts.smsCodes, 1)
  assert.equal(counts.codeTickets, 1)
  assert.equal(counts.smsOutbox, 1)
  assert.ok(counts.limitCounters! >= 1)
  assert.ok(counts.rateEvents! >= 1)
  assert.equal(counts.loginFailures, 1)
  assert.equal(counts.sessions, 1)

  const codes = await db.selectFrom('sms_codes').select('id').where('mobile', '=', mobile).execute()
  assert.equal(codes.length, 1, 'the fresh code stays')
  const keys = (await db.selectFrom('limit_counters').select('key').execute()).map((r) => r.key)
  assert.ok(keys.includes('purge:new') && !keys.includes('purge:old'))
  const sessions = await db
    .selectFrom('sessions')
    .select('refresh_expires_at')
    .where('user_id', '=', user.id)
    .execute()
  assert.equal(sessions.length, 1, 'only the live session stays')
  assert.ok(sessions[0]!.refresh_expires_at > clock.now().toISOString())
  const outbox = await db
    .selectFrom('sms_outbox')
    .select('code')
    .where('mobile', '=', mobile)
    .execute()
  assert.ok(outbox.every((row) => row.code !== 'old'))
  // A second run finds nothing more.
  const again = await purgeExpired(db, clock.now())
  assert.equal(
    Object.values(again).reduce((sum, n) => sum + n, 0),
    0,
  )
})

test('the schedule runs on an unref’d timer and stops on request', async () => {
  const clock = new TestClock()
  await reserve(db, { key: 'purge:scheduled', limit: 1, windowMs: 1000, now: clock.now() })
  clock.advance(2000)
  const stop = startPurgeSchedule(db, pino({ level: 'silent' }), clock.now, 20)
  await new Promise((resolve) => setTimeout(resolve, 100))
  await stop()
  const left = await db
    .selectFrom('limit_counters')
    .select('key')
    .where('key', '=', 'purge:scheduled')
    .execute()
  assert.deepEqual(left, [])
})
