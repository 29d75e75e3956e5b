import { useParams } from '@/hooks/use-params'
import { PageState } from '../../components/page-state'
import { RequireLogin } from '../../components/require-login'
import { ConversationView } from '../../features/consultations/conversation/components/conversation-view'
import { useConsultConversation } from '../../features/consultations/conversation/hooks/use-consult-conversation'
import { openRecord } from '../../features/consultations/conversation/open-record'
import { navigate } from '../../services/navigate'

function Conversation({ consultationId }: { consultationId: string }) {
  const model = useConsultConversation(consultationId)
  return (
    <ConversationView
      model={model}
      onOpenDetail={() => void navigate('question', { id: consultationId })}
      onOpenRecord={(detail, record) => void openRecord(detail, record)}
    />
  )
}

/** 消息详情: one consultation's conversation, for the patient and the expert alike. */
export default function MyMessageDetailPage() {
  const { consultationId } = useParams()
  return (
    <RequireLogin text="登录后查看咨询消息">
      {consultationId ? (
        <Conversation consultationId={consultationId} />
      ) : (
        <PageState status="error" message="缺少咨询编号" />
      )}
    </RequireLogin>
  )
}
