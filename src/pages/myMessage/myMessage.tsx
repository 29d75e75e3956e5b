import { RequireLogin } from '../../components/require-login'
import { InboxView } from '../../features/consultations/conversation/components/inbox-view'
import { useConsultInbox } from '../../features/consultations/conversation/hooks/use-consult-inbox'
import { navigate } from '../../services/navigate'

function Inbox() {
  const list = useConsultInbox()
  return (
    <InboxView
      list={list}
      onOpen={(row) => void navigate('myMessageDetail', { consultationId: row.card.id })}
    />
  )
}

/** 咨询消息: one row per conversation, with its unread count. */
export default function MyMessagePage() {
  return (
    <RequireLogin text="登录后查看咨询消息">
      <Inbox />
    </RequireLogin>
  )
}
