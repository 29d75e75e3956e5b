import { useCallback, useState } from 'react'
import { showModal, showToast } from '@/platform/ui'
import { deleteAccount, sendOwnCode, signOut } from '@/services/auth'
import { useAppStore } from '@/stores/app-store'
import { PAGES, authNavigation } from '../auth-navigation'
import { codeRule } from '../form-rules'
import { useField, type Field } from './use-field'
import { useSmsCode, type SmsCodeButton } from './use-sms-code'
import { useSubmit } from './use-submit'

export const DELETE_TEXT = {
  consentRequired: '请先阅读并勾选“我已阅读并同意注销”',
  confirmTitle: '确认注销账号',
  confirmContent: '注销后账号无法恢复，个人资料将被删除。确定注销吗？',
  done: '账号已注销',
} as const

export interface DeleteAccountView {
  signedIn: boolean
  /** Where the code goes: 138****8000 (the app never holds the full number). */
  mobileMasked: string | null
  code: Field
  sms: SmsCodeButton
  agreed: boolean
  setAgreed: (agreed: boolean) => void
  agreementError: string | null
  submitting: boolean
  error: string | null
  submit: () => void
}

export function useDeleteAccount(): DeleteAccountView {
  const signedIn = useAppStore((state) => state.hasLogin)
  const profileMobile = useAppStore((state) => state.profile?.mobileMasked ?? null)
  const [sentTo, setSentTo] = useState<string | null>(null)
  const [showAll, setShowAll] = useState(false)
  const [agreed, setAgreedState] = useState(false)
  const [agreementError, setAgreementError] = useState<string | null>(null)
  const code = useField(codeRule, showAll)
  const submission = useSubmit('注销失败，请稍后重试')

  const requestCode = useCallback(async () => {
    const answer = await sendOwnCode('delete')
    setSentTo(answer.mobileMasked)
    return answer
  }, [])
  const sms = useSmsCode(requestCode)

  const setAgreed = useCallback((next: boolean) => {
    setAgreedState(next)
    if (next) setAgreementError(null)
  }, [])

  const submit = useCallback(() => {
    setShowAll(true)
    if (!code.valid) return
    if (!agreed) {
      setAgreementError(DELETE_TEXT.consentRequired)
      showToast(DELETE_TEXT.consentRequired)
      return
    }
    submission.run(async () => {
      const confirmed = await showModal({
        title: DELETE_TEXT.confirmTitle,
        content: DELETE_TEXT.confirmContent,
        confirmText: '确定注销',
      })
      if (!confirmed) return
      await deleteAccount(code.value)
      // The server has revoked every token of the account: only this device's copy is left.
      await signOut({ revoke: false })
      showToast(DELETE_TEXT.done)
      await authNavigation.reLaunch(PAGES.home)
    })
  }, [code, agreed, submission])

  return {
    signedIn,
    mobileMasked: sentTo ?? profileMobile,
    code,
    sms,
    agreed,
    setAgreed,
    agreementError,
    submitting: submission.submitting,
    error: submission.error,
    submit,
  }
}
