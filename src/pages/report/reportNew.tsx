import { Button } from '@nutui/nutui-react-taro'
import { View } from '@tarojs/components'
import Taro from '@tarojs/taro'
import { useParams } from '@/hooks/use-params'
import { showToast } from '@/platform/ui'
import { PageState } from '../../components/page-state'
import { RequireLogin } from '../../components/require-login'
import { ExamRequestComposeView } from '../../features/consultations/exam-request/components/exam-request-compose'
import { ExamRequestSheet } from '../../features/consultations/exam-request/components/exam-request-sheet'
import { useExamRequest } from '../../features/consultations/exam-request/hooks/use-exam-request'
import { useExamRequestCompose } from '../../features/consultations/exam-request/hooks/use-exam-request-compose'
import { EXAM_REQUEST_TEXTS as T } from '../../features/consultations/exam-request/texts'
import { back, navigate } from '../../services/navigate'

/** Back to the conversation it came from; opened on its own (a shared link), the conversation. */
function backToConversation(consultationId: string): void {
  if (Taro.getCurrentPages().length > 1) void back()
  else void navigate('myMessageDetail', { consultationId })
}

/** The expert writes a 检查建议 in the consultation, then goes back to its conversation. */
function ComposeContent({ consultationId }: { consultationId: string }) {
  const compose = useExamRequestCompose(consultationId, () => {
    showToast(T.sent)
    backToConversation(consultationId)
  })
  return <ExamRequestComposeView compose={compose} />
}

function SheetContent({ id }: { id: string }) {
  const { request, error, retry } = useExamRequest(id)
  if (error) return <PageState status="error" message={error} onRetry={retry} />
  if (!request) return <PageState status="loading" />
  return (
    <View className="exam-sheet-page">
      <ExamRequestSheet request={request} />
      <View className="exam-sheet-page__back">
        <Button block onClick={() => backToConversation(request.consultationId)}>
          {T.openConversation}
        </Button>
      </View>
    </View>
  )
}

/**
 * 检查申请单 (`/pages/report/reportNew`): `consultationId` the consultation's expert writes a
 * suggestion; `id` its patient (or expert) reads the form to show at a registration desk.
 */
export default function ReportReportNewPage() {
  const { consultationId, id } = useParams()
  if (consultationId) {
    return (
      <RequireLogin text="登录后开检查建议">
        <ComposeContent consultationId={consultationId} />
      </RequireLogin>
    )
  }
  if (id) {
    return (
      <RequireLogin text="登录后查看检查申请单">
        <SheetContent id={id} />
      </RequireLogin>
    )
  }
  return <PageState status="empty" message="检查申请单请从咨询对话中打开" />
}
