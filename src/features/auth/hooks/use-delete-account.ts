import { useCallback, useState } from 'react'
import { CODE_RULES } from '@/components/form/rules'
import { useForm, type FieldProps } from '@/components/form/use-form'
import { useSmsCode, type SmsCode } from '@/components/form/use-sms-code'
import { type OptionalResource, useResource } from '@/hooks/use-resource'
import { showModal, showToast } from '@/platform/ui'
import {
  deleteAccount,
  getKeptAfterDeletion,
  type KeptAfterDeletion,
  sendOwnCode,
  signOut,
} from '@/services/auth'
import { relaunch } from '@/services/navigate'
import { useAppStore } from '@/stores/app-store'
import { KEPT_TEXT } from '../deletion-terms'
import { useConsent, type Consent } from './use-consent'

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
  /** What would remain and until when (the server's retention schedule applied to this account). */
  kept: OptionalResource<KeptAfterDeletion[]>
  code: FieldProps
  sms: SmsCode
  consent: Consent
  submitting: boolean
  error: string | null
  submit: () => void
}

export function useDeleteAccount(): DeleteAccountView {
  const signedIn = useAppStore((state) => state.hasLogin)
  const profileMobile = useAppStore((state) => state.profile?.mobileMasked ?? null)
  const [sentTo, setSentTo] = useState<string | null>(null)
  const consent = useConsent(DELETE_TEXT.consentRequired)
  const form = useForm({ code: { rules: CODE_RULES } }, { fallback: '注销失败，请稍后重试' })
  const kept = useResource(signedIn ? 'kept-after-deletion' : null, () => getKeptAfterDeletion())

  const requestCode = useCallback(async () => {
    const answer = await sendOwnCode('delete')
    setSentTo(answer.mobileMasked)
    return answer
  }, [])
  const sms = useSmsCode(requestCode)

  const submit = () => {
    const code = form.values.code
    if (!form.validate() || !consent.check()) return
    // Nobody confirms a deletion without having been shown what it leaves behind.
    if (kept.status !== 'ready') {
      form.setSubmitError(KEPT_TEXT.notShown)
      return
    }
    form.run(async () => {
      const confirmed = await showModal({
        title: DELETE_TEXT.confirmTitle,
        content: DELETE_TEXT.confirmContent,
        confirmText: '确定注销',
      })
      if (!confirmed) return
      await deleteAccount(code)
      // The server has revoked every token of the account: only this device's copy is left.
      await signOut({ revoke: false })
      showToast(DELETE_TEXT.done)
      await relaunch('main')
    })
  }

  return {
    signedIn,
    mobileMasked: sentTo ?? profileMobile,
    kept,
    code: form.field('code'),
    sms,
    consent,
    submitting: form.submitting,
    error: form.submitError,
    submit,
  }
}
