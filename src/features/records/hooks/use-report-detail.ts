import { useCallback, useState } from 'react'
import { getReportDetail, type ReportDetail } from '@/services/records'

export type { ReportDetail }
import { useResource, type Resource } from '@/hooks/use-resource'
import { unlockTicket } from '../unlock-ticket'

export interface ReportDetailModel {
  report: Resource<ReportDetail>
  /** The ticket that opened it (a private report), also what 取消隐私 needs. */
  ticket: string | null
  /** After UnlockPanel: load again with the new ticket. */
  unlocked: (ticket: string) => void
}

/**
 * 报告详情. A private report comes back `locked` without a ticket; a ticket earned in the last few
 * minutes (unlock-ticket.ts) is sent along so the person is not asked twice in a row.
 */
export function useReportDetail(reportId: string): ReportDetailModel {
  const [ticket, setTicket] = useState<string | null>(() => unlockTicket())
  const report = useResource(
    `${reportId}:${ticket ?? ''}`,
    () => getReportDetail(reportId, ticket ?? undefined),
    { errorMessage: '加载失败，请检查网络后重试' },
  )
  const unlocked = useCallback((next: string) => setTicket(next), [])
  return { report, ticket, unlocked }
}
