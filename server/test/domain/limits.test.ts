import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import type { DB } from '../../src/db'
import {
  clearLimit,
  holdUntil,
  peek,
  release,
  reserve,
  reserveAll,
  type Slot,
} from '../../src/domain/limits'
import { migratedDb } from './identity/support'

/** The limits module on this run's database (SQLite, or PostgreSQL with --pg). */

let db: DB
before(async () => {
  db = await migratedDb()
})

let keyCounter = 0
const freshKey = () => `test:${process.pid}:${(keyCounter += 1)}`
const T0 = Date.parse('2030-01-01T08:00:00.000Z')
const at = (ms: number) => new Date(T0 + ms)

test('reserve counts up to the limit, then answers how long to wait', async () => {
  const key = freshKey()
  const rule = { key, limit: 3, windowMs: 60_000 }
  for (let i = 1; i <= 3; i += 1) {
    const slot = await reserve(db, { ...rule, now: at(i * 1000) })
    assert.equal(slot.ok, true)
    assert.equal((slot as Slot).count, i)
    assert.equal((slot as Slot).remaining, 3 - i)
  }
  // The window started at the first reservation (t = 1 s) and ends 60 s later.
  assert.deepEqual(await reserve(db, { ...rule, now: at(20_000) }), {
    ok: false,
    key,
    retryAfterMs: 41_000,
  })
  assert.equal(await peek(db, { ...rule, now: at(20_000) }), 41_000)
  // A new window starts with the first reservation after the old one ended.
  const next = await reserve(db, { ...rule, now: at(61_000) })
  assert.equal(next.ok && next.count, 1)
  assert.equal(await peek(db, { ...rule, now: at(61_000) }), 0)
})

test('40 reservations at once: exactly the limit get a slot', async () => {
  const rule = { key: freshKey(), limit: 5, windowMs: 60_000, now: at(0) }
  const answers = await Promise.all(Array.from({ length: 40 }, () => reserve(db, rule)))
  assert.equal(answers.filter((answer) => answer.ok).length, 5)
  const counts = answers.flatMap((answer) => (answer.ok ? [answer.count] : [])).sort()
  assert.deepEqual(counts, [1, 2, 3, 4, 5])
})

test('release gives a slot back within its window only', async () => {
  const rule = { key: freshKey(), limit: 1, windowMs: 60_000 }
  const first = (await reserve(db, { ...rule, now: at(0) })) as Slot
  assert.equal((await reserve(db, { ...rule, now: at(1) })).ok, false)
  await release(db, first)
  const second = (await reserve(db, { ...rule, now: at(2) })) as Slot
  assert.equal(second.ok, true)
  // A slot of an ended window released late frees nothing in the new window.
  const third = (await reserve(db, { ...rule, now: at(60_000) })) as Slot
  assert.equal(third.ok, true)
  await release(db, second)
  assert.equal((await reserve(db, { ...rule, now: at(60_001) })).ok, false)
})

test('reserveAll takes every slot or none', async () => {
  const a = { key: freshKey(), limit: 2, windowMs: 60_000 }
  const b = { key: freshKey(), limit: 1, windowMs: 60_000 }
  assert.equal((await reserveAll(db, [a, b], at(0))).ok, true)
  const refused = await reserveAll(db, [a, b], at(1))
  assert.equal(refused.ok, false)
  assert.equal(!refused.ok && refused.rule, b)
  // a's slot was given back: one more fits in a alone, then it is full.
  assert.equal((await reserve(db, { ...a, now: at(2) })).ok, true)
  assert.equal((await reserve(db, { ...a, now: at(3) })).ok, false)
})

test('holdUntil locks a key until then; clearLimit forgets it', async () => {
  const rule = { key: freshKey(), limit: 5, windowMs: 60_000 }
  await reserve(db, { ...rule, now: at(0) })
  await holdUntil(db, { key: rule.key, limit: 5, until: at(30 * 60_000) })
  const locked = await reserve(db, { ...rule, now: at(10 * 60_000) })
  assert.deepEqual(locked, { ok: false, key: rule.key, retryAfterMs: 20 * 60_000 })
  await clearLimit(db, rule.key)
  assert.equal((await reserve(db, { ...rule, now: at(10 * 60_000) })).ok, true)
})
