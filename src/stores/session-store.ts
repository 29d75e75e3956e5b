import { create } from 'zustand'
import { createJSONStorage, persist } from 'zustand/middleware'
import type { Token } from '@contract/envelope'
import { taroStorage } from '@/platform/storage'

export interface SessionState {
  /** The token object the sign-on service returned (SPEC section 3); null when signed out. */
  token: Token | null
  setToken: (token: Token) => void
  clearToken: () => void
}

export const SESSION_STORAGE_KEY = 'yx-session'
const VERSION = 1

/**
 * Version 0 stored the bare access_token string (how the old app kept it); version 1 stores the
 * token object. Anything unreadable becomes "signed out" rather than a crash at start-up.
 */
export function migrateSession(persisted: unknown, version: number): Pick<SessionState, 'token'> {
  if (typeof persisted !== 'object' || persisted === null) return { token: null }
  const token: unknown = (persisted as { token?: unknown }).token
  if (version === 0 && typeof token === 'string' && token !== '') {
    return { token: { access_token: token } }
  }
  if (typeof token === 'object' && token !== null) {
    const accessToken: unknown = (token as { access_token?: unknown }).access_token
    if (typeof accessToken === 'string' && accessToken !== '') return { token: token as Token }
  }
  return { token: null }
}

export const useSessionStore = create<SessionState>()(
  persist(
    (set) => ({
      token: null,
      setToken: (token) => set({ token }),
      clearToken: () => set({ token: null }),
    }),
    {
      name: SESSION_STORAGE_KEY,
      storage: createJSONStorage(() => taroStorage),
      version: VERSION,
      partialize: (state) => ({ token: state.token }),
      migrate: migrateSession,
    },
  ),
)

/** The bearer token for the http layer; read outside React, so no hook. */
export function getAccessToken(): string | null {
  return useSessionStore.getState().token?.access_token ?? null
}
