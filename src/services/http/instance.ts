import { taroNavigator } from '@/platform/navigation'
import { currentPlatform } from '@/platform/runtime'
import { hideLoading, showLoading, showToast } from '@/platform/ui'
import { useAppStore } from '@/stores/app-store'
import { getAccessToken, useSessionStore } from '@/stores/session-store'
import { hostOf, systemId } from '../hosts'
import { createHttp } from './create-http'
import { exchangeRefreshToken } from './refresh'
import { taroTransport } from './taro-transport'
import type { RefreshResult } from './types'
import '../zod-setup'

/**
 * The app's instance. Relative URLs go to the main service unless a call names its own base
 * (services/api.ts does, per endpoint). A 401 also marks the app state signed out, so pages do not
 * keep showing a user whose token is gone.
 */
export const http = createHttp(
  {
    transport: taroTransport,
    ui: {
      showLoading: (title) => showLoading(title, true),
      hideLoading,
      toast: (title) => showToast(title),
    },
    session: {
      getAccessToken,
      getRefreshToken: () => useSessionStore.getState().token?.refresh_token ?? null,
      refresh: refreshStoredSession,
      // H5 tabs share localStorage but each keeps its own copy in memory: re-read what is stored.
      reload: async () => {
        await useSessionStore.persist.rehydrate()
        await useAppStore.persist.rehydrate()
      },
      clearToken: () => {
        useSessionStore.getState().clearToken()
        useAppStore.getState().logout()
      },
    },
    navigation: taroNavigator,
  },
  {
    baseUrl: hostOf('main'),
    systemId: systemId(),
    codeType: currentPlatform(),
  },
)

/** The app's refresh exchange, over the app's instance (see refresh.ts). */
export function refreshStoredSession(refreshToken: string): Promise<RefreshResult> {
  return exchangeRefreshToken(http, refreshToken)
}
