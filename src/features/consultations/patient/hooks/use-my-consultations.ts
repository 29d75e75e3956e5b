import { useCallback } from 'react'
import { type PagedList, usePagedList } from '@/components/refresh-list'
import { showModal, showToast } from '@/platform/ui'
import { describeError } from '@/services/api'
import {
  type ConsultCard,
  type ConsultTab,
  deleteConsultation,
  listMyConsultations,
} from '@/services/consultations'

export type TabCounts = Partial<Record<ConsultTab, number>>

/** One tab of 我的咨询; the page mounts one per tab (keyed), so tabs never mix. */
export function useConsultList(
  tab: ConsultTab,
  onCounts: (counts: TabCounts) => void,
): PagedList<ConsultCard> {
  return usePagedList<ConsultCard>(async (page, pageSize) => {
    const answer = await listMyConsultations({ tab, page, pageSize })
    if (page === 1) onCounts(answer.counts)
    return { items: answer.items, total: answer.total }
  })
}

/** What 删除 says before it asks: the list forgets it, the record stays as the rules require. */
export const DELETE_CONFIRM = {
  title: '删除这条咨询',
  content:
    '删除后它不再出现在您的列表和专家主页的公开问答中。按医疗服务的规定，咨询记录会继续保存（对话 3 年、会诊意见 15 年），仅用于依法查询。',
  confirmText: '删除',
} as const

/** 删除 from the list (after the confirmation); answers whether it was deleted. */
export function useDeleteConsultation(): (id: string) => Promise<boolean> {
  return useCallback(async (id: string) => {
    if (!(await showModal(DELETE_CONFIRM))) return false
    try {
      await deleteConsultation(id)
      showToast('已删除')
      return true
    } catch (error) {
      showToast(describeError(error, '删除失败，请稍后重试'))
      return false
    }
  }, [])
}

/** States a person may delete from their list: the consultation is over. */
export function isEnded(state: ConsultCard['state']): boolean {
  return ['completed', 'cancelled', 'declined', 'expired'].includes(state)
}
