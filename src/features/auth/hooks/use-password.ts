import Taro from '@tarojs/taro'
import { useEffect } from 'react'
import {
  CODE_RULES,
  FORM_MESSAGES,
  MOBILE_RULES,
  NEW_PASSWORD_RULES,
  confirmRules,
  differentFrom,
  required,
} from '@/components/form/rules'
import { useForm, type FieldProps } from '@/components/form/use-form'
import { usePhoneSmsCode, type SmsCode } from '@/components/form/use-sms-code'
import { showToast } from '@/platform/ui'
import { changePassword, getPassword, sendSmsCode, signIn, signOut } from '@/services/auth'
import { back, navigate, redirect } from '@/services/navigate'
import { useAppStore } from '@/stores/app-store'
import { setTitle } from '../auth-navigation'

export type PasswordMode = 'change' | 'forgot'

export const PASSWORD_TEXT = {
  changeTitle: '修改密码',
  forgotTitle: '找回密码',
  changed: '密码已修改，其他设备已退出登录',
  reset: '密码已重设，请使用新密码登录',
} as const

/** How long the success toast stays before the page closes, so it can be read. */
export const LEAVE_DELAY_MS = 1500

export function passwordModeOf(params: Record<string, string | undefined>): PasswordMode {
  return params.mode === 'forgot' ? 'forgot' : 'change'
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

interface NewPasswordFields {
  password: FieldProps
  confirm: FieldProps
}

export interface ChangePasswordView extends NewPasswordFields {
  signedIn: boolean
  /** Accounts made through WeChat have no password yet: then there is no old one to ask for. */
  needsOld: boolean
  old: FieldProps
  submitting: boolean
  error: string | null
  submit: () => void
  goToForgot: () => void
}

export function useChangePassword(): ChangePasswordView {
  const signedIn = useAppStore((state) => state.hasLogin)
  const needsOld = useAppStore((state) => state.profile?.hasPassword !== false)
  const form = useForm(
    {
      old: { rules: needsOld ? [required(FORM_MESSAGES.oldPasswordRequired)] : [] },
      password: {
        rules: [...NEW_PASSWORD_RULES, differentFrom('old', FORM_MESSAGES.passwordSameAsOld)],
      },
      confirm: { rules: confirmRules('password') },
    },
    { fallback: '修改失败，请稍后重试' },
  )

  useEffect(() => setTitle(PASSWORD_TEXT.changeTitle), [])

  const submit = () => {
    const { values } = form
    form.submit(async () => {
      const session = await changePassword(
        needsOld
          ? { oldPassword: values.old, newPassword: values.password }
          : { newPassword: values.password },
      )
      signIn(session)
      showToast(PASSWORD_TEXT.changed, { duration: LEAVE_DELAY_MS })
      await wait(LEAVE_DELAY_MS)
      await back('user')
    })
  }

  return {
    signedIn,
    needsOld,
    old: form.field('old'),
    password: form.field('password'),
    confirm: form.field('confirm'),
    submitting: form.submitting,
    error: form.submitError,
    submit,
    goToForgot: () => void navigate('password', { mode: 'forgot' }),
  }
}

export interface ForgotPasswordView extends NewPasswordFields {
  mobile: FieldProps
  code: FieldProps
  sms: SmsCode
  submitting: boolean
  error: string | null
  submit: () => void
}

/**
 * 忘记密码: a code to the phone and a new password. Every session of the account ends on the server,
 * so a session on this device is cleared too, and the person logs in again with the new password.
 */
export function useForgotPassword(): ForgotPasswordView {
  const form = useForm(
    {
      mobile: { rules: MOBILE_RULES },
      code: { rules: CODE_RULES },
      password: { rules: NEW_PASSWORD_RULES },
      confirm: { rules: confirmRules('password') },
    },
    { fallback: '重设失败，请稍后重试' },
  )

  useEffect(() => setTitle(PASSWORD_TEXT.forgotTitle), [])

  const sms = usePhoneSmsCode(form, 'mobile', (mobile) => sendSmsCode(mobile, 'reset'))

  const submit = () => {
    const { values } = form
    form.submit(async () => {
      await getPassword({ mobile: values.mobile, code: values.code, password: values.password })
      if (useAppStore.getState().hasLogin) await signOut({ revoke: false })
      showToast(PASSWORD_TEXT.reset, { duration: LEAVE_DELAY_MS })
      await wait(LEAVE_DELAY_MS)
      // Opened from login: going back keeps the number typed there; otherwise open login afresh.
      if (Taro.getCurrentPages().length > 1) await back('user')
      else await redirect('login')
    })
  }

  return {
    mobile: form.field('mobile'),
    code: form.field('code'),
    password: form.field('password'),
    confirm: form.field('confirm'),
    sms,
    submitting: form.submitting,
    error: form.submitError,
    submit,
  }
}
