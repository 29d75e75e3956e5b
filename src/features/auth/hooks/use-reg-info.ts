import { useCallback, useMemo, useState } from 'react'
import { GENDERS } from '@contract/sso/auth'
import { showToast } from '@/platform/ui'
import { modifyUser } from '@/services/auth'
import { useAppStore } from '@/stores/app-store'
import { goAfterLogin, readRedirect } from '../auth-navigation'
import { nicknameRule } from '../form-rules'
import { useField, type Field } from './use-field'
import { useSubmit } from './use-submit'

export type Gender = (typeof GENDERS)[number]

export const GENDER_OPTIONS: readonly { value: Gender; label: string }[] = [
  { value: 'male', label: '男' },
  { value: 'female', label: '女' },
  { value: 'unknown', label: '保密' },
]

export interface RegInfoView {
  signedIn: boolean
  nickname: Field
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
  const [showAll, setShowAll] = useState(false)
  // The server names new accounts itself (用户8000); offering that as the start is friendlier than empty.
  const nickname = useField(nicknameRule, showAll, profile?.nickname ?? '')
  const [gender, setGender] = useState<Gender>('unknown')
  const submission = useSubmit('保存失败，请稍后重试')

  const save = useCallback(() => {
    setShowAll(true)
    if (!nickname.valid) return
    submission.run(async () => {
      await modifyUser({ nickname: nickname.value.trim(), gender })
      showToast('已保存')
      await goAfterLogin(redirect)
    })
  }, [nickname, gender, submission, redirect])

  const skip = useCallback(() => {
    if (submission.submitting) return
    void goAfterLogin(redirect)
  }, [submission.submitting, redirect])

  return {
    signedIn,
    nickname,
    gender,
    setGender,
    submitting: submission.submitting,
    error: submission.error,
    save,
    skip,
  }
}
