import { randomUUID } from 'node:crypto'
import type { JobKind } from '../../jobs/runner'
import { PaymentProviderUnavailable } from '../../providers/payments/types'
import { insertQueuedJob } from '../../jobs/runner'
import type { ConsultContext } from './context'
import { runTimer } from './lifecycle'
import { finishRefund } from './money'

/*
 * The consultation's background work, as job kinds of the existing runner (rows in ingest_jobs):
 * they survive a restart, and one process takes each (the row's lease), so a timer fires once
 * however many servers run. Both are safe to run twice: the timer re-reads the state, the refund
 * sends the same refund number. A state change cancels the timer row it supersedes in its own
 * transaction (setTimer, timers.ts), so only a row already running can meet a state it was not
 * set for, and it finds nothing due.
 */

/** How the jobs reach the app's providers: set once by the app (startup), read per job. */
export type ContextForJobs = (log: Parameters<JobKind['process']>[1]['log']) => ConsultContext

export function consultTimerJob(context: ContextForJobs): JobKind {
  return {
    kind: 'consult-timer',
    async process(job, ctx) {
      if (!job.subject_id) return { status: 'failed', message: '缺少咨询编号' }
      const outcome = await runTimer(
        { ...context(ctx.log), db: ctx.db, now: ctx.now },
        job.subject_id,
      )
      return { message: outcome }
    },
  }
}

const REFUND_RETRY_MS = 60_000

export function consultRefundJob(context: ContextForJobs): JobKind {
  return {
    kind: 'consult-refund',
    async process(job, ctx) {
      const consult = { ...context(ctx.log), db: ctx.db, now: ctx.now }
      const refund = await ctx.db
        .selectFrom('consultation_refunds')
        .selectAll()
        .where('refund_no', '=', job.subject_id ?? '')
        .executeTakeFirst()
      if (!refund || refund.state !== 'processing') return { message: 'nothing to do' }
      const row = await ctx.db
        .selectFrom('consultations')
        .selectAll()
        .where('id', '=', refund.consultation_id)
        .executeTakeFirstOrThrow()
      const again = async (why: string) => {
        const id = randomUUID()
        await insertQueuedJob(ctx.db, {
          id,
          kind: 'consult-refund',
          stagingPrefix: `jobs-without-files/${id}/`,
          subjectId: refund.refund_no,
          runAfter: new Date(ctx.now().getTime() + REFUND_RETRY_MS),
        })
        return { message: why }
      }
      if (consult.payments.name !== row.provider) {
        ctx.log.error(
          { refundNo: refund.refund_no, provider: row.provider },
          'the refund needs the provider the order was paid with; it is not configured',
        )
        return again('provider differs; retry later')
      }
      let result
      try {
        result = await consult.payments.refund({
          outTradeNo: row.order_no,
          outRefundNo: refund.refund_no,
          refundFen: Number(refund.amount_fen),
          totalFen: Number(row.price_fen),
          reason: refund.reason.slice(0, 80),
          notifyUrl: consult.notifyUrls?.refund ?? null,
        })
      } catch (error) {
        if (error instanceof PaymentProviderUnavailable)
          return again('provider unavailable; retry later')
        throw error
      }
      if (result.state === 'SUCCESS') {
        const now = ctx.now()
        await ctx.db
          .transaction()
          .execute((trx) =>
            finishRefund(
              trx,
              refund,
              row.provider,
              result.refundId,
              result.succeededAt ?? now.toISOString(),
              now,
            ),
          )
        consult.publish([row.patient_user_id], {
          kind: 'consultation.changed',
          consultationId: row.id,
        })
        return { message: 'refunded' }
      }
      if (result.state === 'PROCESSING') return again('processing')
      // CLOSED or ABNORMAL: the money stays in the refund account; operators see 退款异常.
      await ctx.db
        .updateTable('consultation_refunds')
        .set({ state: 'failed', provider_refund_id: result.refundId })
        .where('refund_no', '=', refund.refund_no)
        .where('state', '=', 'processing')
        .execute()
      ctx.log.error(
        { refundNo: refund.refund_no, state: result.state },
        'refund failed at the provider; an operator must act',
      )
      return { message: `refund ${result.state}` }
    },
  }
}
