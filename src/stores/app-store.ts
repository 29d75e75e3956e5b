import { create } from 'zustand'
import { createJSONStorage, persist } from 'zustand/middleware'
import type { UserProfile } from '@contract/sso/auth'
import { taroStorage } from '@/platform/storage'

export interface AppState {
  /** Whether pages must send a signed-out user to login; a product setting, so not persisted. */
  forcedLogin: boolean
  hasLogin: boolean
  userName: string
  /** Who is signed in, as the server last described them (masked phone only); null when signed out. */
  profile: UserProfile | null
  login: (userName: string) => void
  /** Signed in as `profile` (login, register, profile saved): hasLogin, userName and profile agree. */
  setProfile: (profile: UserProfile) => void
  logout: () => void
}

export const APP_STORAGE_KEY = 'yx-app'
const VERSION = 2

/** What a person is called in the app: nickname, else the masked phone. */
export function displayNameOf(profile: UserProfile): string {
  return profile.nickname.trim() || profile.mobileMasked || '用户'
}

type PersistedApp = Pick<AppState, 'hasLogin' | 'userName' | 'profile'>

/** Version 1 had no profile; a stored profile without an id is unreadable and dropped. */
export function migrateApp(persisted: unknown): PersistedApp {
  if (typeof persisted !== 'object' || persisted === null) {
    return { hasLogin: false, userName: '', profile: null }
  }
  const record = persisted as { hasLogin?: unknown; userName?: unknown; profile?: unknown }
  const profile = record.profile
  const readable =
    typeof profile === 'object' &&
    profile !== null &&
    typeof (profile as { id?: unknown }).id === 'string'
  return {
    hasLogin: record.hasLogin === true,
    userName: typeof record.userName === 'string' ? record.userName : '',
    profile: readable ? (profile as UserProfile) : null,
  }
}

export const useAppStore = create<AppState>()(
  persist(
    (set) => ({
      forcedLogin: false,
      hasLogin: false,
      userName: '',
      profile: null,
      login: (userName) => set({ hasLogin: true, userName }),
      setProfile: (profile) => set({ hasLogin: true, userName: displayNameOf(profile), profile }),
      logout: () => set({ hasLogin: false, userName: '', profile: null }),
    }),
    {
      name: APP_STORAGE_KEY,
      storage: createJSONStorage(() => taroStorage),
      version: VERSION,
      // Restoring "signed in" must agree with the restored token, so both are persisted.
      partialize: (state) => ({
        hasLogin: state.hasLogin,
        userName: state.userName,
        profile: state.profile,
      }),
      migrate: migrateApp,
    },
  ),
)
