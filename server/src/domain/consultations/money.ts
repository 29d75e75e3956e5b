import { randomBytes, randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { splitPrice } from '@contract/main/consultations'
import type { DB } from '../../db'
import { insertQueuedJob } from '../../jobs/runner'
import { ACCOUNTS, postTransfer } from '../ledger'
import type { Consultation, Effects } from './model'

/*
 * The consultation's money in the ledger (domain/ledger): every function here posts one transfer
 * keyed by the event that caused it, inside the caller's transaction.
 *
 *   payment     provider → escrow                          key payment:<provider>:<transaction id>
 *   completion  escrow → expert-pending + platform-revenue key complete:<consultation>
 *   settlement  expert-pending → expert-available          key settle:<consultation>
 *   refund hold escrow (or pending + revenue) → refund      key refund-hold:<refund no>
 *   refund paid refund → provider                          key refund:<refund no>
 */

export async function creditPayment(
  trx: DB,
  row: Pick<Consultation, 'id' | 'provider'>,
  transactionId: string,
  amountFen: number,
  now: Date,
) {
  return postTransfer(
    trx,
    {
      eventKey: `payment:${row.provider}:${transactionId}`,
      kind: 'payment',
      consultationId: row.id,
      entries: [
        { account: ACCOUNTS.provider(row.provider), amount: -amountFen },
        { account: ACCOUNTS.escrow(row.id), amount: amountFen },
      ],
    },
    now,
  )
}

async function accountBalanceFor(trx: DB, accountId: string, consultationId: string): Promise<number> {
  const row = await trx
    .selectFrom('ledger_entries as e')
    .innerJoin('ledger_transfers as t', 't.id', 'e.transfer_id')
    .select(sql<number>`coalesce(sum(e.amount), 0)`.as('total'))
    .where('t.consultation_id', '=', consultationId)
    .where('e.account_id', '=', accountId)
    .executeTakeFirst()
  return Number(row?.total ?? 0)
}

/** Completion: what escrow still holds goes to the expert's pending income and the platform. */
export async function settleCompletion(trx: DB, row: Consultation, now: Date): Promise<void> {
  const held = await accountBalanceFor(trx, ACCOUNTS.escrow(row.id).id, row.id)
  if (held <= 0) return
  const { platformFen, expertFen } = splitPrice(held, Number(row.share_bp))
  await postTransfer(
    trx,
    {
      eventKey: `complete:${row.id}`,
      kind: 'completion',
      consultationId: row.id,
      entries: [
        { account: ACCOUNTS.escrow(row.id), amount: -held },
        { account: ACCOUNTS.expertPending(row.expert_user_id), amount: expertFen },
        { account: ACCOUNTS.platformRevenue(), amount: platformFen },
      ],
    },
    now,
  )
}

/** After the 投诉 window: the expert's pending income of this consultation becomes available. */
export async function settleIncome(trx: DB, row: Consultation, now: Date): Promise<void> {
  const pending = ACCOUNTS.expertPending(row.expert_user_id)
  const amount = await accountBalanceFor(trx, pending.id, row.id)
  if (amount <= 0) return
  await postTransfer(
    trx,
    {
      eventKey: `settle:${row.id}`,
      kind: 'settlement',
      consultationId: row.id,
      entries: [
        { account: pending, amount: -amount },
        { account: ACCOUNTS.expertAvailable(row.expert_user_id), amount },
      ],
    },
    now,
  )
}

/** Refunded or on its way back so far (never more than the price: checked before each refund). */
export async function refundedSoFar(trx: DB, consultationId: string): Promise<number> {
  const row = await trx
    .selectFrom('consultation_refunds')
    .select(sql<number>`coalesce(sum(amount_fen), 0)`.as('total'))
    .where('consultation_id', '=', consultationId)
    .executeTakeFirst()
  return Number(row?.total ?? 0)
}

const refundNumber = () => `R${Date.now().toString(36)}${randomBytes(6).toString('hex')}`.toUpperCase()

/**
 * Starts a refund of `amountFen` (call with the consultation's row locked): the money leaves escrow
 * (before completion) or the expert's pending income and the platform's revenue in proportion
 * (after), into the consultation's refund account; a job asks the provider, with the same refund
 * number on every retry. Answers the refund number, or null when there is nothing to refund.
 */
export async function startRefund(
  trx: DB,
  effects: Effects,
  row: Consultation,
  amountFen: number,
  reason: string,
  now: Date,
): Promise<string | null> {
  if (amountFen <= 0) return null
  const paid = row.paid_at !== null || row.transaction_id !== null
  if (!paid) return null
  const already = await refundedSoFar(trx, row.id)
  if (already + amountFen > Number(row.price_fen)) {
    throw new Error(`refund of ${amountFen} would exceed what consultation ${row.id} was paid`)
  }
  const refundNo = refundNumber()
  const escrow = ACCOUNTS.escrow(row.id)
  const held = await accountBalanceFor(trx, escrow.id, row.id)
  const entries =
    held >= amountFen
      ? [{ account: escrow, amount: -amountFen }]
      : fromSettled(row, amountFen)
  await postTransfer(
    trx,
    {
      eventKey: `refund-hold:${refundNo}`,
      kind: 'refund-hold',
      consultationId: row.id,
      entries: [...entries, { account: ACCOUNTS.refund(row.id), amount: amountFen }],
    },
    now,
  )
  await trx
    .insertInto('consultation_refunds')
    .values({
      refund_no: refundNo,
      consultation_id: row.id,
      amount_fen: amountFen,
      state: 'processing',
      reason,
      provider_refund_id: null,
      created_at: now.toISOString(),
      succeeded_at: null,
    })
    .execute()
  const id = randomUUID()
  effects.jobs.push(
    await insertQueuedJob(trx, {
      id,
      kind: 'consult-refund',
      stagingPrefix: `jobs-without-files/${id}/`,
      subjectId: refundNo,
      runAfter: now,
    }),
  )
  return refundNo
}

/** After completion: the platform gives back its share of the refund, the expert the rest. */
function fromSettled(row: Consultation, amountFen: number) {
  const price = Number(row.price_fen)
  const platform = Math.min(Number(row.platform_fen), Math.round((amountFen * Number(row.platform_fen)) / price))
  return [
    { account: ACCOUNTS.platformRevenue(), amount: -platform },
    { account: ACCOUNTS.expertPending(row.expert_user_id), amount: -(amountFen - platform) },
  ]
}

/** The provider paid the refund back: the refund account empties to the provider, once. */
export async function finishRefund(
  trx: DB,
  refund: { refund_no: string; consultation_id: string; amount_fen: number },
  provider: string,
  providerRefundId: string | null,
  succeededAt: string,
  now: Date,
): Promise<boolean> {
  const updated = await trx
    .updateTable('consultation_refunds')
    .set({ state: 'succeeded', provider_refund_id: providerRefundId, succeeded_at: succeededAt })
    .where('refund_no', '=', refund.refund_no)
    .where('state', '=', 'processing')
    .executeTakeFirst()
  if (Number(updated.numUpdatedRows) !== 1) return false
  await postTransfer(
    trx,
    {
      eventKey: `refund:${refund.refund_no}`,
      kind: 'refund',
      consultationId: refund.consultation_id,
      entries: [
        { account: ACCOUNTS.refund(refund.consultation_id), amount: -Number(refund.amount_fen) },
        { account: ACCOUNTS.provider(provider), amount: Number(refund.amount_fen) },
      ],
    },
    now,
  )
  return true
}
