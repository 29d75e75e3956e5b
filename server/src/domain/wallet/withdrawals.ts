import { randomUUID } from 'node:crypto'
import { WALLET_MESSAGES, WITHDRAW_MIN_FEN, type Withdrawal } from '@contract/main/wallet'
import type { DB } from '../../db'
import { page, type PageQuery } from '../../db/paging'
import { ApiError, badRequest, conflict } from '../../http/errors'
import { TransferRefused } from '../../providers/transfers/types'
import { isDemoTransferProvider } from '../../providers/transfers/demo'
import { ACCOUNTS, balanceOf, LedgerRefused } from '../ledger'
import { PROOF_WRONG_PASSWORD, proveIdentity } from '../profile'
import type { WalletContext } from './context'
import {
  chinaDay,
  chinaMonth,
  lockWithdrawal,
  newBillNo,
  ownWithdrawal,
  parseAmountFen,
  queueTransferJob,
  realNameOf,
  targetLabel,
  toWithdrawal,
  type WithdrawalRow,
} from './model'
import { holdWithdrawal, voidHold } from './money'
import {
  addToDayTotal,
  dayTotal,
  expertDayKey,
  platformDayKey,
  type WalletLimits,
  walletLimits,
} from './settings'
import { applyTransferResult, fetchPackage, sendToProvider, syncWithProvider } from './settle'
import { sendWithdrawalNotices, tellWithdrawalEnded } from './notices'
import { type PaidIncome, withholdingTax } from './tax'

/*
 * Withdrawals: 提现试算, 申请提现 (re-authenticated, idempotent by the app's clientId, limits), 提现记录,
 * 确认收款, 刷新, 取消. Creating one is ONE transaction: the row, the day's totals and the hold
 * (available → withdrawing) commit together or not at all; the provider is asked only after the
 * commit, never inside it (a slow or unclear provider holds no lock, and a crash between the two
 * leaves a paying withdrawal whose job asks the provider with the same bill number).
 */

/** The job's first look comes this long after a withdrawal starts paying (the direct call goes first). */
export const FIRST_CHECK_MS = 30_000

/** Income paid out before (paid withdrawals of that year), for the cumulative tax. */
async function paidThisYear(db: DB, expertId: string, year: number): Promise<PaidIncome[]> {
  const rows = await db
    .selectFrom('withdrawals')
    .select(['tax_month', 'gross_fen', 'tax_fen'])
    .where('expert_user_id', '=', expertId)
    .where('tax_year', '=', year)
    .where('state', '=', 'paid')
    .execute()
  return rows.map((row) => ({
    month: row.tax_month,
    grossFen: Number(row.gross_fen),
    taxFen: Number(row.tax_fen),
  }))
}

async function taxFor(db: DB, expertId: string, grossFen: number, now: Date) {
  const month = chinaMonth(now)
  return withholdingTax({
    month,
    amountFen: grossFen,
    earlier: await paidThisYear(db, expertId, Number(month.slice(0, 4))),
  })
}

/** Why a withdrawal of this amount cannot go now (null: it can), checked without writing. */
async function refusal(
  ctx: WalletContext,
  expertId: string,
  grossFen: number,
  limits: WalletLimits,
  now: Date,
): Promise<string | null> {
  if (!ctx.transfers.configured) return WALLET_MESSAGES.notConfigured
  if (grossFen < WITHDRAW_MIN_FEN) return WALLET_MESSAGES.amountTooSmall
  if (!(await realNameOf(ctx.db, ctx.cipher, expertId))) return WALLET_MESSAGES.noRealName
  // 商家转账 pays the openid the mini-program's WeChat login gave the account: without one WeChat
  // would be refused after the hold (OPENID_MISSING), so it is said before anything is held.
  if (ctx.transfers.name === 'wechatpay' && !(await wechatOpenidOf(ctx.db, expertId)))
    return WALLET_MESSAGES.wechatLoginRequired
  const active = await ctx.db
    .selectFrom('withdrawals')
    .select('id')
    .where('active_key', '=', expertId)
    .executeTakeFirst()
  if (active) return WALLET_MESSAGES.oneAtATime
  if (grossFen > (await balanceOf(ctx.db, ACCOUNTS.expertAvailable(expertId))))
    return WALLET_MESSAGES.amountOverBalance
  if (grossFen > limits.perTransferFen) return WALLET_MESSAGES.overPerTransfer
  const day = chinaDay(now)
  if ((await dayTotal(ctx.db, expertDayKey(expertId, day))) + grossFen > limits.perDayFen)
    return WALLET_MESSAGES.overPerDay
  if ((await dayTotal(ctx.db, platformDayKey(day))) + grossFen > limits.platformPerDayFen)
    return WALLET_MESSAGES.overPlatformDay
  return null
}

export async function quoteWithdrawal(ctx: WalletContext, expertId: string, amount: string) {
  const grossFen = parseAmountFen(amount)
  const now = ctx.now()
  const limits = await walletLimits(ctx.db)
  const tax = await taxFor(ctx.db, expertId, grossFen, now)
  return {
    grossFen,
    taxFen: tax.taxFen,
    netFen: grossFen - tax.taxFen,
    tax,
    needsReview: grossFen > limits.reviewAboveFen,
    refused: await refusal(ctx, expertId, grossFen, limits, now),
  }
}

async function wechatOpenidOf(db: DB, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom('users')
    .select('wechat_openid')
    .where('id', '=', userId)
    .executeTakeFirst()
  return row?.wechat_openid ?? null
}

/**
 * Who is paid, kept with the withdrawal (migration 0027): the ID card's holder and number as the
 * field cipher's ciphertext, copied from id_cards (one key for both, nothing decrypted), and the
 * expert's hospital. The quarterly income report names the payee from them once account deletion
 * has removed the ID card and the expert profile (income-report.ts).
 */
async function payeeOf(db: DB, expertId: string) {
  const row = await db
    .selectFrom('users as u')
    .leftJoin('id_cards as c', 'c.user_id', 'u.id')
    .leftJoin('experts as x', 'x.user_id', 'u.id')
    .leftJoin('hospitals as h', 'h.id', 'x.hospital_id')
    .select(['c.holder_encrypted', 'c.number_encrypted', 'h.name as hospital_name'])
    .where('u.id', '=', expertId)
    .executeTakeFirst()
  return {
    payee_name_encrypted: row?.holder_encrypted ?? null,
    payee_id_number_encrypted: row?.number_encrypted ?? null,
    payee_hospital_name: row?.hospital_name ?? null,
  }
}

const byClientId = (db: DB, expertId: string, clientId: string) =>
  db
    .selectFrom('withdrawals')
    .selectAll()
    .where('expert_user_id', '=', expertId)
    .where('client_id', '=', clientId)
    .executeTakeFirst()

/**
 * 申请提现: the expert proves who they are again (password or an SMS code), then the withdrawal is
 * placed; the same clientId answers the same withdrawal (a retried request never makes a second).
 */
export async function createWithdrawal(
  ctx: WalletContext,
  expertId: string,
  input: {
    amount: string
    clientId: string
    password?: string | undefined
    smsCode?: string | undefined
  },
  ip?: string,
): Promise<Withdrawal> {
  const again = await byClientId(ctx.db, expertId, input.clientId)
  if (again) return toWithdrawal(again, ctx.transfers.name)
  const grossFen = parseAmountFen(input.amount)
  const limits = await walletLimits(ctx.db)
  // What is already known to fail is said before the password or code is spent on it; the
  // transaction below checks again, atomically.
  const refused = await refusal(ctx, expertId, grossFen, limits, ctx.now())
  if (refused === WALLET_MESSAGES.notConfigured) throw new ApiError(503, refused)
  if (refused === WALLET_MESSAGES.oneAtATime) throw conflict(refused)
  if (refused) throw badRequest(refused)
  const realName = (await realNameOf(ctx.db, ctx.cipher, expertId))!
  if (!input.password && !input.smsCode) throw badRequest(WALLET_MESSAGES.reauthRequired)
  const user = await ctx.db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', expertId)
    .executeTakeFirstOrThrow()
  try {
    await proveIdentity(
      ctx.db,
      user,
      { password: input.password, oldCode: input.smsCode },
      ctx.now(),
      ip,
    )
  } catch (error) {
    if (
      error instanceof ApiError &&
      error.statusCode === 400 &&
      error.userMessage === PROOF_WRONG_PASSWORD
    )
      throw badRequest(WALLET_MESSAGES.reauthFailed)
    throw error
  }
  const placed = await placeWithdrawal(ctx, expertId, {
    grossFen,
    clientId: input.clientId,
    realName,
    limits,
  })
  if (placed.state === 'paying' && placed.created) await sendToProvider(ctx, placed.row.id)
  const row = await ownWithdrawal(ctx.db, expertId, placed.row.id)
  return toWithdrawal(row, ctx.transfers.name)
}

/**
 * The transaction of a withdrawal, once its maker is proved: the row (its unique keys refuse a
 * second one in flight and a second one for the same clientId), the tax, the day's totals, the
 * hold, and the job that sees it paid. Exported for the tests' bursts (the password check's own
 * limit would otherwise refuse most of a burst before it got here).
 */
export async function placeWithdrawal(
  ctx: WalletContext,
  expertId: string,
  input: { grossFen: number; clientId: string; realName: string; limits: WalletLimits },
): Promise<{ row: WithdrawalRow; state: string; created: boolean }> {
  const now = ctx.now()
  const at = now.toISOString()
  const day = chinaDay(now)
  const month = chinaMonth(now)
  const outcome = await ctx.db.transaction().execute(async (trx) => {
    const id = randomUUID()
    const payee = await payeeOf(trx, expertId)
    const inserted = await trx
      .insertInto('withdrawals')
      .values({
        id,
        expert_user_id: expertId,
        client_id: input.clientId,
        out_bill_no: newBillNo(),
        active_key: expertId,
        gross_fen: input.grossFen,
        tax_fen: 0,
        net_fen: input.grossFen,
        tax_json: '{}',
        tax_year: Number(month.slice(0, 4)),
        tax_month: month,
        day,
        state: 'paying',
        reason: null,
        target_label: targetLabel(input.realName),
        provider: ctx.transfers.name,
        provider_state: null,
        provider_code: null,
        provider_bill_no: null,
        package_info: null,
        created_at: at,
        updated_at: at,
        sent_at: null,
        paid_at: null,
        finished_at: null,
        reviewed_by: null,
        reviewed_at: null,
        ...payee,
      })
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .executeTakeFirst()
    if (!inserted) {
      const existing = await byClientId(trx, expertId, input.clientId)
      if (existing) return { row: existing, state: existing.state, created: false }
      throw conflict(WALLET_MESSAGES.oneAtATime)
    }
    // Holding the expert's one in-flight slot, nothing else of theirs is paid meanwhile: the tax
    // read now counts every paid withdrawal.
    const tax = await withholdingTax({
      month,
      amountFen: input.grossFen,
      earlier: await paidThisYear(trx, expertId, Number(month.slice(0, 4))),
    })
    const state = input.grossFen > input.limits.reviewAboveFen ? 'reviewing' : 'paying'
    const row = await trx
      .updateTable('withdrawals')
      .set({
        tax_fen: tax.taxFen,
        net_fen: input.grossFen - tax.taxFen,
        tax_json: JSON.stringify(tax),
        state,
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
    try {
      await holdWithdrawal(trx, row, now)
    } catch (error) {
      if (error instanceof LedgerRefused) throw badRequest(WALLET_MESSAGES.amountOverBalance)
      throw error
    }
    if (
      !(await addToDayTotal(
        trx,
        expertDayKey(expertId, day),
        input.grossFen,
        input.limits.perDayFen,
        now,
      ))
    )
      throw badRequest(WALLET_MESSAGES.overPerDay)
    if (
      !(await addToDayTotal(
        trx,
        platformDayKey(day),
        input.grossFen,
        input.limits.platformPerDayFen,
        now,
      ))
    )
      throw badRequest(WALLET_MESSAGES.overPlatformDay)
    if (state === 'paying')
      await queueTransferJob(trx, id, new Date(now.getTime() + FIRST_CHECK_MS))
    return { row, state, created: true }
  })
  // The job is queued with a delay, not dispatched: the caller asks the provider at once.
  return outcome
}

export async function listWithdrawals(ctx: WalletContext, expertId: string, query: PageQuery) {
  const found = await page(
    query,
    ctx.db
      .selectFrom('withdrawals')
      .selectAll()
      .where('expert_user_id', '=', expertId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc'),
    ctx.db.selectFrom('withdrawals').where('expert_user_id', '=', expertId),
  )
  return { ...found, items: found.items.map((row) => toWithdrawal(row, ctx.transfers.name)) }
}

export async function getWithdrawal(ctx: WalletContext, expertId: string, withdrawalId: string) {
  return toWithdrawal(await ownWithdrawal(ctx.db, expertId, withdrawalId), ctx.transfers.name)
}

/** 刷新: asks the provider where the bill is and applies it (never a new bill). */
export async function syncWithdrawal(ctx: WalletContext, expertId: string, withdrawalId: string) {
  await ownWithdrawal(ctx.db, expertId, withdrawalId)
  await syncWithProvider(ctx, withdrawalId)
  return getWithdrawal(ctx, expertId, withdrawalId)
}

const NOT_CONFIRMING = '这笔提现当前无需确认收款'

/**
 * 确认收款 of a withdrawal waiting for it: the mini-program's wx.requestMerchantTransfer parameters
 * (WeChat), or, in the demo, the confirmation done here and its notification applied through the
 * same code as WeChat's.
 */
export async function confirmWithdrawal(
  ctx: WalletContext,
  expertId: string,
  withdrawalId: string,
) {
  let row = await ownWithdrawal(ctx.db, expertId, withdrawalId)
  if (row.state !== 'confirming' || row.provider !== ctx.transfers.name)
    throw conflict(NOT_CONFIRMING)
  const transfers = ctx.transfers
  if (row.package_info === null && !isDemoTransferProvider(transfers)) {
    // Waiting for the expert, but its package was never had (a lost create answer): asked for now.
    await fetchPackage(ctx, withdrawalId)
    row = await ownWithdrawal(ctx.db, expertId, withdrawalId)
    if (row.state !== 'confirming') throw conflict(NOT_CONFIRMING)
  }
  if (isDemoTransferProvider(transfers)) {
    const result = await transfers.demoConfirm(row.out_bill_no)
    const parsed = await transfers.parseTransferNotification(transfers.demoNotification(result))
    await applyTransferResult(ctx, parsed)
    return {
      kind: 'demo' as const,
      mchId: null,
      appId: null,
      packageInfo: null,
      withdrawal: await getWithdrawal(ctx, expertId, withdrawalId),
    }
  }
  const params = transfers.confirmParams({
    outBillNo: row.out_bill_no,
    billNo: row.provider_bill_no,
    state: 'WAIT_USER_CONFIRM',
    amountFen: Number(row.net_fen),
    packageInfo: row.package_info,
    failReason: null,
    updatedAt: row.updated_at,
  })
  if (!params) throw conflict(NOT_CONFIRMING)
  return {
    kind: 'wechat' as const,
    mchId: params.mchId,
    appId: params.appId,
    packageInfo: params.packageInfo,
    withdrawal: toWithdrawal(row, transfers.name),
  }
}

/**
 * 取消: while 审核中 the hold goes back at once; while 待确认收款 the provider is asked to cancel the
 * bill (its CANCELLED voids the hold; CANCELING leaves it for the job). Paying: too late.
 */
export async function cancelWithdrawal(ctx: WalletContext, expertId: string, withdrawalId: string) {
  const row = await ownWithdrawal(ctx.db, expertId, withdrawalId)
  if (row.state === 'reviewing') {
    const now = ctx.now()
    const notice = await ctx.db.transaction().execute(async (trx) => {
      const locked = await lockWithdrawal(trx, { id: row.id })
      if (!locked || locked.state !== 'reviewing') return null
      await voidHold(trx, locked, now)
      await trx
        .updateTable('withdrawals')
        .set({
          state: 'cancelled',
          active_key: null,
          reason: '已取消提现，金额已退回余额',
          updated_at: now.toISOString(),
          finished_at: now.toISOString(),
        })
        .where('id', '=', locked.id)
        .execute()
      // Told like every other ending, so 我的消息 keeps where the money went.
      return tellWithdrawalEnded(trx, locked, { kind: 'cancelled' }, now)
    })
    if (!notice) throw conflict(WALLET_MESSAGES.cannotCancel)
    await sendWithdrawalNotices(ctx, [notice])
    return getWithdrawal(ctx, expertId, withdrawalId)
  }
  if (row.state !== 'confirming') throw conflict(WALLET_MESSAGES.cannotCancel)
  let result
  try {
    result = await ctx.transfers.cancelTransfer(row.out_bill_no)
  } catch (error) {
    if (error instanceof TransferRefused) throw conflict(WALLET_MESSAGES.cannotCancel)
    throw new ApiError(503, '提现服务暂不可用，请稍后再试')
  }
  await applyTransferResult(ctx, result)
  return getWithdrawal(ctx, expertId, withdrawalId)
}
