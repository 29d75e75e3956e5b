import { useDidShow } from '@tarojs/taro'
import { View } from '@tarojs/components'
import { useRef, useState } from 'react'
import { TabStrip } from '../../components/tab-strip'
import { RequireLogin } from '../../components/require-login'
import { MessagesView } from '../../features/messages/components/messages-view'
import { MESSAGE_TABS, useMessages } from '../../features/messages/hooks/use-messages'
import { navigate } from '../../services/navigate'

type Tab = (typeof MESSAGE_TABS)[number]['key']

function KindMessages({ kind }: { kind: Exclude<Tab, 'all'> | undefined }) {
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
  const [tab, setTab] = useState<Tab>('all')
  return (
    <View>
      <TabStrip tabs={MESSAGE_TABS} active={tab} onChange={setTab} />
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
