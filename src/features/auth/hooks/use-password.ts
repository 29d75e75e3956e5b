import Taro from '@tarojs/taro'
import { useCallback, useEffect, useState } from 'react'
import { showToast } from '@/platform/ui'
import { changePassword, getPassword, sendSmsCode, signIn, signOut } from '@/services/auth'
import { useAppStore } from '@/stores/app-store'
import { PAGES, authNavigation, goBackOr } from '../auth-navigation'
import {
  MESSAGES,
  codeRule,
  confirmRule,
  mobileRule,
  newPasswordRule,
  passwordStrength,
  type FieldRule,
  type PasswordStrength,
} from '../form-rules'
import { useField, type Field } from './use-field'
import { useSmsCode, type SmsCodeButton } from './use-sms-code'
import { useSubmit } from './use-submit'

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
  password: Field
  confirm: Field
  strength: PasswordStrength | null
}

function useNewPassword(showAll: boolean, extra?: (value: string) => string | null) {
  const rule: FieldRule = {
    check: (next) => newPasswordRule.check(next) ?? extra?.(next) ?? null,
  }
  const password = useField(rule, showAll)
  const confirm = useField(
    confirmRule(() => password.value),
    showAll,
  )
  const fields: NewPasswordFields = {
    password,
    confirm,
    strength: password.value === '' ? null : passwordStrength(password.value),
  }
  return fields
}

export interface ChangePasswordView extends NewPasswordFields {
  signedIn: boolean
  /** Accounts made through WeChat have no password yet: then there is no old one to ask for. */
  needsOld: boolean
  old: Field
  submitting: boolean
  error: string | null
  submit: () => void
  forgotUrl: string
}

export function useChangePassword(): ChangePasswordView {
  const signedIn = useAppStore((state) => state.hasLogin)
  const needsOld = useAppStore((state) => state.profile?.hasPassword !== false)
  const [showAll, setShowAll] = useState(false)
  const old = useField(
    { check: (value) => (value === '' ? MESSAGES.oldPasswordRequired : null) },
    showAll,
  )
  const fields = useNewPassword(showAll, (value) =>
    needsOld && value !== '' && value === old.value ? MESSAGES.passwordSameAsOld : null,
  )
  const submission = useSubmit('修改失败，请稍后重试')

  useEffect(() => authNavigation.setTitle(PASSWORD_TEXT.changeTitle), [])

  const submit = useCallback(() => {
    setShowAll(true)
    if ((needsOld && !old.valid) || !fields.password.valid || !fields.confirm.valid) return
    submission.run(async () => {
      const session = await changePassword(
        needsOld
          ? { oldPassword: old.value, newPassword: fields.password.value }
          : { newPassword: fields.password.value },
      )
      signIn(session)
      showToast(PASSWORD_TEXT.changed, { duration: LEAVE_DELAY_MS })
      await wait(LEAVE_DELAY_MS)
      await goBackOr(PAGES.mine)
    })
  }, [needsOld, old, fields, submission])

  return {
    ...fields,
    signedIn,
    needsOld,
    old,
    submitting: submission.submitting,
    error: submission.error,
    submit,
    forgotUrl: PAGES.forgotPassword,
  }
}

export interface ForgotPasswordView extends NewPasswordFields {
  mobile: Field
  code: Field
  sms: SmsCodeButton
  submitting: boolean
  error: string | null
  submit: () => void
}

/**
 * 忘记密码: a code to the phone and a new password. Every session of the account ends on the server,
 * so a session on this device is cleared too, and the person logs in again with the new password.
 */
export function useForgotPassword(): ForgotPasswordView {
  const [showAll, setShowAll] = useState(false)
  const mobile = useField(mobileRule, showAll)
  const code = useField(codeRule, showAll)
  const fields = useNewPassword(showAll)
  const submission = useSubmit('重设失败，请稍后重试')

  useEffect(() => authNavigation.setTitle(PASSWORD_TEXT.forgotTitle), [])

  const ready = useCallback(() => {
    if (mobile.valid) return true
    mobile.reveal()
    return false
  }, [mobile])
  const requestCode = useCallback(() => sendSmsCode(mobile.value, 'reset'), [mobile.value])
  const sms = useSmsCode(requestCode, ready)

  const submit = useCallback(() => {
    setShowAll(true)
    if (!mobile.valid || !code.valid || !fields.password.valid || !fields.confirm.valid) return
    submission.run(async () => {
      await getPassword({
        mobile: mobile.value,
        code: code.value,
        password: fields.password.value,
      })
      if (useAppStore.getState().hasLogin) await signOut({ revoke: false })
      showToast(PASSWORD_TEXT.reset, { duration: LEAVE_DELAY_MS })
      await wait(LEAVE_DELAY_MS)
      // Opened from login: going back keeps the number typed there; otherwise open login afresh.
      if (Taro.getCurrentPages().length > 1) await authNavigation.navigateBack()
      else await authNavigation.redirectTo(PAGES.login)
    })
  }, [mobile, code, fields, submission])

  return {
    ...fields,
    mobile,
    code,
    sms,
    submitting: submission.submitting,
    error: submission.error,
    submit,
  }
}
