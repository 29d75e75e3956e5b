import { useCallback, useEffect, useState } from 'react'
import type { Agreement, AgreementKind } from '@contract/main/app'
import { currentSoftwareName } from '@/platform/runtime'
import { getAgreement } from '@/services/app-info'
import { isCancelled } from '@/services/http'

export type AgreementState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; agreement: Agreement }

export const AGREEMENT_TITLES: Record<AgreementKind, string> = {
  privacy: '隐私政策',
  user: '用户协议',
  expert: '专家协议',
}

export interface AgreementView {
  state: AgreementState
  retry: () => void
}

/** One agreement's text from the server, as the privacy-policy page loads its own. */
export function useAgreement(kind: AgreementKind): AgreementView {
  const [state, setState] = useState<AgreementState>({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    let alive = true
    setState({ status: 'loading' })
    getAgreement(kind, currentSoftwareName()).then(
      (agreement) => {
        if (alive) setState({ status: 'ready', agreement })
      },
      (error: unknown) => {
        if (alive && !isCancelled(error)) {
          setState({
            status: 'error',
            message: `${AGREEMENT_TITLES[kind]}加载失败，请检查网络后重试`,
          })
        }
      },
    )
    return () => {
      alive = false
    }
  }, [kind, attempt])

  const retry = useCallback(() => setAttempt((n) => n + 1), [])
  return { state, retry }
}
