import type { WithdrawalState } from '@contract/main/wallet'
import type { SubscribeNotice } from '../../providers/subscribe-message'
import {
  type TransferInput,
  TransferRefused,
  type TransferResult,
  type TransferState,
} from '../../providers/transfers/types'
import type { WalletContext } from './context'
import { isFinal, lockWithdrawal, realNameOf, type WithdrawalRow } from './model'
import { postPaid, voidHold } from './money'
import { sendWithdrawalNotices, tellWithdrawalEnded } from './notices'

/*
 * A transfer provider's answer applied to its withdrawal, exactly once, whatever brought it: the
 * answer to our create call, a state notification, the expert's 刷新, the job's query, in any order
 * and any number of times at once. Under the withdrawal's row lock: a final withdrawal never
 * changes again (SUCCESS posts the hold, FAIL / CANCELLED void it, once: the state change and the
 * ledger transfer commit together), and a state older than the one we have is ignored.
 */

export type TransferOutcome =
  | 'paid'
  | 'failed'
  | 'cancelled'
  | 'updated'
  | 'unchanged'
  | 'already-final'
  | 'unknown-bill'
  | 'amount-mismatch'

/** How far along a bill is: a notification of an earlier state arriving late changes nothing. */
const PROGRESS: Record<TransferState, number> = {
  ACCEPTED: 1,
  PROCESSING: 2,
  WAIT_USER_CONFIRM: 3,
  CANCELING: 4,
  TRANSFERING: 4,
  SUCCESS: 9,
  FAIL: 9,
  CANCELLED: 9,
}

/**
 * WeChat's fail_reason codes (商家转账 订单失败原因说明), in Chinese for the expert. Any other code, or
 * none, reads as FAILED_TRANSFER: a code or an English text is never shown to the expert; the code
 * stays in provider_code for operators.
 */
const FAIL_REASONS: Record<string, string> = {
  ACCOUNT_FROZEN: '收款微信账户已冻结',
  ACCOUNT_NOT_EXIST: '收款微信账户不存在',
  BLOCK_B2C_USERLIMITAMOUNT_BSRULE_MONTH: '超过微信每月收款限额，本月无法继续收款',
  BLOCK_B2C_USERLIMITAMOUNT_MONTH: '收款微信账户存在风险，本月收款受限',
  REAL_NAME_CHECK_FAIL: '收款人未完成微信实名认证',
  NAME_NOT_CORRECT: '收款人姓名与微信实名不一致',
  ID_CARD_NOT_CORRECT: '收款人身份证信息校验未通过',
  OPENID_INVALID: '收款微信账户无效',
  TRANSFER_QUOTA_EXCEED: '超过微信单笔收款限额',
  DAY_RECEIVED_QUOTA_EXCEED: '超过微信每日收款限额',
  MONTH_RECEIVED_QUOTA_EXCEED: '超过微信每月收款限额',
  DAY_RECEIVED_COUNT_EXCEED: '超过微信每日收款次数',
  REALNAME_ACCOUNT_RECEIVED_QUOTA_EXCEED: '收款微信账户收款受限，请在微信支付中查看详情',
  PAYEE_ACCOUNT_ABNORMAL: '收款微信账户收款异常，请在微信支付中完善身份信息',
  PAYER_ACCOUNT_ABNORMAL: '平台付款账户受限，请稍后再试',
  PRODUCT_AUTH_CHECK_FAIL: '平台的微信商家转账权限异常，请稍后再试',
  RECEIVE_ACCOUNT_NOT_CONFIGURE: '平台的微信转账场景配置有误，请稍后再试',
  TRANSFER_SCENE_INVALID: '平台的微信转账场景暂不可用，请稍后再试',
  TRANSFER_SCENE_UNAVAILABLE: '平台的微信转账场景暂不可用，请稍后再试',
  TRANSFER_REMARK_SET_FAIL: '转账备注设置失败，请稍后再试',
  TRANSFER_RISK: '该笔转账存在风险，已被微信拦截',
  OVERDUE_CLOSE: '超过 24 小时未确认收款',
  MCH_CANCEL: '平台已撤销转账',
  MERCHANT_REJECT: '平台已撤销转账',
  MERCHANT_NOT_CONFIRM: '平台未确认转账',
}

/** What a failure says when its code is not one we know (OTHERS, OTHER_FAIL_REASON_TYPE, new ones). */
export const FAILED_TRANSFER = '微信支付未能完成打款，金额已退回余额'

/** Has a CJK character: a text written for a person in China, not a code or an English message. */
const readsChinese = (text: string) => /[\u3400-\u9fff]/.test(text)

export function failReasonText(failReason: string | null): string {
  if (!failReason) return FAILED_TRANSFER
  if (FAIL_REASONS[failReason]) return FAIL_REASONS[failReason]
  // The demo (and any adapter that already speaks Chinese) gives a reason to show as it is.
  if (readsChinese(failReason)) return failReason.slice(0, 100)
  return FAILED_TRANSFER
}

/** A refusal's text for the expert: the adapter's Chinese message; never a code or English. */
export function refusalText(error: TransferRefused): string {
  return readsChinese(error.message)
    ? error.message.slice(0, 100)
    : '支付机构拒绝了这笔提现，本次未发出'
}

export async function applyTransferResult(
  ctx: WalletContext,
  result: TransferResult,
): Promise<TransferOutcome> {
  const now = ctx.now()
  const at = now.toISOString()
  const notices: SubscribeNotice[] = []
  const outcome = await ctx.db.transaction().execute(async (trx): Promise<TransferOutcome> => {
    notices.length = 0
    const row = await lockWithdrawal(trx, { outBillNo: result.outBillNo })
    if (!row) return 'unknown-bill'
    if (isFinal(row.state)) return 'already-final'
    if (row.state === 'reviewing') return 'unchanged'
    if (result.amountFen !== Number(row.net_fen)) return 'amount-mismatch'
    const seen = {
      provider_state: result.state,
      provider_bill_no: result.billNo ?? row.provider_bill_no,
      updated_at: at,
    }
    if (result.state === 'SUCCESS') {
      await postPaid(trx, row, now)
      await trx
        .updateTable('withdrawals')
        .set({
          ...seen,
          state: 'paid',
          active_key: null,
          reason: null,
          paid_at: result.updatedAt ?? at,
          finished_at: at,
        })
        .where('id', '=', row.id)
        .execute()
      notices.push(await tellWithdrawalEnded(trx, row, { kind: 'paid' }, now))
      return 'paid'
    }
    if (result.state === 'FAIL' || result.state === 'CANCELLED') {
      await voidHold(trx, row, now)
      const state: WithdrawalState = result.state === 'FAIL' ? 'failed' : 'cancelled'
      const reason =
        result.state === 'FAIL'
          ? failReasonText(result.failReason)
          : result.failReason
            ? failReasonText(result.failReason)
            : '转账已撤销，金额已退回余额'
      await trx
        .updateTable('withdrawals')
        .set({
          ...seen,
          state,
          active_key: null,
          reason,
          provider_code: result.failReason ?? row.provider_code,
          finished_at: at,
        })
        .where('id', '=', row.id)
        .execute()
      notices.push(
        await tellWithdrawalEnded(
          trx,
          row,
          state === 'failed' ? { kind: 'failed', reason } : { kind: 'cancelled' },
          now,
        ),
      )
      return state
    }
    const before = row.provider_state ? PROGRESS[row.provider_state as TransferState] : 0
    if (PROGRESS[result.state] <= before) {
      if (result.packageInfo && !row.package_info) {
        await trx
          .updateTable('withdrawals')
          .set({ package_info: result.packageInfo, updated_at: at })
          .where('id', '=', row.id)
          .execute()
        return 'updated'
      }
      return 'unchanged'
    }
    const state: WithdrawalState =
      result.state === 'WAIT_USER_CONFIRM'
        ? 'confirming'
        : result.state === 'CANCELING'
          ? (row.state as WithdrawalState)
          : 'paying'
    await trx
      .updateTable('withdrawals')
      .set({ ...seen, state, package_info: result.packageInfo ?? row.package_info })
      .where('id', '=', row.id)
      .execute()
    return 'updated'
  })
  await sendWithdrawalNotices(ctx, notices)
  if (outcome === 'amount-mismatch') {
    ctx.log.error(
      { outBillNo: result.outBillNo, amountFen: result.amountFen, state: result.state },
      'transfer answer with another amount than the withdrawal: not applied, an operator must look',
    )
  }
  if (outcome === 'unknown-bill') {
    ctx.log.warn({ outBillNo: result.outBillNo }, 'transfer answer for an unknown bill')
  }
  return outcome
}

/**
 * WeChat's bill query reaches back 30 days (商家转账 查询: "超过30天的单据可通过申请资金账单获取详情"):
 * past that a bill that exists answers as none. So for a withdrawal first sent longer ago than
 * this (a day's margin for clocks), "no bill" proves nothing: sending the same number again could
 * pay twice, voiding the hold could give back money already paid. Such a withdrawal stays 打款中 with
 * its hold, logged as an error for operators, who settle it from the provider's fund statement.
 */
export const PROVIDER_QUERY_WINDOW_MS = 29 * 24 * 3600_000

function pastQueryWindow(ctx: WalletContext, sentAt: string | null): boolean {
  return sentAt !== null && ctx.now().getTime() - Date.parse(sentAt) > PROVIDER_QUERY_WINDOW_MS
}

/**
 * The provider refused to create the bill (bad parameters, limits, no such user): nothing was paid,
 * so the hold goes back. If an earlier attempt's answer was unclear, the bill may exist after all:
 * then its state decides, never the refusal.
 */
async function refused(
  ctx: WalletContext,
  withdrawalId: string,
  error: TransferRefused,
  sentBefore: boolean,
): Promise<TransferOutcome | 'unclear' | 'refused'> {
  if (sentBefore) {
    const row = await ctx.db
      .selectFrom('withdrawals')
      .select(['out_bill_no', 'sent_at'])
      .where('id', '=', withdrawalId)
      .executeTakeFirstOrThrow()
    let existing: TransferResult | null
    try {
      existing = await ctx.transfers.queryTransfer(row.out_bill_no)
    } catch (queryError) {
      // Whether an earlier attempt made the bill is unknown: the hold stays, the job asks again.
      ctx.log.warn(
        { err: queryError, withdrawalId },
        'transfer refused, bill unknown; asking again',
      )
      return 'unclear'
    }
    if (existing) return applyTransferResult(ctx, existing)
    if (pastQueryWindow(ctx, row.sent_at)) {
      ctx.log.error(
        { withdrawalId, sentAt: row.sent_at },
        'transfer refused and its bill not found, but it was first sent before the provider’s query window: the hold stays; an operator must check the provider’s fund statement',
      )
      return 'unclear'
    }
  }
  const now = ctx.now()
  const shown = refusalText(error)
  const reason = `提现失败：${shown}`.slice(0, 200)
  const notice = await ctx.db.transaction().execute(async (trx) => {
    const row = await lockWithdrawal(trx, { id: withdrawalId })
    if (!row || row.state !== 'paying') return null
    await voidHold(trx, row, now)
    await trx
      .updateTable('withdrawals')
      .set({
        state: 'failed',
        active_key: null,
        reason,
        provider_code: error.code,
        updated_at: now.toISOString(),
        finished_at: now.toISOString(),
      })
      .where('id', '=', row.id)
      .execute()
    return tellWithdrawalEnded(trx, row, { kind: 'failed', reason: shown }, now)
  })
  if (notice) await sendWithdrawalNotices(ctx, [notice])
  ctx.log.warn({ withdrawalId, code: error.code }, 'transfer refused by the provider; hold voided')
  return 'refused'
}

/** A withdrawal's row with its expert's openid (the payee), for the provider's input. */
const withPayee = (ctx: WalletContext, withdrawalId: string) =>
  ctx.db
    .selectFrom('withdrawals')
    .innerJoin('users', 'users.id', 'withdrawals.expert_user_id')
    .selectAll('withdrawals')
    .select('users.wechat_openid')
    .where('withdrawals.id', '=', withdrawalId)
    .executeTakeFirst()

/**
 * What the provider is asked to pay: the same on every call for one withdrawal (WeChat answers a
 * repeat with other parameters with INVALID_REQUEST), from the row, the openid and the real name.
 */
async function transferInput(
  ctx: WalletContext,
  row: WithdrawalRow & { wechat_openid: string | null },
): Promise<TransferInput> {
  return {
    outBillNo: row.out_bill_no,
    amountFen: Number(row.net_fen),
    openid: row.wechat_openid,
    realName: (await realNameOf(ctx.db, ctx.cipher, row.expert_user_id)) ?? '',
    remark: '专家咨询服务报酬',
    notifyUrl: ctx.notifyUrl,
    report: { role: '医生', description: '在线健康咨询及影像解读服务报酬' },
  }
}

/**
 * Asks the provider to create (or answer the existing) bill of a withdrawal that is paying. Never
 * inside a transaction; an unclear answer leaves the withdrawal paying with the same bill number
 * for the job to ask again. Answers what happened, for the log and the tests.
 */
export async function sendToProvider(
  ctx: WalletContext,
  withdrawalId: string,
): Promise<TransferOutcome | 'unclear' | 'refused' | 'not-paying'> {
  const row = await withPayee(ctx, withdrawalId)
  if (!row || row.state !== 'paying') return 'not-paying'
  if (row.provider !== ctx.transfers.name) {
    ctx.log.error(
      { withdrawalId, provider: row.provider, configured: ctx.transfers.name },
      'the withdrawal needs the provider it was made with; it is not configured',
    )
    return 'unclear'
  }
  const sentBefore = row.sent_at !== null
  if (!sentBefore) {
    await ctx.db
      .updateTable('withdrawals')
      .set({ sent_at: ctx.now().toISOString() })
      .where('id', '=', row.id)
      .where('sent_at', 'is', null)
      .execute()
  }
  let result: TransferResult
  try {
    result = await ctx.transfers.createTransfer(await transferInput(ctx, row))
  } catch (error) {
    if (error instanceof TransferRefused) {
      return refused(ctx, row.id, error, sentBefore)
    }
    // Unclear (timeout, 5xx, unreadable), not configured, or anything unexpected: the bill may or
    // may not exist. Never a new bill number: the job asks again with this one.
    ctx.log.warn({ err: error, withdrawalId }, 'transfer answer unclear; the job will ask again')
    return 'unclear'
  }
  return applyTransferResult(ctx, result)
}

/**
 * A bill waiting for the expert's 确认收款 whose package we never got (the create answer was lost,
 * and the query carries none): the same create again, with the same input, answers the waiting bill
 * with its package (WECHATPAY.md). The demo confirms on the server and needs none. Nothing changes
 * when this fails: 刷新, the job or 确认收款 ask again.
 */
export async function fetchPackage(ctx: WalletContext, withdrawalId: string): Promise<void> {
  const row = await withPayee(ctx, withdrawalId)
  if (
    !row ||
    row.state !== 'confirming' ||
    row.package_info !== null ||
    row.provider === 'demo' ||
    row.provider !== ctx.transfers.name
  )
    return
  try {
    await applyTransferResult(
      ctx,
      await ctx.transfers.createTransfer(await transferInput(ctx, row)),
    )
  } catch (error) {
    ctx.log.warn({ err: error, withdrawalId }, 'the waiting transfer’s package is not had yet')
  }
}

/**
 * Where the provider has the bill now, applied: the job's and 刷新's step. A bill the provider does
 * not have (our create never reached it) is created, with the same bill number; one waiting for
 * the expert without its package gets it.
 */
export async function syncWithProvider(
  ctx: WalletContext,
  withdrawalId: string,
): Promise<TransferOutcome | 'unclear' | 'refused' | 'not-paying'> {
  const row = await ctx.db
    .selectFrom('withdrawals')
    .selectAll()
    .where('id', '=', withdrawalId)
    .executeTakeFirst()
  if (!row || isFinal(row.state) || row.state === 'reviewing') return 'not-paying'
  if (row.provider !== ctx.transfers.name) return sendToProvider(ctx, withdrawalId)
  let result: TransferResult | null
  try {
    result = await ctx.transfers.queryTransfer(row.out_bill_no)
  } catch (error) {
    ctx.log.warn({ err: error, withdrawalId }, 'transfer query unclear; asking again later')
    return 'unclear'
  }
  if (result === null) {
    if (row.state !== 'paying') return 'unchanged'
    if (pastQueryWindow(ctx, row.sent_at)) {
      ctx.log.error(
        { withdrawalId, sentAt: row.sent_at },
        'transfer bill not found, but it was sent before the provider’s query window: not sent again, not voided; an operator must check the provider’s fund statement',
      )
      return 'unclear'
    }
    return sendToProvider(ctx, withdrawalId)
  }
  const outcome = await applyTransferResult(ctx, result)
  if (result.state === 'WAIT_USER_CONFIRM' && !result.packageInfo)
    await fetchPackage(ctx, withdrawalId)
  return outcome
}
