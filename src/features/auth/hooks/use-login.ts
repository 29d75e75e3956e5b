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
import { CODE_RULES, LOGIN_PASSWORD_RULES, MOBILE_RULES } from '@/components/form/rules'
import { useForm, type FieldProps } from '@/components/form/use-form'
import { usePhoneSmsCode, type SmsCode } from '@/components/form/use-sms-code'
import { UserFacingError } from '@/services/api'
import { navigate } from '@/services/navigate'
import { goAfterLogin, readRedirect, redirectParam } from '../auth-navigation'
import { useConsent, type Consent } from './use-consent'

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
  mobile: FieldProps
  password: FieldProps
  code: FieldProps
  sms: SmsCode
  consent: Consent
  submitting: boolean
  error: string | null
  submit: () => void
  wechat: { available: boolean; login: () => void }
  /** Scan login confirmed on the phone: same ending as any login. */
  finish: (session: Session) => Promise<void>
  goToRegister: () => void
  goToForgot: () => void
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
  const consent = useConsent()
  const form = useForm(
    {
      mobile: { rules: MOBILE_RULES },
      password: { rules: LOGIN_PASSWORD_RULES },
      code: { rules: CODE_RULES },
    },
    { fallback: '登录失败，请稍后重试' },
  )
  const sms = usePhoneSmsCode(form, 'mobile', (mobile) => sendSmsCode(mobile, 'login'))

  const setMode = (next: LoginMode) => {
    setModeState(next)
    form.hideErrors()
    form.setSubmitError(null)
  }

  const finish = useCallback(
    async (session: Session) => {
      signIn(session)
      showToast('登录成功')
      await goAfterLogin(redirect)
    },
    [redirect],
  )

  const submit = () => {
    if (mode === 'qr') return
    const { values } = form
    if (!form.validate(['mobile', mode === 'password' ? 'password' : 'code'])) return
    if (!consent.check()) return
    form.run(async () => {
      const session =
        mode === 'password'
          ? await loginWithPassword(values.mobile, values.password)
          : await loginWithCode(values.mobile, values.code)
      await finish(session)
    })
  }

  const loginWithWechat = () => {
    if (!consent.check()) return
    form.run(async () => {
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
  }

  return {
    modes,
    mode,
    setMode,
    expiredNote: params.autoLogin === '1' ? EXPIRED_NOTE : null,
    mobile: form.field('mobile'),
    password: form.field('password'),
    code: form.field('code'),
    sms,
    consent,
    submitting: form.submitting,
    error: form.submitError,
    submit,
    wechat: { available: options.thirdParty && canLoginWithWechat(), login: loginWithWechat },
    finish,
    goToRegister: () => void navigate('register', redirectParam(redirect)),
    goToForgot: () => void navigate('password', { mode: 'forgot' }),
  }
}
