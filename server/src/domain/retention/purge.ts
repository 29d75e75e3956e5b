import type { FastifyBaseLogger } from 'fastify'
import type { ObjectStore } from '../../storage/object-store'
import type { DB } from '../../db'
import { MINUTE } from '../identity'
import { type BatchLimits, DEFAULT_BATCHES } from './batches'
import { SCHEDULE } from './schedule'

/**
 * The retention purge: runs every rule of the schedule (schedule.ts, periods from
 * contract/main/retention.ts) that has an enforcement, in the schedule's order, and answers the rows
 * removed or anonymised per table.
 *
 * Safe to run from several processes at once: every statement picks its rows by time and re-checks
 * them as it deletes or updates, so two runs split the work or find nothing; none holds a lock for
 * more than one bounded batch (batches.ts). A failing rule does not stop the others: its error is
 * collected and thrown after all have run, so the next run tries it again.
 */
export async function purgeExpired(
  db: DB,
  now: Date,
  store?: ObjectStore,
  batches: BatchLimits = DEFAULT_BATCHES,
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {}
  const failures: unknown[] = []
  for (const { enforcement } of SCHEDULE) {
    if (!('enforce' in enforcement)) continue
    try {
      Object.assign(counts, await enforcement.enforce({ db, now, store, batches }))
    } catch (error) {
      failures.push(error)
    }
  }
  if (failures.length === 1) throw failures[0]
  if (failures.length > 1) throw new AggregateError(failures, 'several retention rules failed')
  return counts
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
