import { useParams } from '@/hooks/use-params'
import { PageState } from '../../components/page-state'
import { RequireLogin } from '../../components/require-login'
import { ExamineView } from '../../features/consultations/apply/components/examine-view'
import {
  type ConsultService,
  serviceOf,
} from '../../features/consultations/apply/hooks/use-consult-draft'
import { useExamine } from '../../features/consultations/apply/hooks/use-examine'
import { navigate } from '../../services/navigate'

function ExamineContent({ expertId, service }: { expertId: string; service: ConsultService }) {
  const model = useExamine(expertId, service)
  return (
    <ExamineView
      model={model}
      // The existing DICOM upload flow (我的上传); coming back lists the new study.
      onUpload={() => void navigate('myReports')}
      onNext={() => model.next() && void navigate('consult', { expertId, service })}
    />
  )
}

/** 检查信息 (`?expertId=&service=`): which exams and reports the expert may see. */
export default function ExaminePage() {
  const params = useParams()
  const service = serviceOf(params.service)
  if (!params.expertId || !service) {
    return <PageState status="empty" message="请从专家主页选择会诊方式后再选择检查" />
  }
  return (
    <RequireLogin text="登录后选择检查">
      <ExamineContent expertId={params.expertId} service={service} />
    </RequireLogin>
  )
}
