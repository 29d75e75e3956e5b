import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import type { Agreement } from '@contract/main/app'
import { useResource } from '@/hooks/use-resource'
import { exitApp } from '@/platform/exit'
import { taroNavigator } from '@/platform/navigation'
import { canUseAgreePrivacyButton } from '@/platform/privacy'
import { currentSoftwareName } from '@/platform/runtime'
import { hideHomeButton } from '@/platform/ui'
import { getAgreement } from '@/services/app-info'
import { isCancelled } from '@/services/http'
import { recordConsent } from '@/services/consents'
import { usePolicyStore } from '@/stores/policy-store'
import { useSessionStore } from '@/stores/session-store'
import {
  acceptPolicy,
  modeFromParams,
  refusePolicy,
  type ConsentDeps,
  type PrivacyPageMode,
} from './privacy-consent'

export type AgreementState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; agreement: Agreement }

export interface PrivacyPolicyView {
  mode: PrivacyPageMode
  state: AgreementState
  retry: () => void
  /** Consent mode: whether the agree button records WeChat's privacy authorisation as well. */
  agreeWithWechat: boolean
  busy: boolean
  agree: () => void
  refuse: () => void
  /** Blocked after refusing: read the policy again. */
  reconsider: () => void
}

const LOAD_ERROR = '隐私政策加载失败，请检查网络后重试'

const consentDeps: ConsentDeps = {
  exitApp,
  reLaunch: taroNavigator.reLaunch,
  switchTab: taroNavigator.switchTab,
  acceptVersion: (version) => {
    usePolicyStore.getState().acceptVersion(version)
    // Signed in, the acceptance of a changed policy goes into the consent ledger (隐私与授权); it
    // never blocks the app, and a version the server does not have in force is refused there.
    if (useSessionStore.getState().token) {
      void recordConsent({
        purpose: 'privacy',
        version,
        targetId: null,
        channel: '隐私政策更新 · 同意并继续',
      }).catch(() => undefined)
    }
  },
}

/** Everything the privacy-policy page does; the page only draws it. */
export function usePrivacyPolicy(params: Record<string, string | undefined>): PrivacyPolicyView {
  const [mode, setMode] = useState<PrivacyPageMode>(() => modeFromParams(params))
  const [busy, setBusy] = useState(false)
  const agreeWithWechat = useMemo(() => canUseAgreePrivacyButton(), [])
  const alive = useRef(true)

  useEffect(() => {
    alive.current = true
    return () => {
      alive.current = false
    }
  }, [])

  useEffect(() => {
    if (mode.kind === 'consent') hideHomeButton()
  }, [mode.kind])

  // Blocked after refusing asks nothing; 再看看 (reconsider) asks again.
  const resource = useResource(
    mode.kind === 'blocked' ? null : mode.kind,
    () => getAgreement('privacy', currentSoftwareName()),
    { ignoreError: isCancelled },
  )
  const { reload } = resource
  const agreement = resource.status === 'ready' ? resource.data : null
  const failed = resource.status === 'error'
  const state = useMemo<AgreementState>(
    () =>
      agreement
        ? { status: 'ready', agreement }
        : failed
          ? { status: 'error', message: LOAD_ERROR }
          : { status: 'loading' },
    [agreement, failed],
  )
  const retry = useCallback(() => void reload(), [reload])

  const agree = useCallback(() => {
    if (state.status !== 'ready' || busy) return
    setBusy(true)
    void acceptPolicy(consentDeps, mode, state.agreement).finally(() => {
      if (alive.current) setBusy(false)
    })
  }, [state, mode, busy])

  const refuse = useCallback(() => {
    if (busy) return
    setBusy(true)
    // On platforms that cannot close, refusePolicy reopens this page in its blocked state.
    void refusePolicy(consentDeps).finally(() => {
      if (alive.current) setBusy(false)
    })
  }, [busy])

  const reconsider = useCallback(() => {
    setMode({ kind: 'consent', version: null })
  }, [])

  return { mode, state, retry, agreeWithWechat, busy, agree, refuse, reconsider }
}
