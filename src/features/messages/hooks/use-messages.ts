import { useCallback, useState } from 'react'
import { usePagedList, type PagedList } from '@/components/refresh-list'
import { showModal, showToast } from '@/platform/ui'
import { describeError } from '@/services/api'
import {
  deleteMessage,
  listMessages,
  markAllMessagesRead,
  MESSAGE_KIND_LABELS,
  MESSAGE_KINDS,
  type Message,
  type MessageKind,
} from '@/services/messages'

/** 我的消息's tabs: 全部, then one per kind. */
export const MESSAGE_TABS = [
  { key: 'all' as const, title: '全部' },
  ...MESSAGE_KINDS.map((key) => ({ key, title: MESSAGE_KIND_LABELS[key] })),
]

export interface MessagesModel {
  list: PagedList<Message>
  /** Unread messages of the person (all kinds), from the first page's answer. */
  unread: number
  markAllRead: () => Promise<void>
  /** 删除 after confirming. */
  remove: (message: Message) => Promise<void>
}

/** 我的消息: newest first, with the unread total; 全部已读 and 删除. */
export function useMessages(kind?: MessageKind): MessagesModel {
  const [unread, setUnread] = useState(0)
  const list = usePagedList<Message>(async (page, pageSize) => {
    const answer = await listMessages({ page, pageSize, ...(kind ? { kind } : {}) })
    if (page === 1) setUnread(answer.unread)
    return { items: answer.items, total: answer.total }
  })
  const { refresh } = list

  const markAllRead = useCallback(async () => {
    try {
      await markAllMessagesRead()
    } catch (error) {
      showToast(describeError(error))
      return
    }
    await refresh()
  }, [refresh])

  const remove = useCallback(
    async (message: Message) => {
      if (
        !(await showModal({
          title: '删除消息',
          content: `删除“${message.title}”？`,
          confirmText: '删除',
        }))
      )
        return
      try {
        await deleteMessage(message.id)
      } catch (error) {
        showToast(describeError(error))
        return
      }
      await refresh()
    },
    [refresh],
  )

  return { list, unread, markAllRead, remove }
}
