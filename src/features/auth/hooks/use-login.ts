import { useCallback, useMemo, useState } from 'react'
import { canLoginWithWechat, getWechatLoginCode, WechatLoginError } from '@/platform/wechat-login'
import { showToast } from '@/platform/ui'
import {
  loginWithCode,
  loginWithPassword,
  sendSmsCode,
  signIn,
  wechatLogin,
  type Session,
} from '@/services/auth'
import { goAfterLogin, PAGES, readRedirect, withRedirect } from '../auth-navigation'
import { UserFacingError } from '../error-text'
import { MESSAGES, codeRule, loginPasswordRule, mobileRule } from '../form-rules'
import { useField, type Field } from './use-field'
import { useSmsCode, type SmsCodeButton } from './use-sms-code'
import { useSubmit } from './use-submit'

export type LoginMode = 'password' | 'sms' | 'qr'

export const EXPIRED_NOTE = '登录已过期，请重新登录'

export interface LoginOptions {
  /** WeChat login on the mini-program (the iOS variant offers no third-party login). */
  thirdParty: boolean
  /** Desktop browser: offer the scan-login QR code, first. */
  qr: boolean
}

export interface LoginView {
  modes: LoginMode[]
  mode: LoginMode
  setMode: (mode: LoginMode) => void
  /** Shown when the session expired (`autoLogin=1`). */
  expiredNote: string | null
  mobile: Field
  password: Field
  code: Field
  sms: SmsCodeButton
  agreed: boolean
  setAgreed: (agreed: boolean) => void
  agreementError: string | null
  submitting: boolean
  error: string | null
  submit: () => void
  wechat: { available: boolean; login: () => void }
  /** Scan login confirmed on the phone: same ending as any login. */
  finish: (session: Session) => Promise<void>
  registerUrl: string
  forgotUrl: string
}

/** Everything the login pages do; the pages only draw it. */
export function useLogin(
  params: Record<string, string | undefined>,
  options: LoginOptions,
): LoginView {
  const redirect = useMemo(() => readRedirect(params.redirect), [params.redirect])
  const modes = useMemo<LoginMode[]>(
    () => (options.qr ? ['qr', 'password', 'sms'] : ['password', 'sms']),
    [options.qr],
  )
  const [mode, setModeState] = useState<LoginMode>(modes[0])
  const [showAll, setShowAll] = useState(false)
  const [agreed, setAgreedState] = useState(false)
  const [agreementError, setAgreementError] = useState<string | null>(null)
  const mobile = useField(mobileRule, showAll)
  const password = useField(loginPasswordRule, showAll && mode === 'password')
  const code = useField(codeRule, showAll && mode === 'sms')
  const submission = useSubmit('登录失败，请稍后重试')

  const ready = useCallback(() => {
    if (mobile.valid) return true
    mobile.reveal()
    return false
  }, [mobile])
  const requestCode = useCallback(() => sendSmsCode(mobile.value, 'login'), [mobile.value])
  const sms = useSmsCode(requestCode, ready)

  const setMode = useCallback(
    (next: LoginMode) => {
      setModeState(next)
      setShowAll(false)
      submission.setError(null)
    },
    [submission],
  )

  const setAgreed = useCallback((next: boolean) => {
    setAgreedState(next)
    if (next) setAgreementError(null)
  }, [])

  const finish = useCallback(
    async (session: Session) => {
      signIn(session)
      showToast('登录成功')
      await goAfterLogin(redirect)
    },
    [redirect],
  )

  const checkAgreement = useCallback(() => {
    if (agreed) return true
    setAgreementError(MESSAGES.agreementRequired)
    showToast(MESSAGES.agreementRequired)
    return false
  }, [agreed])

  const submit = useCallback(() => {
    if (mode === 'qr') return
    setShowAll(true)
    const second = mode === 'password' ? password : code
    if (!mobile.valid || !second.valid) return
    if (!checkAgreement()) return
    submission.run(async () => {
      const session =
        mode === 'password'
          ? await loginWithPassword(mobile.value, password.value)
          : await loginWithCode(mobile.value, code.value)
      await finish(session)
    })
  }, [mode, mobile, password, code, checkAgreement, submission, finish])

  const loginWithWechat = useCallback(() => {
    if (!checkAgreement()) return
    submission.run(async () => {
      let wxCode: string
      try {
        wxCode = await getWechatLoginCode()
      } catch (error) {
        if (error instanceof WechatLoginError)
          throw new UserFacingError(`微信登录失败：${error.errMsg}`)
        throw error
      }
      await finish(await wechatLogin(wxCode))
    })
  }, [checkAgreement, submission, finish])

  return {
    modes,
    mode,
    setMode,
    expiredNote: params.autoLogin === '1' ? EXPIRED_NOTE : null,
    mobile,
    password,
    code,
    sms,
    agreed,
    setAgreed,
    agreementError,
    submitting: submission.submitting,
    error: submission.error,
    submit,
    wechat: { available: options.thirdParty && canLoginWithWechat(), login: loginWithWechat },
    finish,
    registerUrl: withRedirect(PAGES.register, redirect),
    forgotUrl: PAGES.forgotPassword,
  }
}
