import { Text, View } from '@tarojs/components'
import { RefreshList } from '@/components/refresh-list'
import type { Message } from '@/services/messages'
import { timeFrom } from '@/utils/time'
import type { MessagesModel } from '../hooks/use-messages'
import './messages.scss'

export interface MessagesViewProps {
  model: MessagesModel
  onOpen: (message: Message) => void
}

function MessageRow({
  message,
  onOpen,
  onRemove,
}: {
  message: Message
  onOpen: () => void
  onRemove: () => void
}) {
  return (
    <View className={`messages__item${message.read ? '' : ' messages__item--unread'}`}>
      <View className="messages__main" onClick={onOpen}>
        <View className="messages__head">
          {!message.read && <View className="messages__dot" aria-label="未读" />}
          <Text className={`messages__kind messages__kind--${message.kind}`}>
            {message.kindLabel}
          </Text>
          <Text className="messages__time">{timeFrom(message.createdAt)}</Text>
        </View>
        <Text className="messages__title">{message.title}</Text>
        {message.body !== '' && <Text className="messages__body">{message.body}</Text>}
      </View>
      <Text className="messages__delete" onClick={onRemove}>
        删除
      </Text>
    </View>
  )
}

/** 我的消息: newest first, unread dotted; 全部已读 at the top. */
export function MessagesView({ model, onOpen }: MessagesViewProps) {
  return (
    <View className="messages">
      <View className="messages__bar">
        <Text className="messages__unread">
          {model.unread > 0 ? `${model.unread} 条未读` : '没有未读消息'}
        </Text>
        {model.unread > 0 && (
          <Text className="messages__action" onClick={() => void model.markAllRead()}>
            全部已读
          </Text>
        )}
      </View>
      <RefreshList
        list={model.list}
        keyOf={(message) => message.id}
        renderItem={(message) => (
          <MessageRow
            message={message}
            onOpen={() => onOpen(message)}
            onRemove={() => void model.remove(message)}
          />
        )}
        emptyText="暂无消息"
      />
    </View>
  )
}
