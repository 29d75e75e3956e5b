import type { DB } from '../../db'

/*
 * The wallet's limits: an operator's settings in app_settings (`wallet-limits`, JSON, written with
 * its defaults by migration 0025). They follow the transfer provider's rules: WeChat Pay 商家转账
 * pays one person at most 20,000 元 a day (not raisable) and a merchant 100,000 元 a day by default
 * (raisable in 商户平台, so is our platform limit); a withdrawal above `reviewAboveFen` waits for an
 * operator's 审核 (2,000 元 is also where WeChat starts requiring the receiver's real name).
 *
 * Operators change them in 运营后台 → 提现审核 → 提现限额 (PUT /main/operator/wallet/limits,
 * contract `operatorSetWalletLimits`, audited as `wallet-limits-set`). They are read when a
 * withdrawal is quoted and made, so a change applies to new withdrawals only: one already 审核中 or
 * on its way keeps going, and what today's withdrawals used stays counted against the new per-day
 * limits.
 */

export interface WalletLimits {
  /** One withdrawal at most (the merchant's 单笔限额 in 商户平台 must be at least this). */
  perTransferFen: number
  /** One expert per China day (WeChat: 20,000 元 per person per day). */
  perDayFen: number
  /** Every expert together per China day (the merchant's daily limit). */
  platformPerDayFen: number
  /** Above this a withdrawal waits for an operator's 审核. */
  reviewAboveFen: number
}

export const WALLET_LIMITS_KEY = 'wallet-limits'

export const DEFAULT_WALLET_LIMITS: WalletLimits = {
  perTransferFen: 2_000_000,
  perDayFen: 2_000_000,
  platformPerDayFen: 10_000_000,
  reviewAboveFen: 200_000,
}

export async function walletLimits(db: DB): Promise<WalletLimits> {
  const row = await db
    .selectFrom('app_settings')
    .select('value')
    .where('key', '=', WALLET_LIMITS_KEY)
    .executeTakeFirst()
  let stored: Partial<WalletLimits> = {}
  try {
    stored = row ? (JSON.parse(row.value) as Partial<WalletLimits>) : {}
  } catch {
    stored = {}
  }
  const pick = (name: keyof WalletLimits) =>
    Number.isSafeInteger(stored[name]) && stored[name]! >= 0
      ? stored[name]!
      : DEFAULT_WALLET_LIMITS[name]
  return {
    perTransferFen: pick('perTransferFen'),
    perDayFen: pick('perDayFen'),
    platformPerDayFen: pick('platformPerDayFen'),
    reviewAboveFen: pick('reviewAboveFen'),
  }
}

export async function setWalletLimits(
  db: DB,
  limits: Partial<WalletLimits>,
  operatorId: string | null,
  now: Date,
): Promise<WalletLimits> {
  const value = JSON.stringify({ ...(await walletLimits(db)), ...limits })
  const at = now.toISOString()
  await db
    .insertInto('app_settings')
    .values({ key: WALLET_LIMITS_KEY, value, updated_by: operatorId, updated_at: at })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({ value, updated_by: operatorId, updated_at: at }),
    )
    .execute()
  return walletLimits(db)
}

/** The day-total keys a withdrawal made on `day` counts against. */
export const expertDayKey = (userId: string, day: string) => `expert:${userId}:${day}`
export const platformDayKey = (day: string) => `platform:${day}`

/** What is counted against a day-total key now (0 when nothing). */
export async function dayTotal(db: DB, key: string): Promise<number> {
  const row = await db
    .selectFrom('wallet_day_totals')
    .select('total_fen')
    .where('key', '=', key)
    .executeTakeFirst()
  return Number(row?.total_fen ?? 0)
}

/**
 * Adds `amountFen` to a day total unless that would pass `limitFen`: one conditional statement, so
 * a burst of withdrawals cannot all pass the same old total. Answers whether it was added.
 */
export async function addToDayTotal(
  trx: DB,
  key: string,
  amountFen: number,
  limitFen: number,
  now: Date,
): Promise<boolean> {
  if (amountFen > limitFen) return false
  const at = now.toISOString()
  await trx
    .insertInto('wallet_day_totals')
    .values({ key, total_fen: 0, updated_at: at })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute()
  const updated = await trx
    .updateTable('wallet_day_totals')
    .set((eb) => ({ total_fen: eb('total_fen', '+', amountFen), updated_at: at }))
    .where('key', '=', key)
    .where((eb) => eb(eb('total_fen', '+', amountFen), '<=', limitFen))
    .executeTakeFirst()
  return Number(updated.numUpdatedRows) === 1
}

/** Gives a voided withdrawal's amount back to its day's totals. */
export async function takeFromDayTotal(
  trx: DB,
  key: string,
  amountFen: number,
  now: Date,
): Promise<void> {
  await trx
    .updateTable('wallet_day_totals')
    .set((eb) => ({ total_fen: eb('total_fen', '-', amountFen), updated_at: now.toISOString() }))
    .where('key', '=', key)
    .execute()
}
