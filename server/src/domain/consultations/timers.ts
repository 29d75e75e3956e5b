import type { DB } from '../../db'
import { JOB_STATUS } from '../../jobs/runner'
import { scheduleTimer } from './model'

/** Why a timer row ended without running (the row's message, for whoever reads ingest_jobs). */
export const TIMER_SUPERSEDED = '咨询状态已变化，此计时已取消'

/**
 * Sets a consultation's timer, in the caller's transaction: afterwards its queued 'consult-timer'
 * rows are exactly one at `at` (none when `at` is null). Rows for an older deadline are cancelled
 * (status cancelled, final: the runner takes only queued rows), so a state change and its timers
 * commit together and a superseded deadline never runs. A row already running is left alone: it
 * re-reads the state under the row lock and finds nothing to do (runTimer), which is also what
 * keeps a timer that fires late or twice harmless.
 */
export async function setTimer(
  trx: DB,
  consultationId: string,
  at: string | null,
  now: Date,
): Promise<void> {
  const queued = await trx
    .selectFrom('ingest_jobs')
    .select(['id', 'run_after'])
    .where('kind', '=', 'consult-timer')
    .where('subject_id', '=', consultationId)
    .where('status', '=', JOB_STATUS.queued)
    .execute()
  const when = at === null ? null : new Date(at).toISOString()
  const keep = when === null ? undefined : queued.find((row) => row.run_after === when)
  const stale = queued.filter((row) => row !== keep).map((row) => row.id)
  if (stale.length > 0) {
    const finished = now.toISOString()
    await trx
      .updateTable('ingest_jobs')
      .set({
        status: JOB_STATUS.cancelled,
        message: TIMER_SUPERSEDED,
        finished_at: finished,
        updated_at: finished,
      })
      .where('id', 'in', stale)
      .where('status', '=', JOB_STATUS.queued)
      .execute()
  }
  if (when !== null && !keep) await scheduleTimer(trx, consultationId, when)
}
