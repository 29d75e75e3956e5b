import { useMemo, useState } from 'react'
import { GENDERS } from '@contract/sso/auth'
import { NICKNAME_RULES } from '@/components/form/rules'
import { useForm, type FieldProps } from '@/components/form/use-form'
import { showToast } from '@/platform/ui'
import { modifyUser } from '@/services/auth'
import { useAppStore } from '@/stores/app-store'
import { goAfterLogin, readRedirect } from '../auth-navigation'

export type Gender = (typeof GENDERS)[number]

export const GENDER_OPTIONS: readonly { value: Gender; label: string }[] = [
  { value: 'male', label: '男' },
  { value: 'female', label: '女' },
  { value: 'unknown', label: '保密' },
]

export interface RegInfoView {
  signedIn: boolean
  nickname: FieldProps
  gender: Gender
  setGender: (gender: Gender) => void
  submitting: boolean
  error: string | null
  save: () => void
  skip: () => void
}

/** After registering: a nickname and gender, both optional (跳过 goes on without them). */
export function useRegInfo(params: Record<string, string | undefined>): RegInfoView {
  const redirect = useMemo(() => readRedirect(params.redirect), [params.redirect])
  const profile = useAppStore((state) => state.profile)
  const signedIn = useAppStore((state) => state.hasLogin)
  // The server names new accounts itself (用户8000); offering that as the start is friendlier than empty.
  const form = useForm(
    { nickname: { rules: NICKNAME_RULES, initial: profile?.nickname ?? '' } },
    { fallback: '保存失败，请稍后重试' },
  )
  const [gender, setGender] = useState<Gender>('unknown')

  const save = () => {
    const nickname = form.values.nickname.trim()
    form.submit(async () => {
      await modifyUser({ nickname, gender })
      showToast('已保存')
      await goAfterLogin(redirect)
    })
  }

  const skip = () => {
    if (form.submitting) return
    void goAfterLogin(redirect)
  }

  return {
    signedIn,
    nickname: form.field('nickname'),
    gender,
    setGender,
    submitting: form.submitting,
    error: form.submitError,
    save,
    skip,
  }
}
