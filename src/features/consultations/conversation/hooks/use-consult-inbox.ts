import { usePagedList } from '@/components/refresh-list'
import {
  type ConsultCard,
  type ConsultTab,
  type ExpertConsultTab,
  listExpertConsultations,
  listMyConsultations,
} from '@/services/consultations'
import { useAppStore } from '@/stores/app-store'

export interface InboxRow {
  card: ConsultCard
  /** Whose side the caller is on in it. */
  side: 'patient' | 'expert'
}

/** The tabs that have a conversation (an unpaid order has none yet). */
const PATIENT_TABS: readonly ConsultTab[] = ['waiting', 'active', 'done', 'closed']
const EXPERT_TABS: readonly ExpertConsultTab[] = ['waiting', 'active', 'done']
const PER_TAB = 50

/** Unread first, then the newest. */
export function orderInbox(rows: readonly InboxRow[]): InboxRow[] {
  return [...rows].sort(
    (a, b) =>
      Number(b.card.unread > 0) - Number(a.card.unread > 0) ||
      b.card.createdAt.localeCompare(a.card.createdAt),
  )
}

/**
 * 咨询消息: one row per consultation with its unread count, mine as a patient and (for an expert)
 * the ones I answer. There is no list call for conversations yet, so this reads the first
 * PER_TAB of every tab of 我的咨询 and 患者咨询 at once and merges them (one page: it loads
 * everything on 刷新). A dedicated call ordered by the last message, carrying it, is proposed in
 * the report; this hook is the one place to switch over.
 */
export function useConsultInbox() {
  const isExpert = useAppStore((state) => state.profile?.role === 'expert')
  return usePagedList<InboxRow>(
    async (page) => {
      if (page > 1) return { items: [], total: 0 }
      const mine = PATIENT_TABS.map((tab) =>
        listMyConsultations({ tab, page: 1, pageSize: PER_TAB }).then((answer) =>
          answer.items.map((card) => ({ card, side: 'patient' as const })),
        ),
      )
      const answering = isExpert
        ? EXPERT_TABS.map((tab) =>
            listExpertConsultations({ tab, page: 1, pageSize: PER_TAB }).then((answer) =>
              answer.items.map((card) => ({ card, side: 'expert' as const })),
            ),
          )
        : []
      const rows = (await Promise.all([...mine, ...answering])).flat()
      const seen = new Set<string>()
      const unique = rows.filter((row) => {
        const key = `${row.side}:${row.card.id}`
        if (seen.has(key)) return false
        seen.add(key)
        return true
      })
      const items = orderInbox(unique)
      return { items, total: items.length }
    },
    { pageSize: 1000 },
  )
}
