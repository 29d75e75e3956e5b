import { create } from 'zustand'
import { createJSONStorage, persist } from 'zustand/middleware'
import { taroStorage } from '@/platform/storage'

export interface AppState {
  /** Whether pages must send a signed-out user to login; a product setting, so not persisted. */
  forcedLogin: boolean
  hasLogin: boolean
  userName: string
  login: (userName: string) => void
  logout: () => void
}

export const APP_STORAGE_KEY = 'yx-app'
const VERSION = 1

export function migrateApp(persisted: unknown): Pick<AppState, 'hasLogin' | 'userName'> {
  if (typeof persisted !== 'object' || persisted === null) return { hasLogin: false, userName: '' }
  const record = persisted as { hasLogin?: unknown; userName?: unknown }
  return {
    hasLogin: record.hasLogin === true,
    userName: typeof record.userName === 'string' ? record.userName : '',
  }
}

export const useAppStore = create<AppState>()(
  persist(
    (set) => ({
      forcedLogin: false,
      hasLogin: false,
      userName: '',
      login: (userName) => set({ hasLogin: true, userName }),
      logout: () => set({ hasLogin: false, userName: '' }),
    }),
    {
      name: APP_STORAGE_KEY,
      storage: createJSONStorage(() => taroStorage),
      version: VERSION,
      // Restoring "signed in" must agree with the restored token, so both are persisted.
      partialize: (state) => ({ hasLogin: state.hasLogin, userName: state.userName }),
      migrate: migrateApp,
    },
  ),
)
