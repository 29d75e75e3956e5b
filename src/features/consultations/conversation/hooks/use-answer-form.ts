import { useRef, useState } from 'react'
import { z } from 'zod/mini'
import { answerConsultation as answerEndpoint } from '@contract/main/consultations'
import type { ReauthProof } from '@/components/reauth-sheet'
import { showToast } from '@/platform/ui'
import { describeError } from '@/services/api'
import { sendOwnCode } from '@/services/auth'
import type { ConsultService } from '@contract/main/expert-profiles'
import { answerConsultation, type ConsultMessage } from '@/services/consultations'
import { newClientId } from './use-consult-conversation'

export type AnswerField = 'findings' | 'opinion' | 'advice'
export type AnswerValues = Record<AnswerField, string>
export type SignProof = ReauthProof

/** Which fields the form asks, by service and whether the answer is already signed. */
export function answerFieldsOf(
  service: ConsultService,
  addendum: boolean,
): { name: AnswerField; required: boolean }[] {
  if (addendum) return [{ name: 'opinion', required: true }]
  if (service === 'imaging') {
    return [
      { name: 'findings', required: true },
      { name: 'opinion', required: true },
      { name: 'advice', required: true },
    ]
  }
  return [
    { name: 'opinion', required: true },
    { name: 'advice', required: false },
  ]
}

const FIELD_SCHEMA = answerEndpoint.input.shape.opinion

/** The contract's rule for one field (required, length, no invisible characters), in its words. */
export function answerProblem(
  values: AnswerValues,
  fields: { name: AnswerField; required: boolean }[],
) {
  for (const field of fields) {
    const value = values[field.name].trim()
    if (!field.required && value === '') continue
    const parsed = z.safeParse(FIELD_SCHEMA, value)
    if (!parsed.success) return parsed.error.issues[0]?.message ?? '请填写回复'
  }
  return null
}

export interface AnswerForm {
  values: AnswerValues
  setValue: (name: AnswerField, value: string) => void
  fields: { name: AnswerField; required: boolean }[]
  addendum: boolean
  /** The sign sheet is open (the fields passed their checks). */
  signing: boolean
  busy: boolean
  /** The server's words when signing failed (wrong password, 当前状态不能回复). */
  error: string | null
  openSign: () => void
  closeSign: () => void
  sign: (proof: SignProof) => Promise<boolean>
  sendCode: () => Promise<{ cooldownSeconds: number; mobileMasked: string }>
}

/**
 * The expert's signed answer (影像会诊: 影像所见, 会诊意见, 建议; 图文咨询: the opinion and optional
 * advice), or after it a 补充说明 through the same call. Signing re-enters the login password or an
 * SMS code; a retry after a lost answer keeps its clientId so the server keeps one.
 */
export function useAnswerForm({
  consultationId,
  service,
  addendum,
  onSigned,
}: {
  consultationId: string
  service: ConsultService
  addendum: boolean
  onSigned: (message: ConsultMessage) => void
}): AnswerForm {
  const empty: AnswerValues = { findings: '', opinion: '', advice: '' }
  const [values, setValues] = useState<AnswerValues>(empty)
  const [signing, setSigning] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const clientId = useRef<string | null>(null)
  const fields = answerFieldsOf(service, addendum)

  const setValue = (name: AnswerField, value: string) => {
    setValues((current) => ({ ...current, [name]: value }))
    // What is signed changed: a new send, not a retry of the last one.
    clientId.current = null
  }

  const openSign = () => {
    const problem = answerProblem(values, fields)
    if (problem) {
      showToast(problem)
      return
    }
    setError(null)
    setSigning(true)
  }

  const sign = async (proof: SignProof) => {
    clientId.current ??= newClientId()
    const text = (name: AnswerField) => values[name].trim()
    setBusy(true)
    setError(null)
    try {
      const message = await answerConsultation({
        consultationId,
        clientId: clientId.current,
        opinion: text('opinion'),
        ...(fields.some((field) => field.name === 'findings')
          ? { findings: text('findings') }
          : {}),
        ...(fields.some((field) => field.name === 'advice') && text('advice') !== ''
          ? { advice: text('advice') }
          : {}),
        ...proof,
      })
      clientId.current = null
      setValues(empty)
      setSigning(false)
      showToast('已签署并发送')
      onSigned(message)
      return true
    } catch (cause) {
      setError(describeError(cause, '签署失败，请重试'))
      return false
    } finally {
      setBusy(false)
    }
  }

  return {
    values,
    setValue,
    fields,
    addendum,
    signing,
    busy,
    error,
    openSign,
    closeSign: () => setSigning(false),
    sign,
    // The account's own phone: the app never sees its number. The contract has no purpose for
    // signing yet, so this asks for the owner check (verify-old); see the report on issue 21.
    sendCode: () => sendOwnCode('verify-old', { loading: false }),
  }
}
