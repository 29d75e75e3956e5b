import { useState } from 'react'
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
  WALLET_MESSAGES,
  type WithdrawalState,
  yuanOf,
} from '@/services/wallet'
import { reasonProblem } from './reason'
import { useRowAction } from './use-operator'

/*
 * 提现审核 in 运营后台 (issue 22): withdrawals by state with counts, 通过 / 驳回 (with the reason
 * the expert reads) for those waiting for 审核, the reconciliation of the provider's daily statement
 * with the ledger, and the quarterly income report per expert (CSV). The server decides each
 * withdrawal once: the loser of two operators gets 409 and the list is loaded again.
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
