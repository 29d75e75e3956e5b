import { useCallback, useState } from 'react'
import { showModal, showToast } from '@/platform/ui'
import { signOut } from '@/services/auth'
import { navigate, routeUrl, switchTab } from '@/services/navigate'
import { idCardStatusText } from '@/services/profile'
import { useAppStore } from '@/stores/app-store'
import type { SetupEntry } from '../entries'

export interface SetupModel {
  signedIn: boolean
  /** 138****8000, or null when no phone is bound or signed out. */
  mobileMasked: string | null
  /** 已实名 (verified by the server), 已绑定 or 未绑定. */
  idCardText: string
  busy: boolean
  open: (entry: SetupEntry) => void
  logout: () => void
}

/** 设置: opens each entry (through login when needed) and signs out after a confirmation. */
export function useSetup(): SetupModel {
  const signedIn = useAppStore((state) => state.hasLogin)
  const profile = useAppStore((state) => state.profile)
  const [busy, setBusy] = useState(false)

  const open = useCallback(
    (entry: SetupEntry) => {
      if (entry.needsLogin && !signedIn) void navigate('login', { redirect: routeUrl(entry.route) })
      else void navigate(entry.route)
    },
    [signedIn],
  )

  const logout = useCallback(() => {
    if (busy) return
    setBusy(true)
    void (async () => {
      try {
        const confirmed = await showModal({
          title: '退出登录',
          content: '确定要退出当前账号吗？',
          confirmText: '退出',
        })
        if (!confirmed) return
        await signOut()
        showToast('已退出登录')
        await switchTab('user')
      } finally {
        setBusy(false)
      }
    })()
  }, [busy])

  return {
    signedIn,
    mobileMasked: signedIn ? (profile?.mobileMasked ?? null) : null,
    idCardText: idCardStatusText(signedIn ? profile : null),
    busy,
    open,
    logout,
  }
}
