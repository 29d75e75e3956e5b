import { useCallback, useState } from 'react'
import { usePagedList } from '@/components/refresh-list'
import { showModal, showToast } from '@/platform/ui'
import { describeError } from '@/services/api'
import {
  acceptConsultation,
  type ConsultCard,
  declineConsultation,
  type ExpertConsultTab,
  listExpertConsultations,
} from '@/services/consultations'
import { useLiveRefresh } from '../../conversation/hooks/use-live-refresh'
import { EXPERT_TEXTS as T } from '../texts'

const PAGE_SIZE = 10

/** One tab of 患者咨询 with the three tabs' counts (from the same answer). */
export function usePatientQuestions(tab: ExpertConsultTab) {
  const [counts, setCounts] = useState<Partial<Record<ExpertConsultTab, number>>>({})
  const list = usePagedList<ConsultCard>(
    async (page, pageSize) => {
      const answer = await listExpertConsultations({ tab, page, pageSize })
      setCounts(answer.counts)
      return { items: answer.items, total: answer.total }
    },
    { pageSize: PAGE_SIZE },
  )
  // New questions arrive while the list is open: the same source as the conversation.
  const { refresh } = list
  useLiveRefresh(() => void refresh())
  return { list, counts }
}

/** 接诊 and 不接诊 on one row at a time; the list (and its counts) reload after either. */
export function useConsultDecisions(reload: () => Promise<void>) {
  const [busyId, setBusyId] = useState<string | null>(null)

  const run = useCallback(
    async (id: string, change: () => Promise<unknown>, done: string) => {
      setBusyId(id)
      try {
        await change()
        showToast(done)
        return true
      } catch (error) {
        showToast(describeError(error))
        return false
      } finally {
        setBusyId(null)
        // Also after a refusal: another device (or the deadline) may have changed the row.
        await reload()
      }
    },
    [reload],
  )

  const accept = useCallback(
    async (card: ConsultCard) => {
      const confirmed = await showModal({
        title: T.acceptTitle,
        content: T.acceptContent(card.person.nameMasked),
        confirmText: T.accept,
      })
      if (!confirmed) return false
      return run(card.id, () => acceptConsultation(card.id), T.accepted)
    },
    [run],
  )

  const decline = useCallback(
    async (card: ConsultCard, reason: string) => {
      const confirmed = await showModal({
        title: T.declineTitle,
        content: T.declineContent,
        confirmText: T.decline,
      })
      if (!confirmed) return false
      return run(card.id, () => declineConsultation(card.id, reason.trim()), T.declined)
    },
    [run],
  )

  return { busyId, accept, decline }
}
