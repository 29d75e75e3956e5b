import { useState } from 'react'
import {
  type ConsultState,
  decideComplaint as decideEndpoint,
  PLATFORM_SHARE_MAX_BP,
} from '@contract/main/consultations'
import { usePagedList } from '@/components/refresh-list'
import { useResource } from '@/hooks/use-resource'
import { showModal, showToast } from '@/platform/ui'
import { describeError } from '@/services/api'
import { type OperatorConsult, operatorConsultationsApi } from '@/services/operator-consultations'
import { yuanText, yuanToFen } from '@/utils/money'
import { reasonProblem } from './reason'
import { act, useRowAction } from './use-operator'

/*
 * 咨询订单 in 运营后台: consultations by state or 投诉, deciding a complaint (the server refuses a
 * second decision with 409: the list reloads and shows it as it is now), the platform's share and
 * the ledger check.
 */

const PAGE_SIZE = 20

export type ConsultFilter = { state: ConsultState } | { disputed: true } | { all: true }

export function useOperatorConsultations(filter: ConsultFilter) {
  const [counts, setCounts] = useState<{
    byState: Partial<Record<ConsultState, number>>
    disputed: number
  } | null>(null)
  const list = usePagedList<OperatorConsult>(
    async (page, pageSize) => {
      const answer = await operatorConsultationsApi.list(
        'state' in filter
          ? { state: filter.state }
          : 'disputed' in filter
            ? { disputed: true }
            : {},
        page,
        pageSize,
      )
      setCounts({ byState: answer.counts, disputed: answer.disputed })
      return { items: answer.items, total: answer.total }
    },
    { pageSize: PAGE_SIZE },
  )
  return { list, counts }
}

export const decisionNoteProblem = (note: string) =>
  reasonProblem(decideEndpoint.input.shape.note, note.trim())

export type RefundChoice = 'all' | 'part' | 'none'

/** What the operator chose, as fen, or the reason it is not a refund the server would take. */
export function refundFenOf(
  choice: RefundChoice,
  typed: string,
  paidFen: number,
): { fen: number } | { problem: string } {
  if (choice === 'all') return { fen: paidFen }
  if (choice === 'none') return { fen: 0 }
  const fen = yuanToFen(typed)
  if (fen === null || fen <= 0) return { problem: '请输入退款金额（元，最多两位小数）' }
  if (fen > paidFen) return { problem: `退款金额不能超过实付金额 ${yuanText(paidFen)}` }
  return { fen }
}

/** 处理投诉: confirmed, one row at a time, the list reloaded after it and after a 409. */
export function useComplaintDecision(reload: () => Promise<void>) {
  const { busyId, run } = useRowAction(reload)
  const decide = async (consult: OperatorConsult, refundFen: number, note: string) => {
    const problem = decisionNoteProblem(note)
    if (problem) {
      showToast(problem)
      return false
    }
    const what =
      refundFen === 0
        ? `不退款，费用结算给${consult.expert.name}医生`
        : refundFen >= consult.paidFen
          ? `全额退款 ${yuanText(refundFen)} 给患者`
          : `退款 ${yuanText(refundFen)} 给患者，其余结算给${consult.expert.name}医生`
    const confirmed = await showModal({
      title: '处理投诉',
      content: `确认${what}？处理说明患者和专家都会看到，处理后不能更改。`,
      confirmText: '确认处理',
    })
    if (!confirmed) return false
    return run(
      consult.id,
      () =>
        operatorConsultationsApi.decide({
          consultationId: consult.id,
          refundFen,
          note: note.trim(),
        }),
      '已处理',
    )
  }
  return { busyId, decide }
}

/** 元 per 100 of a percent: 20 → 2000 bp; null when not a number in range (two decimals at most). */
export function shareBpOf(percent: string): number | null {
  const match = /^(\d{1,2}|100)(?:\.(\d{1,2}))?$/.exec(percent.trim())
  if (!match) return null
  const bp = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'))
  return bp <= PLATFORM_SHARE_MAX_BP ? bp : null
}

export const percentOf = (bp: number) => `${bp / 100}`

/** 平台分成 and 账本核对: the settings, saving the share, 立即核对. */
export function useMoneySettings() {
  const settings = useResource('operator-money', () => operatorConsultationsApi.money())
  const [busy, setBusy] = useState(false)

  const saveShare = async (percent: string) => {
    const bp = shareBpOf(percent)
    if (bp === null) {
      showToast(`平台分成应在 0–${PLATFORM_SHARE_MAX_BP / 100}% 之间`)
      return false
    }
    const confirmed = await showModal({
      title: '平台分成',
      content: `确认将平台分成设为 ${percentOf(bp)}%？只影响之后提交的新订单。`,
      confirmText: '保存',
    })
    if (!confirmed) return false
    setBusy(true)
    try {
      return (
        (await act(() => operatorConsultationsApi.updateShare(bp), '已保存', settings.reload)) !==
        null
      )
    } finally {
      setBusy(false)
    }
  }

  const check = async () => {
    setBusy(true)
    try {
      const result = await operatorConsultationsApi.checkLedger()
      showToast(result.ok ? '账本核对通过' : `发现 ${result.problems.length} 个问题`)
      settings.replace((current) => ({ ...current, ledgerCheck: result }))
    } catch (error) {
      showToast(describeError(error))
    } finally {
      setBusy(false)
    }
  }

  return { settings, busy, saveShare, check }
}
