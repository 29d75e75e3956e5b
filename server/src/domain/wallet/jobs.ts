import type { JobKind } from '../../jobs/runner'
import type { WalletContext } from './context'
import { isFinal, queueTransferJob, WALLET_JOB_KIND } from './model'
import { syncWithProvider } from './settle'

/*
 * The job that drives a withdrawal to a final state (a kind of the existing runner: rows in
 * ingest_jobs, so it survives a restart and one process takes each). Each run asks the provider
 * where the bill is (or creates it with the same bill number when the provider never got it),
 * applies the answer, and, while the withdrawal is still in flight, queues its successor with a
 * growing delay (15 s, 30 s, ... at most 10 minutes: an unconfirmed 商家转账 closes after 24 h).
 * Safe to run twice or beside a notification: applying an answer is idempotent.
 */

/** How the job reaches the app's providers: set once by the app, read per job. */
export type WalletContextForJobs = (log: Parameters<JobKind['process']>[1]['log']) => WalletContext

const FIRST_DELAY_MS = 15_000
const MAX_DELAY_MS = 10 * 60_000

export const nextDelayMs = (polls: number) =>
  Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.min(polls, 10))

export function walletTransferJob(context: WalletContextForJobs): JobKind {
  return {
    kind: WALLET_JOB_KIND,
    async process(job, jobCtx) {
      if (!job.subject_id) return { status: 'failed', message: '缺少提现编号' }
      const ctx: WalletContext = { ...context(jobCtx.log), db: jobCtx.db, now: jobCtx.now }
      const before = await ctx.db
        .selectFrom('withdrawals')
        .select(['state'])
        .where('id', '=', job.subject_id)
        .executeTakeFirst()
      if (!before || isFinal(before.state) || before.state === 'reviewing')
        return { message: 'nothing to do' }
      const outcome = await syncWithProvider(ctx, job.subject_id)
      const row = await ctx.db
        .updateTable('withdrawals')
        .set((eb) => ({ polls: eb('polls', '+', 1) }))
        .where('id', '=', job.subject_id)
        .returning(['state', 'polls'])
        .executeTakeFirstOrThrow()
      if (isFinal(row.state)) return { message: outcome }
      // One successor at a time: a chain already queued (a duplicate run) is left to itself.
      const queued = await ctx.db
        .selectFrom('ingest_jobs')
        .select('id')
        .where('kind', '=', WALLET_JOB_KIND)
        .where('subject_id', '=', job.subject_id)
        .where('status', '=', 'queued')
        .where('id', '<>', job.id)
        .executeTakeFirst()
      if (!queued) {
        await queueTransferJob(
          ctx.db,
          job.subject_id,
          new Date(ctx.now().getTime() + nextDelayMs(Number(row.polls) - 1)),
        )
      }
      return { message: `${outcome}; asking again later` }
    },
  }
}
