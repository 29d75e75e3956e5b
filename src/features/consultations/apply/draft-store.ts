import { create } from 'zustand'
import { createJSONStorage, persist } from 'zustand/middleware'
import { taroStorage } from '@/platform/storage'
import { useSessionStore } from '@/stores/session-store'
import type { ConsultPicture } from '@/services/consultations'

/*
 * The whole application in progress (会诊申请 → 检查信息 → 会诊申请信息) as one draft per signed-in
 * account, expert and service, kept in Taro storage: a person who leaves (a call, the upload flow,
 * 身份证绑定) and comes back finds what they typed. Submitting clears it. The consent is never part
 * of it: it is ticked on the last page, each time, for the text on screen.
 */

/** A picture already uploaded (uploadConsultPicture): its id for the application, its url to show. */
export type DraftPicture = Pick<ConsultPicture, 'id' | 'url'>

/** An exam (its images) or a report chosen from the person's records. */
export interface ChosenRecord {
  kind: 'exam' | 'report'
  id: string
  examId: string
  title: string
  /** 医院 · 日期, what the summary shows under the title. */
  detail: string
  /** A private report, ticked on purpose. */
  private: boolean
}

export interface ExternalExamDraft {
  hospital: string
  /** YYYY-MM-DD, '' until chosen. */
  date: string
  type: string
  pictures: DraftPicture[]
}

export interface ConsultDraft {
  /** The 就诊人 (null until chosen; the form starts at 本人). */
  personId: string | null
  /** 本人 needs no personId on the application. */
  personSelf: boolean
  /** 本人 张* / 父亲 李*, for the summary. */
  personLabel: string
  chiefComplaint: string
  presentIllness: string
  pastHistory: string
  allergies: string
  questions: string
  seenOffline: boolean | null
  offlinePictures: DraftPicture[]
  records: ChosenRecord[]
  externalExams: ExternalExamDraft[]
  /** The record handed in from 影像详情 / 报告详情 already applied (so removing it sticks). */
  seeded: string | null
  updatedAt: string
}

export const EMPTY_DRAFT: ConsultDraft = {
  personId: null,
  personSelf: true,
  personLabel: '',
  chiefComplaint: '',
  presentIllness: '',
  pastHistory: '',
  allergies: '',
  questions: '',
  seenOffline: null,
  offlinePictures: [],
  records: [],
  externalExams: [],
  seeded: null,
  updatedAt: '',
}

/** A draft untouched this long is dropped at the next change: health details do not linger. */
export const DRAFT_KEEP_DAYS = 30

export type DraftPatch = Partial<ConsultDraft> | ((draft: ConsultDraft) => Partial<ConsultDraft>)

interface DraftState {
  drafts: Record<string, ConsultDraft>
  update: (key: string, patch: DraftPatch) => void
  clear: (key: string) => void
}

export const CONSULT_DRAFT_STORAGE_KEY = 'yx-consult-drafts'

export function draftKey(userId: string, expertId: string, service: string): string {
  return `${userId}:${expertId}:${service}`
}

function fresh(drafts: Record<string, ConsultDraft>, now: number): Record<string, ConsultDraft> {
  const limit = now - DRAFT_KEEP_DAYS * 24 * 3600 * 1000
  return Object.fromEntries(
    Object.entries(drafts).filter(([, draft]) => Date.parse(draft.updatedAt) >= limit),
  )
}

export const useConsultDraftStore = create<DraftState>()(
  persist(
    (set) => ({
      drafts: {},
      update: (key, patch) =>
        set((state) => {
          const current = state.drafts[key] ?? EMPTY_DRAFT
          const changes = typeof patch === 'function' ? patch(current) : patch
          const now = Date.now()
          return {
            drafts: {
              ...fresh(state.drafts, now),
              [key]: { ...current, ...changes, updatedAt: new Date(now).toISOString() },
            },
          }
        }),
      clear: (key) =>
        set((state) => {
          const { [key]: _gone, ...rest } = state.drafts
          return { drafts: rest }
        }),
    }),
    {
      name: CONSULT_DRAFT_STORAGE_KEY,
      storage: createJSONStorage(() => taroStorage),
      version: 1,
      partialize: (state) => ({ drafts: state.drafts }),
      migrate: () => ({ drafts: {} }),
    },
  ),
)

/*
 * The drafts hold health details (主诉, 病史, chosen records): signing out on this phone forgets
 * them all, so the next person to use it finds nothing of the last one's.
 */
useSessionStore.subscribe((state, previous) => {
  if (previous.token !== null && state.token === null) {
    useConsultDraftStore.setState({ drafts: {} })
  }
})
