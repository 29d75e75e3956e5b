import { useParams } from '@/hooks/use-params'
import { RequireLogin } from '../../components/require-login'
import { MessageDetailView } from '../../features/messages/components/message-detail-view'
import { useMessageDetail } from '../../features/messages/hooks/use-message-detail'

function MessageContent() {
  const params = useParams()
  return <MessageDetailView model={useMessageDetail(params.id ?? '')} />
}

/** 消息详情: the message in full (opening it marks it read), and where it points. */
export default function MessageDetailPage() {
  return (
    <RequireLogin text="登录后查看消息">
      <MessageContent />
    </RequireLogin>
  )
}
