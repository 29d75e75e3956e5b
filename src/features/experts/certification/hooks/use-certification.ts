import Taro, { useDidShow } from '@tarojs/taro'
import { useCallback, useState } from 'react'
import type { Role } from '@contract/sso/auth'
import { useResource, type Resource } from '@/hooks/use-resource'
import { showModal, showToast } from '@/platform/ui'
import { describeError } from '@/services/api'
import {
  type ExpertApplication,
  getMyExpertApplication,
  withdrawExpertApplication,
} from '@/services/experts'
import { isCancelled } from '@/services/http'
import { refreshProfile } from '@/services/profile'
import { useAppStore } from '@/stores/app-store'

export interface Certification {
  application: Resource<ExpertApplication | null>
  /** The form is open: a draft always; a rejected, certified or withdrawn one once asked for. */
  editing: boolean
  startEditing: () => void
  /** Back from the form to where the application stands (only when it is not a draft). */
  stopEditing: () => void
  withdraw: () => Promise<void>
  withdrawing: boolean
  /** No ID card bound, as the profile says (the server says so again on submit). */
  idCardMissing: boolean
  role: Role
  onApplication: (application: ExpertApplication) => void
  onSubmitted: (application: ExpertApplication) => void
}

/** Another state is another screen: it starts at its top, not where the long form was scrolled. */
function toTop(): void {
  Promise.resolve()
    .then(() => Taro.pageScrollTo({ scrollTop: 0, duration: 0 }))
    .catch(() => undefined)
}

/** 专家认证: where my application stands, and the way from each state to the next. */
export function useCertification(): Certification {
  const application = useResource(
    'expert-application',
    () => getMyExpertApplication({ loading: false }),
    { ignoreError: isCancelled },
  )
  const profile = useAppStore((state) => state.profile)
  const [asked, setAsked] = useState(false)
  const [withdrawing, setWithdrawing] = useState(false)

  // Back from 身份证绑定 (or anywhere), the card and the role may have changed.
  useDidShow(() => {
    refreshProfile({ loading: false, quietOffline: true }).catch(() => undefined)
  })

  const status = application.status === 'ready' ? application.data?.status : undefined
  const { replace } = application

  const onApplication = useCallback((next: ExpertApplication) => replace(next), [replace])
  const onSubmitted = useCallback(
    (next: ExpertApplication) => {
      replace(next)
      setAsked(false)
      toTop()
      showToast('已提交，请等待审核')
    },
    [replace],
  )

  const withdraw = async () => {
    const sure = await showModal({
      title: '撤回申请',
      content: '撤回后审核将停止，已上传的证书照片会被删除。确定撤回吗？',
      confirmText: '撤回',
    })
    if (!sure) return
    setWithdrawing(true)
    try {
      replace(await withdrawExpertApplication())
      showToast('申请已撤回')
    } catch (error) {
      if (!isCancelled(error)) showToast(describeError(error, '撤回失败，请稍后重试'))
    } finally {
      setWithdrawing(false)
    }
  }

  const idCardStatus = profile?.idCardStatus ?? (profile?.realNameVerified ? 'verified' : 'none')
  return {
    application,
    editing: status === 'draft' || asked,
    startEditing: () => {
      setAsked(true)
      toTop()
    },
    stopEditing: () => {
      setAsked(false)
      toTop()
    },
    withdraw,
    withdrawing,
    idCardMissing: idCardStatus === 'none',
    role: profile?.role ?? 'patient',
    onApplication,
    onSubmitted,
  }
}
