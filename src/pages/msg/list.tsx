import { useDidShow } from '@tarojs/taro'
import { View } from '@tarojs/components'
import { useRef, useState } from 'react'
import { TabStrip } from '../../components/tab-strip'
import { RequireLogin } from '../../components/require-login'
import { MessagesView } from '../../features/messages/components/messages-view'
import { useMessages } from '../../features/messages/hooks/use-messages'
import { MESSAGE_KIND_LABELS, MESSAGE_KINDS, type MessageKind } from '../../services/messages'
import { navigate } from '../../services/navigate'

const TABS = [
  { key: 'all' as const, title: '全部' },
  ...MESSAGE_KINDS.map((key) => ({ key, title: MESSAGE_KIND_LABELS[key] })),
]

function KindMessages({ kind }: { kind: MessageKind | undefined }) {
  const model = useMessages(kind)
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

function MessagesContent() {
  const [tab, setTab] = useState<'all' | MessageKind>('all')
  return (
    <View>
      <TabStrip tabs={TABS} active={tab} onChange={setTab} />
      <KindMessages key={tab} kind={tab === 'all' ? undefined : tab} />
    </View>
  )
}

/** 我的消息: by kind (全部, 系统消息, 授权提醒, 报告通知, 咨询消息); 全部已读 and 删除. */
export default function MsgListPage() {
  return (
    <RequireLogin text="登录后查看我的消息">
      <MessagesContent />
    </RequireLogin>
  )
}
