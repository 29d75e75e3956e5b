import Taro from '@tarojs/taro'
import { useCallback, useMemo, useState } from 'react'
import { showToast } from '@/platform/ui'
import { register, sendSmsCode, signIn } from '@/services/auth'
import { PAGES, authNavigation, readRedirect, withRedirect } from '../auth-navigation'
import {
  MESSAGES,
  codeRule,
  mobileRule,
  newPasswordRule,
  passwordStrength,
  type PasswordStrength,
} from '../form-rules'
import { useField, type Field } from './use-field'
import { useSmsCode, type SmsCodeButton } from './use-sms-code'
import { useSubmit } from './use-submit'

export interface RegisterView {
  mobile: Field
  code: Field
  password: Field
  /** Null until something is typed. */
  strength: PasswordStrength | null
  sms: SmsCodeButton
  agreed: boolean
  setAgreed: (agreed: boolean) => void
  agreementError: string | null
  submitting: boolean
  error: string | null
  submit: () => void
  /** 已有账号？去登录: back to the login page that opened this one, else a fresh one. */
  goToLogin: () => void
}

/** Register: phone + code + password + agreement, then signed in and on to reg-info. */
export function useRegister(params: Record<string, string | undefined>): RegisterView {
  const redirect = useMemo(() => readRedirect(params.redirect), [params.redirect])
  const [showAll, setShowAll] = useState(false)
  const [agreed, setAgreedState] = useState(false)
  const [agreementError, setAgreementError] = useState<string | null>(null)
  const mobile = useField(mobileRule, showAll)
  const code = useField(codeRule, showAll)
  const password = useField(newPasswordRule, showAll)
  const submission = useSubmit('注册失败，请稍后重试')

  const ready = useCallback(() => {
    if (mobile.valid) return true
    mobile.reveal()
    return false
  }, [mobile])
  const requestCode = useCallback(() => sendSmsCode(mobile.value, 'register'), [mobile.value])
  const sms = useSmsCode(requestCode, ready)

  const setAgreed = useCallback((next: boolean) => {
    setAgreedState(next)
    if (next) setAgreementError(null)
  }, [])

  const submit = useCallback(() => {
    setShowAll(true)
    if (!mobile.valid || !code.valid || !password.valid) return
    if (!agreed) {
      setAgreementError(MESSAGES.agreementRequired)
      showToast(MESSAGES.agreementRequired)
      return
    }
    submission.run(async () => {
      const session = await register({
        mobile: mobile.value,
        code: code.value,
        password: password.value,
        agreed: true,
      })
      signIn(session)
      showToast('注册成功')
      await authNavigation.redirectTo(withRedirect(PAGES.regInfo, redirect))
    })
  }, [mobile, code, password, agreed, submission, redirect])

  return {
    mobile,
    code,
    password,
    strength: password.value === '' ? null : passwordStrength(password.value),
    sms,
    agreed,
    setAgreed,
    agreementError,
    submitting: submission.submitting,
    error: submission.error,
    submit,
    goToLogin: () => {
      const stack = Taro.getCurrentPages()
      const previous = stack.length > 1 ? stack[stack.length - 2].route : undefined
      const navigation = previous?.replace(/^\//, '').startsWith('pages/login/')
        ? authNavigation.navigateBack()
        : authNavigation.redirectTo(withRedirect(PAGES.login, redirect))
      void navigation.catch(() => undefined)
    },
  }
}
