import { useCallback, useMemo, useRef, useState } from 'react'
import { useResource } from '@/hooks/use-resource'
import { askConsultSubscription } from '@/platform/subscribe'
import { CONSENT_TEXT_VERSIONS, recordConsent } from '@/services/consents'
import { showToast } from '@/platform/ui'
import { describeError } from '@/services/api'
import {
  CONSULT_CONSENT_VERSION,
  CONSULT_MESSAGES,
  type ConsultQuote,
  type ConsultService,
  createConsultation,
  getConsultQuote,
} from '@/services/consultations'
import { applicationInput, applyProblems, examineProblems, firstProblem } from '../draft'
import type { ConsultDraft } from '../draft-store'
import { useConsultDraft } from './use-consult-draft'
import { type PayModel, usePay } from './use-pay'

/** Which earlier page can fix what the summary found wrong. */
export type FixPage = 'consultApplication' | 'examine'

export interface SubmitModel {
  draft: ConsultDraft
  quote:
    | { status: 'loading' }
    | { status: 'error'; message: string; retry: () => void }
    | { status: 'ready'; data: ConsultQuote }
  consent: boolean
  setConsent: (on: boolean) => void
  /** 请阅读并同意… once 提交并支付 was tapped without the tick. */
  consentError: string | null
  /** What an earlier page must fix first, and which page. */
  incomplete: { message: string; page: FixPage } | null
  submitting: boolean
  submit: () => Promise<void>
  pay: PayModel
}

/**
 * 会诊申请信息: the summary, price and consent; 提交并支付 creates the consultation with the consent
 * ticked for this text version, clears the draft, then pays. Without the separate consent nothing
 * is sent (PIPL art. 29).
 */
export function useSubmit(
  expertId: string,
  service: ConsultService,
  onFinished: (consultationId: string, paid: boolean) => void,
): SubmitModel {
  const { draft, clear } = useConsultDraft(expertId, service)
  const [consent, setConsentState] = useState(false)
  const [consentError, setConsentError] = useState<string | null>(null)
  const [submitting, setSubmitting] = useState(false)
  // What was sent stays on screen under the payment sheet once the draft is cleared.
  const [sent, setSent] = useState<ConsultDraft | null>(null)
  const sending = useRef(false)
  const pay = usePay(onFinished)
  const quote = useResource(`${expertId}:${service}`, () => getConsultQuote({ expertId, service }))

  const shown = sent ?? draft
  const incomplete = useMemo(() => {
    if (sent) return null
    const applyFirst = firstProblem(applyProblems(draft, null))
    if (applyFirst) return { message: applyFirst, page: 'consultApplication' as const }
    const examineFirst = firstProblem(examineProblems(draft, service))
    return examineFirst ? { message: examineFirst, page: 'examine' as const } : null
  }, [sent, draft, service])

  const setConsent = useCallback((on: boolean) => {
    setConsentState(on)
    if (on) setConsentError(null)
  }, [])

  const submit = useCallback(async () => {
    if (sending.current || quote.status !== 'ready') return
    if (incomplete) return showToast(incomplete.message)
    if (quote.data.unavailable) return showToast(quote.data.unavailable)
    if (!consent) {
      setConsentError(CONSULT_MESSAGES.consentRequired)
      return showToast(CONSULT_MESSAGES.consentRequired)
    }
    sending.current = true
    setSubmitting(true)
    try {
      // On the tap itself, before any request: WeChat asks only from a user's tap.
      if (await askConsultSubscription()) {
        // The consent ledger keeps it (隐私与授权 can withdraw it); never blocks the submit.
        void recordConsent({
          purpose: 'subscribe',
          version: CONSENT_TEXT_VERSIONS.subscribe,
          targetId: null,
          channel: '会诊申请信息 · 订阅进度通知',
        }).catch(() => undefined)
      }
      let created
      try {
        created = await createConsultation(
          applicationInput(draft, expertId, service, quote.data.priceFen, {
            accepted: true,
            version: CONSULT_CONSENT_VERSION,
          }),
        )
      } catch (error) {
        // The draft stays for another try; a new price or state shows after the reload.
        showToast(describeError(error, '提交失败，请稍后重试'))
        void quote.reload()
        return
      }
      setSent(draft)
      clear()
      await pay.start(created.id)
    } finally {
      sending.current = false
      setSubmitting(false)
    }
  }, [quote, incomplete, consent, draft, expertId, service, clear, pay])

  return {
    draft: shown,
    quote:
      quote.status === 'ready'
        ? { status: 'ready', data: quote.data }
        : quote.status === 'error'
          ? { status: 'error', message: quote.message, retry: () => void quote.reload() }
          : { status: 'loading' },
    consent,
    setConsent,
    consentError,
    incomplete,
    submitting,
    submit,
    pay,
  }
}
