import { useCallback, useState } from 'react'
import { showToast } from '@/platform/ui'

/** Shown when a form is sent before the agreements are ticked (login, register). */
export const AGREEMENT_REQUIRED = '请先阅读并同意《用户协议》和《隐私政策》'

export interface Consent {
  agreed: boolean
  setAgreed: (agreed: boolean) => void
  /** Shown under the box after a send without it; cleared by ticking it. */
  error: string | null
  /** True when ticked; otherwise shows `message` under the box and as a toast. */
  check: () => boolean
}

/** A tick box a form needs before it is sent (the agreements, 我已阅读并同意注销). */
export function useConsent(message: string = AGREEMENT_REQUIRED): Consent {
  const [agreed, setAgreedState] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const setAgreed = useCallback((next: boolean) => {
    setAgreedState(next)
    if (next) setError(null)
  }, [])
  const check = () => {
    if (agreed) return true
    setError(message)
    showToast(message)
    return false
  }
  return { agreed, setAgreed, error, check }
}
