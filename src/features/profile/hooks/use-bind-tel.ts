import { useCallback, useState } from 'react'
import { REASONS } from '@contract/reasons'
import { CODE_RULES, LOGIN_PASSWORD_RULES, MOBILE_RULES } from '@/components/form/rules'
import { useForm, type FieldProps } from '@/components/form/use-form'
import { usePhoneSmsCode, useSmsCode, type SmsCode } from '@/components/form/use-sms-code'
import { showToast } from '@/platform/ui'
import { mergeUser, sendOwnCode, sendSmsCode } from '@/services/auth'
import { back } from '@/services/navigate'
import { bindPhone, sendBindCode } from '@/services/profile'
import { useAppStore } from '@/stores/app-store'

/** How the owner proves it is them before the phone changes. */
export type ProofMethod = 'password' | 'oldCode'

export const PROOF_LABELS: Record<ProofMethod, string> = {
  password: '登录密码',
  oldCode: '原手机号验证码',
}

export const BIND_TEL_TEXT = {
  done: '手机号已更换',
  merged: '账号已合并',
  signedOut: '为保护账号安全，其他设备已退出登录，需使用新手机号重新登录；原手机号会收到变更通知。',
} as const

export interface BindTelModel {
  /** The phone on file, masked; null when none is bound. */
  currentMasked: string | null
  /** The proofs this account can give; empty for a WeChat-only account without a password. */
  proofMethods: ProofMethod[]
  proof: ProofMethod | null
  setProof: (proof: ProofMethod) => void
  password: FieldProps
  oldCode: FieldProps
  /** The code to the current phone. */
  oldSms: SmsCode
  mobile: FieldProps
  code: FieldProps
  /** The code to the new phone. */
  sms: SmsCode
  submitting: boolean
  formError: string | null
  submit: () => void
  /**
   * A WeChat account (no phone yet) whose new number already has an account: that account can be
   * merged into this one, with a code to the number and that account's password.
   */
  canMerge: boolean
  merging: boolean
  openMerge: () => void
  closeMerge: () => void
  mergeCode: FieldProps
  mergeSms: SmsCode
  mergePassword: FieldProps
  submitMerge: () => void
  /** After success: the new number, masked, and whether accounts were merged. */
  done: { mobileMasked: string | null; merged: boolean } | null
  finish: () => void
}

/**
 * 绑定手机号: first proof of the current identity (the login password, or a code to the current
 * phone), then a code to the new number. The server signs out every other device and tells the
 * old phone; the page says so.
 */
export function useBindTel(): BindTelModel {
  const currentMasked = useAppStore((state) => state.profile?.mobileMasked ?? null)
  const hasPassword = useAppStore((state) => state.profile?.hasPassword ?? false)
  const proofMethods: ProofMethod[] = [
    ...(hasPassword ? (['password'] as const) : []),
    ...(currentMasked ? (['oldCode'] as const) : []),
  ]
  const [chosen, setProof] = useState<ProofMethod | null>(null)
  const proof = chosen && proofMethods.includes(chosen) ? chosen : (proofMethods[0] ?? null)
  const [done, setDone] = useState<BindTelModel['done']>(null)
  const [merging, setMerging] = useState(false)
  const form = useForm(
    {
      password: { rules: LOGIN_PASSWORD_RULES },
      oldCode: { rules: CODE_RULES },
      mobile: { rules: MOBILE_RULES },
      code: { rules: CODE_RULES },
      mergeCode: { rules: CODE_RULES },
      // Optional: an account made by code alone never set a password; the server says when needed.
      mergePassword: { rules: [] },
    },
    { fallback: '绑定失败，请稍后重试' },
  )
  const sendOld = useCallback(() => sendOwnCode('verify-old'), [])
  const oldSms = useSmsCode(sendOld)
  const sms = usePhoneSmsCode(form, 'mobile', sendBindCode)
  const mergeSms = usePhoneSmsCode(form, 'mobile', (mobile) => sendSmsCode(mobile, 'merge'))

  const submitMerge = () => {
    const { values } = form
    form.submit(async () => {
      const profile = await mergeUser({
        mobile: values.mobile,
        code: values.mergeCode,
        ...(values.mergePassword ? { password: values.mergePassword } : {}),
      })
      form.setValue('mergePassword', '')
      form.setValue('mergeCode', '')
      showToast(BIND_TEL_TEXT.merged, { icon: 'success' })
      setDone({ mobileMasked: profile.mobileMasked, merged: true })
    }, ['mobile', 'mergeCode'])
  }

  const submit = () => {
    const { values } = form
    const fields = proof === null ? [] : [proof]
    form.submit(async () => {
      const profile = await bindPhone({
        mobile: values.mobile,
        code: values.code,
        ...(proof === 'password' ? { password: values.password } : {}),
        ...(proof === 'oldCode' ? { oldCode: values.oldCode } : {}),
      })
      form.setValue('password', '')
      form.setValue('code', '')
      form.setValue('oldCode', '')
      showToast(BIND_TEL_TEXT.done, { icon: 'success' })
      setDone({ mobileMasked: profile.mobileMasked, merged: false })
    }, [...fields, 'mobile', 'code'])
  }

  return {
    currentMasked,
    proofMethods,
    proof,
    setProof: (next) => {
      setProof(next)
      form.hideErrors()
      form.setSubmitError(null)
    },
    password: form.field('password'),
    oldCode: form.field('oldCode'),
    oldSms,
    mobile: form.field('mobile'),
    code: form.field('code'),
    sms,
    submitting: form.submitting,
    formError: form.submitError,
    submit,
    canMerge: currentMasked === null && form.submitReason === REASONS.mobileInUse,
    merging,
    openMerge: () => {
      setMerging(true)
      form.setSubmitError(null)
    },
    closeMerge: () => {
      setMerging(false)
      form.setSubmitError(null)
    },
    mergeCode: form.field('mergeCode'),
    mergeSms,
    mergePassword: form.field('mergePassword'),
    submitMerge,
    done,
    finish: () => void back('user'),
  }
}
