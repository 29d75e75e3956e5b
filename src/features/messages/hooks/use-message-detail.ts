import { useCallback, useEffect, useState } from 'react'
import { showModal, showToast } from '@/platform/ui'
import { describeError } from '@/services/api'
import { deleteMessage, getMessage, type Message } from '@/services/messages'
import { back } from '@/services/navigate'

export type MessageState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; message: Message }

export interface MessageDetailModel {
  state: MessageState
  retry: () => void
  remove: () => Promise<void>
}

/** One message; opening it marks it read on the server. */
export function useMessageDetail(id: string): MessageDetailModel {
  const [state, setState] = useState<MessageState>({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    if (!id) {
      setState({ status: 'error', message: '消息不存在或已删除' })
      return
    }
    let live = true
    setState({ status: 'loading' })
    getMessage(id).then(
      (message) => live && setState({ status: 'ready', message }),
      (error: unknown) => live && setState({ status: 'error', message: describeError(error) }),
    )
    return () => {
      live = false
    }
  }, [id, attempt])

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

  return { state, retry: () => setAttempt((n) => n + 1), remove }
}
