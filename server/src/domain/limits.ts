import { sql } from 'kysely'
import type { DB } from '../db'
import { clientNetwork } from '../http/client-address'
import { keyedHash } from './identity'

/**
 * Limits and quotas that hold under concurrency, across every server process sharing the database.
 *
 * The rule is RESERVE FIRST, THEN ACT: a caller takes a slot with one atomic statement before it does
 * the slow or costly work (an argon2 check, an SMS, a file write), and gives the slot back with
 * `release` when the work turned out not to count (a right password, a gateway that failed). "Read the
 * count, work, then write" lets a burst of parallel requests all read the same old count; a single
 * `INSERT … ON CONFLICT DO UPDATE … WHERE count < limit RETURNING` cannot be overtaken, on SQLite (one
 * writer at a time) as on PostgreSQL (the conflicting row is locked and the WHERE re-checked on its
 * newest version).
 *
 * Windows are FIXED and start at the first reservation: a key counts up to `limit` until
 * `window_ends_at`, and the first reservation after that starts a new window. So a window never lines
 * up with midnight or the hour (no burst at a boundary for everyone at once), and the worst case over
 * any sliding interval of one window's length is 2 × limit (the end of one window plus the start of the
 * next). Every limit here is set with that in mind. One row per key (`limit_counters`), whatever the
 * traffic; rows whose window has ended are purged on a schedule (`purgeExpired`, domain/retention).
 *
 * Keys name what is counted, e.g. `login:<phone hmac>:<client hmac>`; they never contain a raw phone
 * number or address (use `keyedHash`).
 */

export interface LimitRule {
  /** What is counted; never a raw phone number or address. */
  key: string
  /** Reservations allowed per window. */
  limit: number
  windowMs: number
}

/** A slot that was taken; `release` gives it back (only within the same window). */
export interface Slot {
  ok: true
  key: string
  /** The count including this reservation (1 … limit). */
  count: number
  /** Reservations still free in this window after this one. */
  remaining: number
  windowEndsAt: string
}

export interface Refused {
  ok: false
  key: string
  /** How long until the window ends and a slot is free again (at least 1 ms). */
  retryAfterMs: number
}

export type Reservation = Slot | Refused

/**
 * Takes one slot of `rule` atomically, or answers how long to wait. Never over-admits, whatever the
 * number of concurrent callers and processes.
 */
export async function reserve(db: DB, rule: LimitRule & { now: Date }): Promise<Reservation> {
  const at = rule.now.toISOString()
  const newEnd = new Date(rule.now.getTime() + rule.windowMs).toISOString()
  const row = await db
    .insertInto('limit_counters')
    .values({ key: rule.key, count: 1, window_ends_at: newEnd })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet({
          // An ended window starts afresh at this reservation; otherwise the count goes up by one.
          count: sql<number>`case when limit_counters.window_ends_at <= ${at} then 1 else limit_counters.count + 1 end`,
          window_ends_at: sql<string>`case when limit_counters.window_ends_at <= ${at} then excluded.window_ends_at else limit_counters.window_ends_at end`,
        })
        .where((eb) =>
          eb.or([
            eb('limit_counters.window_ends_at', '<=', at),
            eb('limit_counters.count', '<', rule.limit),
          ]),
        ),
    )
    .returning(['count', 'window_ends_at'])
    .executeTakeFirst()
  if (row) {
    const count = Number(row.count)
    return {
      ok: true,
      key: rule.key,
      count,
      remaining: Math.max(0, rule.limit - count),
      windowEndsAt: row.window_ends_at,
    }
  }
  const current = await db
    .selectFrom('limit_counters')
    .select('window_ends_at')
    .where('key', '=', rule.key)
    .executeTakeFirst()
  const ends = current ? Date.parse(current.window_ends_at) : rule.now.getTime()
  return { ok: false, key: rule.key, retryAfterMs: Math.max(1, ends - rule.now.getTime()) }
}

/**
 * Gives a slot back (the work it was taken for did not count). A no-op once the window has ended or
 * been changed by `holdUntil`, so a late release never frees a slot of a later window or a lock.
 */
export async function release(db: DB, slot: Slot): Promise<void> {
  await db
    .updateTable('limit_counters')
    .set((eb) => ({ count: eb('count', '-', 1) }))
    .where('key', '=', slot.key)
    .where('window_ends_at', '=', slot.windowEndsAt)
    .where('count', '>', 0)
    .execute()
}

/**
 * Takes a slot of every rule, in order, or none: on the first refusal the slots already taken are
 * released. Answers the slots, or the refusal and the rule it came from.
 */
export async function reserveAll(
  db: DB,
  rules: LimitRule[],
  now: Date,
): Promise<{ ok: true; slots: Slot[] } | (Refused & { rule: LimitRule })> {
  const slots: Slot[] = []
  for (const rule of rules) {
    const taken = await reserve(db, { ...rule, now })
    if (!taken.ok) {
      await releaseAll(db, slots)
      return { ...taken, rule }
    }
    slots.push(taken)
  }
  return { ok: true, slots }
}

export async function releaseAll(db: DB, slots: Slot[]): Promise<void> {
  for (const slot of slots) await release(db, slot)
}

/**
 * Closes a key until `until` (a lock): every slot counts as taken and the window ends then. Used when
 * the last slot was spent on a failure (the fifth wrong password).
 */
export async function holdUntil(
  db: DB,
  input: { key: string; limit: number; until: Date },
): Promise<void> {
  const values = { count: input.limit, window_ends_at: input.until.toISOString() }
  await db
    .insertInto('limit_counters')
    .values({ key: input.key, ...values })
    .onConflict((oc) => oc.column('key').doUpdateSet(values))
    .execute()
}

/** Forgets a key (a right password clears its failures; a reset clears the phone's ceiling). */
export async function clearLimit(db: DB, key: string): Promise<void> {
  await db.deleteFrom('limit_counters').where('key', '=', key).execute()
}

/** Forgets every key that starts with `prefix` (all clients' counts of one phone). */
export async function clearLimitsWithPrefix(db: DB, prefix: string): Promise<void> {
  // Keys are built from hex HMACs and fixed names, so they hold no LIKE wildcards.
  await db.deleteFrom('limit_counters').where('key', 'like', `${prefix}%`).execute()
}

/**
 * How long until a slot of `rule` is free, without taking one (0: free now). Only for an early, cheap
 * refusal (before reading an upload); the decision itself is always `reserve`.
 */
export async function peek(db: DB, rule: LimitRule & { now: Date }): Promise<number> {
  const row = await db
    .selectFrom('limit_counters')
    .select(['count', 'window_ends_at'])
    .where('key', '=', rule.key)
    .executeTakeFirst()
  if (!row || row.window_ends_at <= rule.now.toISOString() || Number(row.count) < rule.limit) {
    return 0
  }
  return Math.max(1, Date.parse(row.window_ends_at) - rule.now.getTime())
}

/**
 * Forgets every counter that names a phone (login failures and locks from every client, SMS quotas):
 * deleting an account removes every trace of its number, pseudonymous ones included.
 */
export async function forgetPhoneLimits(db: DB, mobile: string): Promise<void> {
  await db
    .deleteFrom('limit_counters')
    .where('key', 'like', `%${phoneTag(mobile)}%`)
    .execute()
}

/** A phone number as limit keys name it: a keyed HMAC, never the number. */
export function phoneTag(mobile: string): string {
  return keyedHash('phone', mobile).slice(0, 32)
}

/**
 * A client as limit keys name it: the keyed HMAC of its network (IPv4 address, IPv6 /64). Without an
 * address (a call from inside the server) every such call shares the `unknown` client.
 */
export function clientTag(ip: string | undefined): string {
  return keyedHash('client', clientNetwork(ip)).slice(0, 32)
}
