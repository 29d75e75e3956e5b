import { create } from 'zustand'
import { createJSONStorage, persist } from 'zustand/middleware'
import { REASONS } from '@contract/reasons'
import { taroStorage } from '@/platform/storage'
import { errorReason } from '@/services/http'
import { useAppStore } from '@/stores/app-store'

/**
 * 当前就诊人: whose records 我的影像 and 我的报告 show. Kept with the id of the account that chose it,
 * so another account signing in on this phone starts at 本人 instead of asking for a person the
 * server would refuse. The server still checks the link at every request (contract/main/family.ts).
 */
export interface ChosenPerson {
  /** The signed-in account that chose. */
  userId: string
  /** A member's personId (never the caller: 本人 is stored as null). */
  personId: string
  /** What the switcher shows: 女儿 张*三. */
  label: string
}

export interface PersonState {
  chosen: ChosenPerson | null
  choose: (chosen: ChosenPerson | null) => void
}

export const PERSON_STORAGE_KEY = 'yx-person'

export const usePersonStore = create<PersonState>()(
  persist(
    (set) => ({
      chosen: null,
      choose: (chosen) => set({ chosen }),
    }),
    {
      name: PERSON_STORAGE_KEY,
      storage: createJSONStorage(() => taroStorage),
      version: 1,
      partialize: (state) => ({ chosen: state.chosen }),
      migrate: () => ({ chosen: null }),
    },
  ),
)

/** The chosen member for the signed-in account, or null for 本人. */
export function useCurrentPerson(): ChosenPerson | null {
  const userId = useAppStore((state) => state.profile?.id ?? null)
  const chosen = usePersonStore((state) => state.chosen)
  return chosen && userId !== null && chosen.userId === userId ? chosen : null
}

/** Back to 本人 (the member is gone, or the server no longer lets the caller see them). */
export function resetToSelf(): void {
  usePersonStore.getState().choose(null)
}

/**
 * A list call for the chosen person: when the server says the caller no longer manages them (the
 * member ended it from their own phone; reason family.not-managed), the page goes back to 本人 and
 * the refusal still shows.
 */
export async function forPerson<T>(call: Promise<T>): Promise<T> {
  try {
    return await call
  } catch (error) {
    if (errorReason(error) === REASONS.familyNotManaged) resetToSelf()
    throw error
  }
}
