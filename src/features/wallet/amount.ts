import { z } from 'zod/mini'
import { amount as isAmount } from '@/utils/validators'
import { yuanToFen } from '@/utils/money'
import {
  WALLET_MESSAGES,
  WITHDRAW_MIN_FEN,
  WithdrawAmountSchema,
  type WalletOverview,
} from '@/services/wallet'

/** What the amount field says about what was typed: nothing yet, why not, or the amount in fen. */
export type AmountCheck =
  | { kind: 'empty' }
  | { kind: 'problem'; message: string }
  | { kind: 'ok'; fen: number; amount: string }

/**
 * The amount rules, checked before any request and in the contract's words (WALLET_MESSAGES): SPEC
 * section 5's amount (up to 2 decimals: `1.234` is refused, never rounded), at least ¥1, at most
 * the balance, and the limits the overview names. Anything else (the platform's daily quota, one
 * at a time) is the quote's to say.
 */
export function checkWithdrawAmount(
  typed: string,
  overview: Pick<WalletOverview, 'availableFen' | 'limits'>,
): AmountCheck {
  const text = typed.trim()
  if (text === '') return { kind: 'empty' }
  const fen =
    isAmount(text) && z.safeParse(WithdrawAmountSchema, text).success ? yuanToFen(text) : null
  if (fen === null) return { kind: 'problem', message: WALLET_MESSAGES.amountFormat }
  if (fen < Math.max(WITHDRAW_MIN_FEN, overview.limits.minFen)) {
    return { kind: 'problem', message: WALLET_MESSAGES.amountTooSmall }
  }
  if (fen > overview.availableFen) {
    return { kind: 'problem', message: WALLET_MESSAGES.amountOverBalance }
  }
  if (fen > overview.limits.perTransferFen) {
    return { kind: 'problem', message: WALLET_MESSAGES.overPerTransfer }
  }
  if (fen > overview.limits.leftTodayFen) {
    return { kind: 'problem', message: WALLET_MESSAGES.overPerDay }
  }
  return { kind: 'ok', fen, amount: text }
}

/** Why 提现 cannot be opened at all (unconfigured, balance under ¥1), or null when it can. */
export function withdrawBlocked(
  overview: Pick<WalletOverview, 'availableFen' | 'payout' | 'limits'>,
  belowMinimum: string,
): string | null {
  if (!overview.payout.configured) return WALLET_MESSAGES.notConfigured
  if (overview.availableFen < Math.max(WITHDRAW_MIN_FEN, overview.limits.minFen)) {
    return belowMinimum
  }
  return null
}

/** The month in China time (`2026-11`), what 交易记录's month filter and the server count by. */
export function chinaMonth(now: number = Date.now()): string {
  return new Date(now + 8 * 3600_000).toISOString().slice(0, 7)
}
