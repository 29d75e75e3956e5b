import { useCallback } from 'react'
import { CODE_RULES } from '@/components/form/rules'
import { useForm } from '@/components/form/use-form'
import { useSmsCode } from '@/components/form/use-sms-code'
import { confirmClaim, sendClaimCode, type ClaimedExam } from '@/services/claims'

/**
 * The proof step shared by 影像查询 and a scanned film-bag code: an SMS code to the phone the
 * hospital recorded (the server chose it; the page only shows it masked), then the claim.
 */
export function useClaimCode(ticket: string | null, onClaimed: (exam: ClaimedExam) => void) {
  const form = useForm({ code: { rules: CODE_RULES } }, { fallback: '验证失败，请稍后重试' })
  const request = useCallback(() => {
    if (ticket === null) return Promise.reject(new Error('no claim ticket'))
    return sendClaimCode(ticket)
  }, [ticket])
  const sms = useSmsCode(request, { ready: ticket !== null })
  const submit = () =>
    form.submit(async () => {
      if (ticket === null) return
      onClaimed(await confirmClaim(ticket, form.values.code.trim()))
    })
  return {
    code: form.field('code'),
    sms,
    submit,
    submitting: form.submitting,
    error: form.submitError,
  }
}

export type ClaimCodeView = ReturnType<typeof useClaimCode>
