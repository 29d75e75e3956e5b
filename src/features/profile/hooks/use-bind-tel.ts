import { useCallback, useState } from 'react'
import { CODE_RULES, LOGIN_PASSWORD_RULES, MOBILE_RULES } from '@/components/form/rules'
import { useForm, type FieldProps } from '@/components/form/use-form'
import { usePhoneSmsCode, useSmsCode, type SmsCode } from '@/components/form/use-sms-code'
import { showToast } from '@/platform/ui'
import { sendOwnCode } from '@/services/auth'
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
  /** After success: the new number, masked. */
  done: { mobileMasked: string | null } | null
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
  const [done, setDone] = useState<{ mobileMasked: string | null } | null>(null)
  const form = useForm(
    {
      password: { rules: LOGIN_PASSWORD_RULES },
      oldCode: { rules: CODE_RULES },
      mobile: { rules: MOBILE_RULES },
      code: { rules: CODE_RULES },
    },
    { fallback: '绑定失败，请稍后重试' },
  )
  const sendOld = useCallback(() => sendOwnCode('verify-old'), [])
  const oldSms = useSmsCode(sendOld)
  const sms = usePhoneSmsCode(form, 'mobile', sendBindCode)

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
      setDone({ mobileMasked: profile.mobileMasked })
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
    done,
    finish: () => void back('user'),
  }
}
