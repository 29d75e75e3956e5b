import { useState } from 'react'
import { z } from 'zod/mini'
import { usePagedList } from '@/components/refresh-list'
import { useResource } from '@/hooks/use-resource'
import { saveDownloadedFile } from '@/platform/save-file'
import { showModal, showToast } from '@/platform/ui'
import { describeError } from '@/services/api'
import {
  INCOME_REPORT_QUARTER_RE,
  operatorDecideWithdrawal,
  type OperatorWithdrawal,
  operatorWalletApi,
  WALLET_LIMIT_FIELDS,
  WALLET_LIMIT_LABELS,
  WALLET_MESSAGES,
  type WalletLimitField,
  type WalletLimitSettings,
  WalletLimitSettingsInputSchema,
  WECHAT_PERSON_DAY_MAX_FEN,
  type WithdrawalState,
  yuanOf,
} from '@/services/wallet'
import { yuanToFen } from '@/utils/money'
import { reasonProblem } from './reason'
import { act, useRowAction } from './use-operator'

/*
 * 提现审核 in 运营后台 (issue 22): withdrawals by state with counts, 通过 / 驳回 (with the reason
 * the expert reads) for those waiting for 审核, the reconciliation of the provider's daily statement
 * with the ledger, and the quarterly income report per expert (CSV). The server decides each
 * withdrawal once: the loser of two operators gets 409 and the list is loaded again. 提现限额: the
 * wallet's limits (an operator's settings), read and changed here; a change applies to withdrawals
 * made afterwards only.
 */

const PAGE_SIZE = 20

export type WithdrawalCounts = Partial<Record<WithdrawalState, number>>

export function useOperatorWithdrawals(
  state: WithdrawalState | null,
  onCounts: (counts: WithdrawalCounts) => void,
) {
  return usePagedList<OperatorWithdrawal>(
    async (page, pageSize) => {
      const answer = await operatorWalletApi.list(state ?? undefined, page, pageSize)
      if (page === 1) onCounts(answer.counts)
      return { items: answer.items, total: answer.total }
    },
    { pageSize: PAGE_SIZE },
  )
}

/** 驳回 needs a reason (the expert reads it), within the contract's length. */
export function rejectReasonProblem(reason: string): string | null {
  const trimmed = reason.trim()
  if (trimmed === '') return WALLET_MESSAGES.rejectReasonRequired
  return reasonProblem(operatorDecideWithdrawal.input.shape.reason, trimmed)
}

/** 通过 and 驳回, each confirmed; the list reloads after either, and after a 409. */
export function useWithdrawalDecision(reload: () => Promise<void>) {
  const { busyId, run } = useRowAction(reload)
  const approve = async (withdrawal: OperatorWithdrawal) => {
    const confirmed = await showModal({
      title: '通过提现',
      content: `确认通过${withdrawal.expert.name}的提现 ¥${yuanOf(withdrawal.grossFen)}（代扣个税 ¥${yuanOf(
        withdrawal.taxFen,
      )}，实到 ¥${yuanOf(withdrawal.netFen)}）？通过后立即打款到${withdrawal.targetLabel}。`,
      confirmText: '通过',
    })
    if (!confirmed) return false
    return run(
      withdrawal.id,
      () => operatorWalletApi.decide({ withdrawalId: withdrawal.id, approve: true }),
      '已通过',
    )
  }
  const reject = async (withdrawal: OperatorWithdrawal, reason: string) => {
    const problem = rejectReasonProblem(reason)
    if (problem) {
      showToast(problem)
      return false
    }
    const confirmed = await showModal({
      title: '驳回提现',
      content: `确认驳回${withdrawal.expert.name}的提现 ¥${yuanOf(withdrawal.grossFen)}？金额退回专家余额，专家会看到驳回原因。`,
      confirmText: '驳回',
    })
    if (!confirmed) return false
    return run(
      withdrawal.id,
      () =>
        operatorWalletApi.decide({
          withdrawalId: withdrawal.id,
          approve: false,
          reason: reason.trim(),
        }),
      '已驳回',
    )
  }
  return { busyId, approve, reject }
}

/** Yesterday in China time (`2026-11-19`): the last day a provider's statement is complete for. */
export function chinaYesterday(now: number = Date.now()): string {
  return new Date(now + 8 * 3600_000 - 24 * 3600_000).toISOString().slice(0, 10)
}

/** The last `count` quarters in China time, newest first (`2026Q4`, `2026Q3`, ...). */
export function recentQuarters(count = 4, now: number = Date.now()): string[] {
  const china = new Date(now + 8 * 3600_000)
  let year = china.getUTCFullYear()
  let quarter = Math.floor(china.getUTCMonth() / 3) + 1
  const quarters: string[] = []
  for (let index = 0; index < count; index += 1) {
    quarters.push(`${year}Q${quarter}`)
    quarter -= 1
    if (quarter === 0) {
      quarter = 4
      year -= 1
    }
  }
  return quarters
}

/** 对账: the results kept (differences first), and comparing one day again. */
export function useReconciliation() {
  const results = useResource('reconciliations', () => operatorWalletApi.reconciliations(1, 5))
  const [busy, setBusy] = useState(false)
  const reconcile = async (date: string) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) {
      showToast('日期格式不正确')
      return
    }
    setBusy(true)
    try {
      const result = await operatorWalletApi.reconcile(date)
      showToast(
        result.differences.length === 0 ? '对账一致' : `发现 ${result.differences.length} 处差异`,
      )
      await results.reload()
    } catch (error) {
      showToast(describeError(error))
    } finally {
      setBusy(false)
    }
  }
  return { results, busy, reconcile }
}

/** 下载收入报表: the quarter's CSV, fetched with the operator's token and saved by the browser. */
export function useIncomeReport() {
  const [busy, setBusy] = useState(false)
  const download = async (quarter: string) => {
    if (!INCOME_REPORT_QUARTER_RE.test(quarter)) return
    setBusy(true)
    try {
      const file = await operatorWalletApi.downloadIncomeReport(quarter)
      if (!saveDownloadedFile(file, `收入报表-${quarter}.csv`)) showToast('请在浏览器中下载')
    } catch (error) {
      showToast(describeError(error, '下载失败，请稍后重试'))
    } finally {
      setBusy(false)
    }
  }
  return { busy, download }
}

// --- 提现限额 --------------------------------------------------------------------------------------

/** The words of 提现限额 that are not the contract's (its rules' messages are WALLET_MESSAGES). */
export const WALLET_LIMITS_TEXTS = {
  title: '提现限额',
  edit: '修改',
  save: '保存',
  cancel: '取消',
  saved: '提现限额已保存',
  confirmTitle: '修改提现限额',
  newOnly:
    '只影响之后申请的新提现；已在审核中或打款中的提现不受影响，今日已提现的金额仍计入今日限额。',
  hints: {
    perTransferFen: '一笔提现最多多少；商户平台的单笔限额须不低于此值',
    perDayFen: `每位专家每天（北京时间）最多提现多少，至多 ¥${yuanOf(WECHAT_PERSON_DAY_MAX_FEN)}：微信支付商家转账给同一用户每日最多 20,000 元，不可提升`,
    platformPerDayFen: '所有专家每天合计最多提现多少；须不高于商户平台的商户每日额度',
    reviewAboveFen: '单笔超过此金额需运营审核后打款；不低于单笔限额时不需审核',
  } satisfies Record<WalletLimitField, string>,
  /** What the threshold means with this per-transfer limit. */
  review: (limits: Pick<WalletLimitSettings, 'perTransferFen' | 'reviewAboveFen'>) =>
    noReview(limits) ? '不需审核' : `超过 ¥${yuanOf(limits.reviewAboveFen)} 需审核`,
} as const

/** Every withdrawal is at most the per-transfer limit: a threshold at or above it sends none to 审核. */
export const noReview = (limits: Pick<WalletLimitSettings, 'perTransferFen' | 'reviewAboveFen'>) =>
  limits.reviewAboveFen >= limits.perTransferFen

/** What the form shows for each limit: 元 with two decimals. */
export type LimitsTyped = Record<WalletLimitField, string>

export function limitsTyped(limits: WalletLimitSettings): LimitsTyped {
  return Object.fromEntries(
    WALLET_LIMIT_FIELDS.map((field) => [field, yuanOf(limits[field])]),
  ) as LimitsTyped
}

const FIELD_MESSAGES: Record<WalletLimitField, string> = {
  perTransferFen: WALLET_MESSAGES.limitPerTransfer,
  perDayFen: WALLET_MESSAGES.limitPerDay,
  platformPerDayFen: WALLET_MESSAGES.limitPlatformPerDay,
  reviewAboveFen: WALLET_MESSAGES.limitReviewAbove,
}

export type LimitsProblem = { kind: 'problem'; field: WalletLimitField; message: string }
export type LimitsCheck = { kind: 'ok'; limits: WalletLimitSettings } | LimitsProblem

/**
 * The typed 元 as integer fen (SPEC section 5's amount: two decimals at most, never rounded), then
 * the contract's own rules (WalletLimitSettingsInputSchema) in its words: the first problem found,
 * with the field it is about, before anything is sent.
 */
export function checkLimits(typed: LimitsTyped): LimitsCheck {
  const fen: Partial<WalletLimitSettings> = {}
  for (const field of WALLET_LIMIT_FIELDS) {
    const value = yuanToFen(typed[field])
    if (value === null) return { kind: 'problem', field, message: FIELD_MESSAGES[field] }
    fen[field] = value
  }
  const result = z.safeParse(WalletLimitSettingsInputSchema, fen)
  if (result.success) return { kind: 'ok', limits: result.data }
  const issue = result.error.issues[0]!
  const field = WALLET_LIMIT_FIELDS.find((name) => name === issue.path[0]) ?? 'perTransferFen'
  return { kind: 'problem', field, message: issue.message }
}

/** 提现限额: the limits as they are, and saving new ones (checked, then confirmed). */
export function useWalletLimits() {
  const limits = useResource('operator-wallet-limits', () => operatorWalletApi.limits())
  const [busy, setBusy] = useState(false)
  /** Whether they were saved; a problem found before sending is the form's to show by its field. */
  const save = async (typed: LimitsTyped): Promise<LimitsProblem | 'saved' | 'not-saved'> => {
    const check = checkLimits(typed)
    if (check.kind === 'problem') return check
    const next = check.limits
    const confirmed = await showModal({
      title: WALLET_LIMITS_TEXTS.confirmTitle,
      content: `${WALLET_LIMIT_FIELDS.map(
        (field) => `${WALLET_LIMIT_LABELS[field]} ¥${yuanOf(next[field])}`,
      ).join('，')}（${WALLET_LIMITS_TEXTS.review(next)}）。${WALLET_LIMITS_TEXTS.newOnly}`,
      confirmText: WALLET_LIMITS_TEXTS.save,
    })
    if (!confirmed) return 'not-saved'
    setBusy(true)
    try {
      const saved = await act(() => operatorWalletApi.setLimits(next), WALLET_LIMITS_TEXTS.saved)
      if (saved === null) return 'not-saved'
      limits.replace(saved)
      return 'saved'
    } finally {
      setBusy(false)
    }
  }
  return { limits, busy, save }
}
