import type { FastifyBaseLogger } from 'fastify'
import type { FieldCipher } from '../../crypto/field-cipher'
import type { DB } from '../../db'
import type { JobRunner } from '../../jobs/runner'
import type { PaymentProvider } from '../../providers/payments/types'
import type { SubscribeMessageProvider, SubscribeNotice } from '../../providers/subscribe-message'
import { sendSubscribeNotices } from '../messages'
import type { ConsultSignal, Effects } from './model'

/** What the consultation operations need from the app: one object, made per request or job. */
export interface ConsultContext {
  db: DB
  cipher: FieldCipher
  now: () => Date
  payments: PaymentProvider
  subscribe: SubscribeMessageProvider
  log: FastifyBaseLogger
  /** Starts a job at once after the commit (null in plain domain tests: the sweep takes it). */
  jobs: JobRunner | null
  /** Where the provider posts notifications (PUBLIC_URL + the notify routes); null without one. */
  notifyUrls: { payment: string; refund: string } | null
  /** Realtime pointers to the people's open screens (never contents). */
  publish: (userIds: string[], signal: ConsultSignal) => void
}

/** Runs what a committed change left to do: realtime signals, jobs, subscribe notices. */
export async function afterCommit(
  ctx: ConsultContext,
  effects: Effects,
  notices: readonly SubscribeNotice[] = [],
): Promise<void> {
  for (const { userIds, signal } of effects.signals) {
    try {
      ctx.publish(userIds, signal)
    } catch (error) {
      ctx.log.warn({ err: error }, 'realtime publish failed; screens catch up by cursor')
    }
  }
  for (const job of effects.jobs) {
    await ctx.jobs?.dispatch(job).catch((error: unknown) => {
      ctx.log.warn({ err: error, jobId: job.id }, 'job dispatch failed; the sweep will take it')
    })
  }
  if (notices.length > 0) await sendSubscribeNotices(ctx.subscribe, ctx.log, notices)
}
