import { useCallback } from 'react'
import { CONSULT_SERVICES, type ConsultService } from '@/services/consultations'
import { useAppStore } from '@/stores/app-store'
import {
  type ConsultDraft,
  type DraftPatch,
  draftKey,
  EMPTY_DRAFT,
  useConsultDraftStore,
} from '../draft-store'

export type { ConsultService }

export interface DraftHandle {
  draft: ConsultDraft
  update: (patch: DraftPatch) => void
  clear: () => void
}

/** A page parameter naming a service; anything else is no service. */
export function serviceOf(raw: string | undefined): ConsultService | null {
  return CONSULT_SERVICES.find((service) => service === raw) ?? null
}

/** This account's draft for this expert and service (one store, one entry each). */
export function useConsultDraft(expertId: string, service: ConsultService): DraftHandle {
  const userId = useAppStore((state) => state.profile?.id ?? 'signed-out')
  const key = draftKey(userId, expertId, service)
  const draft = useConsultDraftStore((state) => state.drafts[key]) ?? EMPTY_DRAFT
  const updateStore = useConsultDraftStore((state) => state.update)
  const clearStore = useConsultDraftStore((state) => state.clear)
  const update = useCallback((patch: DraftPatch) => updateStore(key, patch), [key, updateStore])
  const clear = useCallback(() => clearStore(key), [key, clearStore])
  return { draft, update, clear }
}
