import { useDidShow } from '@tarojs/taro'
import { useRef } from 'react'
import { RequireLogin } from '../../components/require-login'
import { MessagesView } from '../../features/messages/components/messages-view'
import { useMessages } from '../../features/messages/hooks/use-messages'
import { navigate } from '../../services/navigate'

function MessagesContent() {
  const model = useMessages()
  // Back from a message: it is read now, or deleted.
  const shown = useRef(false)
  useDidShow(() => {
    if (shown.current) void model.list.refresh()
    shown.current = true
  })
  return (
    <MessagesView
      model={model}
      onOpen={(message) => void navigate('messageDetail', { id: message.id })}
    />
  )
}

/** 我的消息 (issue 9 builds it plainly; issue 10 adds tabs and badges). */
export default function MsgListPage() {
  return (
    <RequireLogin text="登录后查看我的消息">
      <MessagesContent />
    </RequireLogin>
  )
}
