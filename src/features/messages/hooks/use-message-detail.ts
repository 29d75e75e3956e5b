import { useCallback } from 'react'
import { useResource, type Resource } from '@/hooks/use-resource'
import { showModal, showToast } from '@/platform/ui'
import { describeError, UserFacingError } from '@/services/api'
import { deleteMessage, getMessage, type Message } from '@/services/messages'
import { back } from '@/services/navigate'

export interface MessageDetailModel {
  message: Resource<Message>
  remove: () => Promise<void>
}

/** One message; opening it marks it read on the server. */
export function useMessageDetail(id: string): MessageDetailModel {
  const message = useResource(id, () =>
    id ? getMessage(id) : Promise.reject(new UserFacingError('消息不存在或已删除')),
  )

  const remove = useCallback(async () => {
    if (!(await showModal({ title: '删除消息', content: '删除这条消息？', confirmText: '删除' })))
      return
    try {
      await deleteMessage(id)
    } catch (error) {
      showToast(describeError(error))
      return
    }
    showToast('已删除')
    await back('user')
  }, [id])

  return { message, remove }
}
