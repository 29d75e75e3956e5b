import { sql } from 'kysely'
import { WITHDRAW_MIN_FEN, type WalletOverview } from '@contract/main/wallet'
import { ACCOUNTS, balanceOf } from '../ledger'
import type { WalletContext } from './context'
import { chinaDay, chinaMonth, chinaRange, realNameOf, targetLabel } from './model'
import { dayTotal, expertDayKey, walletLimits } from './settings'

/*
 * 我的钱包: every figure read from the ledger (balances are the accounts' balances, which
 * ledger:check proves equal to the sum of their entries) or from the withdrawals it pays.
 */

/** The ledger kinds that are the expert's income: completions, less refunds taken back, reversals. */
export const INCOME_KINDS = ['completion', 'refund-hold', 'reversal'] as const

/**
 * Income credited to the expert in [from, to) (all time without bounds), after refunds, in fen:
 * read from the ledger's statement lines (one per expert and transfer, proved equal to the entries
 * by ledger:check), an index range by owner and kind instead of every entry the expert has.
 */
export async function incomeBetween(
  ctx: Pick<WalletContext, 'db'>,
  expertId: string,
  range?: { from: string; to: string },
): Promise<number> {
  let query = ctx.db
    .selectFrom('ledger_statement_lines')
    .select(sql<number | string>`coalesce(sum(pending_change + available_change), 0)`.as('total'))
    .where('owner_id', '=', expertId)
    .where('kind', 'in', [...INCOME_KINDS])
  if (range) query = query.where('created_at', '>=', range.from).where('created_at', '<', range.to)
  const row = await query.executeTakeFirst()
  return Number(row?.total ?? 0)
}

export async function getOverview(ctx: WalletContext, expertId: string): Promise<WalletOverview> {
  const now = ctx.now()
  const [available, pending, withdrawing, month, total, limits, realName, today, yearTax] =
    await Promise.all([
      balanceOf(ctx.db, ACCOUNTS.expertAvailable(expertId)),
      balanceOf(ctx.db, ACCOUNTS.expertPending(expertId)),
      balanceOf(ctx.db, ACCOUNTS.expertWithdrawing(expertId)),
      incomeBetween(ctx, expertId, chinaRange(chinaMonth(now))),
      incomeBetween(ctx, expertId),
      walletLimits(ctx.db),
      realNameOf(ctx.db, ctx.cipher, expertId),
      dayTotal(ctx.db, expertDayKey(expertId, chinaDay(now))),
      ctx.db
        .selectFrom('withdrawals')
        .select(sql<number | string>`coalesce(sum(tax_fen), 0)`.as('total'))
        .where('expert_user_id', '=', expertId)
        .where('tax_year', '=', Number(chinaMonth(now).slice(0, 4)))
        .where('state', '=', 'paid')
        .executeTakeFirst(),
    ])
  return {
    availableFen: available,
    pendingFen: pending,
    withdrawingFen: withdrawing,
    monthIncomeFen: month,
    totalIncomeFen: total,
    yearTaxFen: Number(yearTax?.total ?? 0),
    payout: {
      provider: ctx.transfers.name,
      configured: ctx.transfers.configured,
      label: targetLabel(realName),
    },
    limits: {
      minFen: WITHDRAW_MIN_FEN,
      perTransferFen: limits.perTransferFen,
      perDayFen: limits.perDayFen,
      leftTodayFen: Math.max(0, limits.perDayFen - today),
      reviewAboveFen: limits.reviewAboveFen,
    },
  }
}
