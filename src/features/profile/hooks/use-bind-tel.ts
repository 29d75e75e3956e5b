import { CODE_RULES, MOBILE_RULES } from '@/components/form/rules'
import { useForm, type FieldProps } from '@/components/form/use-form'
import { usePhoneSmsCode, type SmsCode } from '@/components/form/use-sms-code'
import { showToast } from '@/platform/ui'
import { back } from '@/services/navigate'
import { bindPhone, sendBindCode } from '@/services/profile'
import { useAppStore } from '@/stores/app-store'

export interface BindTelModel {
  /** The phone on file, masked; null when none is bound. */
  currentMasked: string | null
  mobile: FieldProps
  code: FieldProps
  sms: SmsCode
  submitting: boolean
  formError: string | null
  submit: () => void
}

/** 绑定手机号: a code goes to the new number, and binding with it replaces the old one. */
export function useBindTel(): BindTelModel {
  const currentMasked = useAppStore((state) => state.profile?.mobileMasked ?? null)
  const form = useForm({ mobile: { rules: MOBILE_RULES }, code: { rules: CODE_RULES } })
  const sms = usePhoneSmsCode(form, 'mobile', sendBindCode)

  const submit = () => {
    const { values } = form
    form.submit(async () => {
      await bindPhone(values.mobile, values.code)
      form.setValue('code', '')
      showToast('手机号已绑定', { icon: 'success' })
      setTimeout(() => void back('user'), 800)
    })
  }

  return {
    currentMasked,
    mobile: form.field('mobile'),
    code: form.field('code'),
    sms,
    submitting: form.submitting,
    formError: form.submitError,
    submit,
  }
}
