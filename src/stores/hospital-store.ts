import { create } from 'zustand'
import { createJSONStorage, persist } from 'zustand/middleware'
import { taroStorage } from '@/platform/storage'

/**
 * 数据切换中心: which hospital's records 我的影像 and 我的报告 show (null: 全部, the default).
 * Remembered on this phone with the account that chose it, so another account starts at 全部.
 */
export interface ChosenHospital {
  userId: string
  hospitalId: string
  name: string
}

export interface HospitalChoiceState {
  chosen: ChosenHospital | null
  choose: (chosen: ChosenHospital | null) => void
}

export const HOSPITAL_STORAGE_KEY = 'yx-hospital'

export const useHospitalChoice = create<HospitalChoiceState>()(
  persist(
    (set) => ({
      chosen: null,
      choose: (chosen) => set({ chosen }),
    }),
    {
      name: HOSPITAL_STORAGE_KEY,
      storage: createJSONStorage(() => taroStorage),
      version: 1,
      partialize: (state) => ({ chosen: state.chosen }),
      migrate: () => ({ chosen: null }),
    },
  ),
)

/** The chosen hospital for this account, or null for 全部. */
export function chosenHospitalFor(userId: string | null | undefined): ChosenHospital | null {
  const chosen = useHospitalChoice.getState().chosen
  return chosen && userId && chosen.userId === userId ? chosen : null
}
