import { useMemo } from 'react'
import { CODE_RULES, MOBILE_RULES, NEW_PASSWORD_RULES } from '@/components/form/rules'
import { useForm, type FieldProps } from '@/components/form/use-form'
import { usePhoneSmsCode, type SmsCode } from '@/components/form/use-sms-code'
import { showToast } from '@/platform/ui'
import { register, sendSmsCode, signIn } from '@/services/auth'
import { back, redirect as redirectTo } from '@/services/navigate'
import { openedFromLogin, readRedirect, redirectParam } from '../auth-navigation'
import { useConsent, type Consent } from './use-consent'

export interface RegisterView {
  mobile: FieldProps
  code: FieldProps
  password: FieldProps
  sms: SmsCode
  consent: Consent
  submitting: boolean
  error: string | null
  submit: () => void
  /** 已有账号？去登录: back to the login page that opened this one, else a fresh one. */
  goToLogin: () => void
}

/** Register: phone + code + password + agreement, then signed in and on to reg-info. */
export function useRegister(params: Record<string, string | undefined>): RegisterView {
  const redirect = useMemo(() => readRedirect(params.redirect), [params.redirect])
  const consent = useConsent()
  const form = useForm(
    {
      mobile: { rules: MOBILE_RULES },
      code: { rules: CODE_RULES },
      password: { rules: NEW_PASSWORD_RULES },
    },
    { fallback: '注册失败，请稍后重试' },
  )
  const sms = usePhoneSmsCode(form, 'mobile', (mobile) => sendSmsCode(mobile, 'register'))

  const submit = () => {
    const { values } = form
    if (!form.validate() || !consent.check()) return
    form.run(async () => {
      const session = await register({
        mobile: values.mobile,
        code: values.code,
        password: values.password,
        agreed: true,
      })
      signIn(session)
      showToast('注册成功')
      await redirectTo('registerInfo', redirectParam(redirect))
    })
  }

  return {
    mobile: form.field('mobile'),
    code: form.field('code'),
    password: form.field('password'),
    sms,
    consent,
    submitting: form.submitting,
    error: form.submitError,
    submit,
    goToLogin: () => {
      void (openedFromLogin() ? back('user') : redirectTo('login', redirectParam(redirect)))
    },
  }
}
