import { useParams } from '@/hooks/use-params'
import { PageState } from '../../components/page-state'
import { RequireLogin } from '../../components/require-login'
import { QuestionDetailView } from '../../features/consultations/patient/components/question-detail-view'
import { useConsultDetail } from '../../features/consultations/patient/hooks/use-consult-detail'
import { back, navigate } from '../../services/navigate'

function QuestionContent({ id }: { id: string }) {
  const model = useConsultDetail(id)
  return (
    <QuestionDetailView
      model={model}
      onOpenRecord={(record, detail) => {
        // The patient opens their own record; the expert reads it through the consultation's grant.
        if (detail.role === 'patient') {
          return void (record.kind === 'exam'
            ? navigate('imageDetail', { id: record.examId })
            : navigate('reportDetail', { id: record.id }))
        }
        return void (record.kind === 'exam'
          ? navigate('shareExam', { grantId: detail.grant.id, examId: record.examId })
          : navigate('shareReport', { grantId: detail.grant.id, reportId: record.id }))
      }}
      onConversation={(detail) => void navigate('myMessageDetail', { consultationId: detail.id })}
      onDeleted={() => void back()}
    />
  )
}

/** 咨询详情 (`?id=`): the application, shared records, history, order and what may be done now. */
export default function QuestionPage() {
  const { id } = useParams()
  return (
    <RequireLogin text="登录后查看咨询">
      {id ? (
        <QuestionContent id={id} />
      ) : (
        <PageState status="empty" message="缺少咨询编号，请从我的咨询进入" />
      )}
    </RequireLogin>
  )
}
