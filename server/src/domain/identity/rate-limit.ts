import { randomUUID } from 'node:crypto'
import type { DB } from '../../db'

export interface RateRule {
  /** What is counted, e.g. `sms-ip:<hash>`; never a raw phone number or address. */
  bucket: string
  limit: number
  windowMs: number
}

/**
 * A sliding-window limit kept in the database (rate_events), so every server process behind a load
 * balancer sees the same counts. Answers how long to wait, 0 when the next event is allowed.
 */
export async function rateLimitWait(db: DB, rule: RateRule, now: Date): Promise<number> {
  const since = new Date(now.getTime() - rule.windowMs).toISOString()
  const events = await db
    .selectFrom('rate_events')
    .select('created_at')
    .where('bucket', '=', rule.bucket)
    .where('created_at', '>', since)
    .orderBy('created_at', 'desc')
    .limit(rule.limit)
    .execute()
  if (events.length < rule.limit) return 0
  // The oldest of the last `limit` events must leave the window before another one fits.
  const oldest = Date.parse(events[events.length - 1]!.created_at)
  return Math.max(1, oldest + rule.windowMs - now.getTime())
}

/** Counts one event, and drops the bucket's events that no window looks at any more. */
export async function recordRateEvent(db: DB, rule: RateRule, now: Date): Promise<void> {
  await db
    .insertInto('rate_events')
    .values({ id: randomUUID(), bucket: rule.bucket, created_at: now.toISOString() })
    .execute()
  await db
    .deleteFrom('rate_events')
    .where('bucket', '=', rule.bucket)
    .where('created_at', '<=', new Date(now.getTime() - rule.windowMs).toISOString())
    .execute()
}
