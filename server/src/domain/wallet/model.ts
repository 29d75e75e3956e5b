import { randomBytes, randomUUID } from 'node:crypto'
import type { Selectable } from 'kysely'
import {
  WALLET_MESSAGES,
  type Withdrawal,
  WITHDRAWAL_STATE_LABELS,
  type WithdrawalState,
  type WalletTax,
} from '@contract/main/wallet'
import type { DB } from '../../db'
import type { WithdrawalsTable } from '../../db/schema'
import { badRequest, notFound } from '../../http/errors'
import { insertQueuedJob, type JobRow } from '../../jobs/runner'
import { maskName } from '../../masking'
import type { FieldCipher } from '../../crypto/field-cipher'

export type WithdrawalRow = Selectable<WithdrawalsTable>

export const HOUR_MS = 3600_000
export const DAY_MS = 24 * HOUR_MS
const CHINA_OFFSET_MS = 8 * HOUR_MS

/** States after which a withdrawal never changes (its hold posted or voided). */
export const FINAL_STATES: readonly WithdrawalState[] = ['paid', 'failed', 'cancelled']
export const isFinal = (state: string) => FINAL_STATES.includes(state as WithdrawalState)

/** The China calendar day (YYYY-MM-DD) and month (YYYY-MM) of a time. */
export const chinaDay = (at: Date | string) =>
  new Date(new Date(at).getTime() + CHINA_OFFSET_MS).toISOString().slice(0, 10)
export const chinaMonth = (at: Date | string) => chinaDay(at).slice(0, 7)

/** The UTC ISO bounds [from, to) of a China day, month (YYYY-MM) or year (YYYY). */
export function chinaRange(period: string): { from: string; to: string } {
  const [year, month, day] = period.split('-').map(Number) as [number, number?, number?]
  const start = Date.UTC(year, (month ?? 1) - 1, day ?? 1) - CHINA_OFFSET_MS
  const end =
    day !== undefined
      ? Date.UTC(year, month! - 1, day + 1)
      : month !== undefined
        ? Date.UTC(year, month, 1)
        : Date.UTC(year + 1, 0, 1)
  return { from: new Date(start).toISOString(), to: new Date(end - CHINA_OFFSET_MS).toISOString() }
}

/** "12.44" → 1244 fen, exactly (no floating point); the contract's schema checked the format. */
export function parseAmountFen(amount: string): number {
  const match = /^(0|[1-9]\d{0,8})(?:\.(\d{1,2}))?$/.exec(amount)
  if (!match) throw badRequest(WALLET_MESSAGES.amountFormat)
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'))
}

/** ¥12.44 from fen. */
export const yuan = (fen: number) =>
  `¥${(fen < 0 ? '-' : '') + Math.floor(Math.abs(fen) / 100)}.${String(Math.abs(fen) % 100).padStart(2, '0')}`

/** Our bill number: W + time + random, 25 of [A-Z0-9] (out_bill_no allows 5–32). */
export const newBillNo = () =>
  `W${Date.now().toString(36)}${randomBytes(8).toString('hex')}`.toUpperCase()

/** The expert's certified real name (the bound ID card's holder), or null without one. */
export async function realNameOf(
  db: DB,
  cipher: FieldCipher,
  userId: string,
): Promise<string | null> {
  const card = await db
    .selectFrom('id_cards')
    .select('holder_encrypted')
    .where('user_id', '=', userId)
    .executeTakeFirst()
  if (!card) return null
  try {
    return cipher.decrypt(card.holder_encrypted)
  } catch {
    return null
  }
}

/** 微信零钱（张*）: where a withdrawal goes, with the name masked. */
export const targetLabel = (realName: string | null) =>
  realName ? `微信零钱（${maskName(realName)}）` : '微信零钱（未实名）'

/** One of the expert's own withdrawals: 404 for anyone else's, as for one that does not exist. */
export async function ownWithdrawal(
  db: DB,
  expertId: string,
  withdrawalId: string,
): Promise<WithdrawalRow> {
  const row = await db
    .selectFrom('withdrawals')
    .selectAll()
    .where('id', '=', withdrawalId)
    .where('expert_user_id', '=', expertId)
    .executeTakeFirst()
  if (!row) throw notFound(WALLET_MESSAGES.notFound)
  return row
}

/** Locks a withdrawal's row for the rest of the transaction (a no-op update) and answers it. */
export async function lockWithdrawal(
  trx: DB,
  where: { id: string } | { outBillNo: string },
): Promise<WithdrawalRow | undefined> {
  const query = trx.updateTable('withdrawals').set((eb) => ({ updated_at: eb.ref('updated_at') }))
  return (
    'id' in where
      ? query.where('id', '=', where.id)
      : query.where('out_bill_no', '=', where.outBillNo)
  )
    .returningAll()
    .executeTakeFirst()
}

/** The withdrawal as the expert sees it. */
export function toWithdrawal(row: WithdrawalRow, providerName: string): Withdrawal {
  const state = row.state as WithdrawalState
  return {
    id: row.id,
    state,
    stateLabel: WITHDRAWAL_STATE_LABELS[state],
    grossFen: Number(row.gross_fen),
    taxFen: Number(row.tax_fen),
    netFen: Number(row.net_fen),
    tax: JSON.parse(row.tax_json) as WalletTax,
    targetLabel: row.target_label,
    billNo: row.out_bill_no,
    reason: row.reason,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    paidAt: row.paid_at,
    canConfirm:
      state === 'confirming' &&
      row.provider === providerName &&
      (row.package_info !== null || row.provider === 'demo'),
    canCancel: state === 'reviewing' || state === 'confirming',
  }
}

export const WALLET_JOB_KIND = 'wallet-transfer'

/** A wallet job row in the caller's transaction: it drives the withdrawal at `runAfter`. */
export async function queueTransferJob(
  trx: DB,
  withdrawalId: string,
  runAfter: Date,
): Promise<JobRow> {
  const id = randomUUID()
  return insertQueuedJob(trx, {
    id,
    kind: WALLET_JOB_KIND,
    stagingPrefix: `jobs-without-files/${id}/`,
    subjectId: withdrawalId,
    runAfter,
  })
}
