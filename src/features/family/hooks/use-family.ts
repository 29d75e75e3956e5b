import { useCallback } from 'react'
import { useResource, type Resource } from '@/hooks/use-resource'
import { showModal, showToast } from '@/platform/ui'
import { describeError } from '@/services/api'
import {
  leaveFamilyManager,
  listFamily,
  memberLabel,
  removeFamilyMember,
  type Family,
  type FamilyManager,
  type FamilyMember,
} from '@/services/family'
import { resetToSelf, usePersonStore } from '@/stores/person-store'

export interface FamilyModel {
  family: Resource<Family>
  reload: () => void
  /** 解除 a member I manage, after confirming. */
  remove: (member: FamilyMember) => Promise<void>
  /** 解除 someone who manages me (an adult member ending it from their own account). */
  leave: (manager: FamilyManager) => Promise<void>
}

/** 亲情卡: 本人, the members I manage and who manages me, fresh from the server. */
export function useFamily(): FamilyModel {
  const family = useResource('family', () => listFamily())
  const { reload: reloadFamily } = family
  const reload = useCallback(() => void reloadFamily(), [reloadFamily])

  const remove = useCallback(
    async (member: FamilyMember) => {
      const confirmed = await showModal({
        title: '解除关系',
        content: `解除后您将不能再查看${memberLabel(member)}的影像和报告。${
          member.kind === 'child'
            ? '如需再次查看，需要重新添加。'
            : '再次添加需要对方手机验证码同意。'
        }`,
        confirmText: '解除',
      })
      if (!confirmed) return
      try {
        await removeFamilyMember(member.id)
      } catch (error) {
        showToast(describeError(error))
        return
      }
      // The lists must not keep asking for someone the person no longer manages.
      if (usePersonStore.getState().chosen?.personId === member.personId) resetToSelf()
      showToast('已解除')
      reload()
    },
    [reload],
  )

  const leave = useCallback(
    async (manager: FamilyManager) => {
      const confirmed = await showModal({
        title: '解除关系',
        content: `解除后${memberLabel(manager)}将不能再查看您的影像和报告。`,
        confirmText: '解除',
      })
      if (!confirmed) return
      try {
        await leaveFamilyManager(manager.id)
      } catch (error) {
        showToast(describeError(error))
        return
      }
      showToast('已解除')
      reload()
    },
    [reload],
  )

  return { family, reload, remove, leave }
}
