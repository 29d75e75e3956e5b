import { useEffect, useRef, useState } from 'react'
import { REASONS } from '@contract/reasons'
import {
  ID_CARD_RULES,
  REAL_NAME_RULES,
  normaliseIdCard,
  required,
  rule,
} from '@/components/form/rules'
import { useForm, type FieldProps } from '@/components/form/use-form'
import { useResource } from '@/hooks/use-resource'
import { showToast } from '@/platform/ui'
import {
  appealIdCard,
  bindIdCard,
  listBoundCards,
  listIdCardAppeals,
  refreshProfile,
  verifyIdCard,
  type BoundCard,
  type IdCardAppeal,
} from '@/services/profile'
import { email, mobile, rangeLength } from '@/utils/validators'

export const APPEAL_RULES = {
  reason: [
    required('请填写申诉说明'),
    rule((value) => rangeLength(value.trim(), [5, 500]), '申诉说明 5–500 个字'),
  ],
  contact: [
    required('请填写联系方式'),
    rule((value) => mobile(value.trim()) || email(value.trim()), '请填写正确的手机号或邮箱'),
  ],
}

export type IdCardState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'form' }
  /** The number is bound elsewhere: the appeal form, with the typed name and number kept. */
  | { status: 'appeal' }
  | { status: 'bound'; card: BoundCard }

export interface IdCardModel {
  state: IdCardState
  realName: FieldProps
  idNumber: FieldProps
  submitting: boolean
  /** The server refused the card: its message. */
  formError: string | null
  /** The refusal was 该身份证已被其他账号绑定 (id-card.taken): offer 申诉 instead of a dead end. */
  canAppeal: boolean
  submit: () => void
  retry: () => void
  /** The person's appeals, newest first, with the operator's status. */
  appeals: IdCardAppeal[]
  openAppeal: () => void
  closeAppeal: () => void
  reason: FieldProps
  contact: FieldProps
  appealSubmitting: boolean
  appealError: string | null
  submitAppeal: () => void
  /** 去实名核验 on a bound card: the provider's answer, or why it could not ask (未配置实名核验). */
  verifying: boolean
  verifyError: string | null
  verify: () => void
}

/**
 * 实名认证: the bound card (masked by the server; 已绑定, or 已实名 once a provider verified it) or the
 * form. The full number lives only in this page's state while typed and is cleared once the server
 * has it; it never reaches a store or a log. A number bound to another account leads to an appeal.
 */
export function useIdCard(): IdCardModel {
  const [appeals, setAppeals] = useState<IdCardAppeal[]>([])
  const form = useForm({
    realName: { rules: REAL_NAME_RULES },
    idNumber: { rules: ID_CARD_RULES, normalise: normaliseIdCard },
  })
  const appeal = useForm(
    { reason: { rules: APPEAL_RULES.reason }, contact: { rules: APPEAL_RULES.contact } },
    { fallback: '申诉提交失败，请稍后重试' },
  )
  const verification = useForm({}, { fallback: '实名核验失败，请稍后重试' })
  const alive = useRef(true)

  useEffect(() => {
    alive.current = true
    return () => {
      alive.current = false
    }
  }, [])

  const cards = useResource(
    'bound-cards',
    async (signal) => {
      // The appeals are extra: a failure to list them leaves the page usable.
      listIdCardAppeals({ loading: false }).then(
        (list) => !signal.aborted && setAppeals(list),
        () => undefined,
      )
      const list = await listBoundCards()
      return list.find((item) => item.kind === 'idcard') ?? null
    },
    { errorMessage: '加载失败' },
  )
  // The card is the one thing loaded; form, appeal and a card bound here are this page's own steps.
  const [step, setStep] = useState<IdCardState | null>(null)
  const state: IdCardState =
    step ??
    (cards.status === 'ready'
      ? cards.data
        ? { status: 'bound', card: cards.data }
        : { status: 'form' }
      : cards.status === 'error'
        ? { status: 'error', message: cards.message }
        : { status: 'loading' })

  const submit = () => {
    const { values } = form
    form.submit(async () => {
      const card = await bindIdCard(values.realName.trim(), values.idNumber)
      if (!alive.current) return
      form.setValue('idNumber', '')
      form.setValue('realName', '')
      setStep({ status: 'bound', card })
      showToast('身份证已绑定')
      // 我的 and 设置 show the card's state from the profile.
      refreshProfile({ loading: false, quietOffline: true }).catch(() => undefined)
    })
  }

  const submitAppeal = () => {
    const card = form.values
    const { values } = appeal
    appeal.submit(async () => {
      const recorded = await appealIdCard({
        realName: card.realName.trim(),
        idCard: card.idNumber,
        reason: values.reason.trim(),
        contact: values.contact.trim(),
      })
      if (!alive.current) return
      setAppeals((list) => [recorded, ...list.filter((item) => item.id !== recorded.id)])
      appeal.setValue('reason', '')
      form.setSubmitError(null)
      setStep({ status: 'form' })
      showToast('申诉已提交')
    })
  }

  const verify = () => {
    verification.run(async () => {
      const card = await verifyIdCard()
      if (!alive.current) return
      setStep({ status: 'bound', card })
      refreshProfile({ loading: false, quietOffline: true }).catch(() => undefined)
    })
  }

  return {
    state,
    realName: form.field('realName'),
    idNumber: form.field('idNumber'),
    submitting: form.submitting,
    formError: form.submitError,
    canAppeal: form.submitReason === REASONS.idCardTaken,
    submit,
    retry: () => {
      setStep(null)
      void cards.reload()
    },
    appeals,
    openAppeal: () => setStep({ status: 'appeal' }),
    closeAppeal: () => setStep({ status: 'form' }),
    reason: appeal.field('reason'),
    contact: appeal.field('contact'),
    appealSubmitting: appeal.submitting,
    appealError: appeal.submitError,
    submitAppeal,
    verifying: verification.submitting,
    verifyError: verification.submitError,
    verify,
  }
}
