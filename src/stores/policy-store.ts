import { create } from 'zustand'
import { createJSONStorage, persist } from 'zustand/middleware'
import { taroStorage } from '@/platform/storage'

export interface PolicyState {
  /** The privacy-policy version the user agreed to, exactly as the server gave it; null before. */
  acceptedVersion: string | null
  acceptVersion: (version: string) => void
  clearAcceptedVersion: () => void
}

export const POLICY_STORAGE_KEY = 'yx-policy'
const VERSION = 1

/** Version 0 kept the version under `version` and sometimes as a number. */
export function migratePolicy(
  persisted: unknown,
  version: number,
): Pick<PolicyState, 'acceptedVersion'> {
  if (typeof persisted !== 'object' || persisted === null) return { acceptedVersion: null }
  const record = persisted as { acceptedVersion?: unknown; version?: unknown }
  const value = version === 0 ? record.version : record.acceptedVersion
  if (typeof value === 'string' && value !== '') return { acceptedVersion: value }
  if (typeof value === 'number') return { acceptedVersion: String(value) }
  return { acceptedVersion: null }
}

export const usePolicyStore = create<PolicyState>()(
  persist(
    (set) => ({
      acceptedVersion: null,
      acceptVersion: (acceptedVersion) => set({ acceptedVersion }),
      clearAcceptedVersion: () => set({ acceptedVersion: null }),
    }),
    {
      name: POLICY_STORAGE_KEY,
      storage: createJSONStorage(() => taroStorage),
      version: VERSION,
      partialize: (state) => ({ acceptedVersion: state.acceptedVersion }),
      migrate: migratePolicy,
    },
  ),
)
