import type { FastifyBaseLogger } from 'fastify'
import type { ObjectStore } from '../storage/object-store'
import type { DB } from '../db'
import { removeUnattachedFeedbackImages } from './feedback'
import { purgeDeletedApplicants } from './experts'
import { removeUnattachedOperatorFiles } from './operator'
import { DAY, MINUTE } from './identity'

/**
 * How long a security event (audit_events) is kept: 12 months. China's Cybersecurity Law (art. 21)
 * asks for network logs to be kept at least six months; a year lets a person look back over
 * 登录记录 for a full year, and also covers an account's deletion event, kept with the anonymised
 * account. After that the event is deleted: it names an account, a masked address and a device.
 */
export const AUDIT_RETENTION_MS = 365 * DAY

/**
 * Deletes what has expired and serves nothing any more: every row here is either personal data (a
 * phone's codes, the demo outbox) or a pseudonymous trace (hashed counters) that must not pile up.
 *
 * - SMS codes one day after they expired (until then "expired" is a clearer answer than "no code");
 * - code tickets once expired;
 * - the demo SMS outbox after a day;
 * - limit counters whose window has ended (a new reservation starts a fresh row anyway);
 * - rate events older than a day: nothing writes `rate_events` any more (every limit is in
 *   `limit_counters`), but the table stays until no older server process can still write it during a
 *   rolling update; this empties it meanwhile;
 * - the old login_failures records (0002) untouched for a day;
 * - sessions whose refresh token has expired (by `refresh_expires_at` only: such a session can
 *   neither be used nor refreshed, so nothing, reuse detection included, needs it);
 * - audit events older than AUDIT_RETENTION_MS, for live and deleted accounts alike;
 * - with the object store: unattached feedback and operator files, and the certificate photos and
 *   applications of deleted accounts.
 *
 * Safe to run from several processes at once (plain deletes by time).
 */
export async function purgeExpired(
  db: DB,
  now: Date,
  store?: ObjectStore,
): Promise<Record<string, number>> {
  const at = now.toISOString()
  const dayAgo = new Date(now.getTime() - DAY).toISOString()
  const deleted = (result: { numDeletedRows: bigint }[]) =>
    result.reduce((sum, row) => sum + Number(row.numDeletedRows), 0)
  return {
    smsCodes: deleted(await db.deleteFrom('sms_codes').where('expires_at', '<', dayAgo).execute()),
    codeTickets: deleted(
      await db.deleteFrom('code_tickets').where('expires_at', '<', at).execute(),
    ),
    smsOutbox: deleted(
      await db.deleteFrom('sms_outbox').where('created_at', '<', dayAgo).execute(),
    ),
    limitCounters: deleted(
      await db.deleteFrom('limit_counters').where('window_ends_at', '<=', at).execute(),
    ),
    rateEvents: deleted(
      await db.deleteFrom('rate_events').where('created_at', '<', dayAgo).execute(),
    ),
    loginFailures: deleted(
      await db.deleteFrom('login_failures').where('updated_at', '<', dayAgo).execute(),
    ),
    sessions: deleted(
      await db.deleteFrom('sessions').where('refresh_expires_at', '<', at).execute(),
    ),
    auditEvents: deleted(
      await db
        .deleteFrom('audit_events')
        .where('created_at', '<', new Date(now.getTime() - AUDIT_RETENTION_MS).toISOString())
        .execute(),
    ),
    // Feedback images nobody sent (issue 10): their bytes live in the object store.
    ...(store ? { feedbackImages: await removeUnattachedFeedbackImages(db, store, now) } : {}),
    // Operators' uploads no article or video named within a day.
    ...(store ? { operatorFiles: await removeUnattachedOperatorFiles(db, store, now) } : {}),
    // Certificate photos and applications of deleted accounts (experts/account-deletion.ts).
    ...(store ? { expertApplications: await purgeDeletedApplicants(db, store) } : {}),
  }
}

/** How often the server purges; the first run comes a minute after start. */
export const PURGE_INTERVAL_MS = 10 * MINUTE
const FIRST_PURGE_MS = MINUTE

/**
 * Runs purgeExpired on a timer that never keeps the process alive (unref). A failed run is logged
 * and the next one tries again. Answers a function that stops the timer and waits for a run under
 * way (called on close).
 */
export function startPurgeSchedule(
  db: DB,
  log: FastifyBaseLogger,
  now: () => Date,
  intervalMs = PURGE_INTERVAL_MS,
  store?: ObjectStore,
): () => Promise<void> {
  let current: Promise<void> | undefined
  const run = () => {
    current ??= purgeExpired(db, now(), store)
      .then((counts) => {
        const total = Object.values(counts).reduce((sum, n) => sum + n, 0)
        if (total > 0) log.info({ purged: counts }, 'expired records purged')
      })
      .catch((error: unknown) => log.error({ err: error }, 'purge of expired records failed'))
      .finally(() => {
        current = undefined
      })
    return current
  }
  let interval: NodeJS.Timeout | undefined
  const first = setTimeout(
    () => {
      void run()
      interval = setInterval(() => void run(), intervalMs)
      interval.unref()
    },
    Math.min(FIRST_PURGE_MS, intervalMs),
  )
  first.unref()
  return async () => {
    clearTimeout(first)
    if (interval) clearInterval(interval)
    // A run under way finishes before the database is closed.
    await current
  }
}
