import { useParams } from '@/hooks/use-params'
import { PageState } from '../../components/page-state'
import { RequireLogin } from '../../components/require-login'
import { ApplicationView } from '../../features/consultations/apply/components/application-view'
import { useApplication } from '../../features/consultations/apply/hooks/use-application'
import {
  type ConsultService,
  serviceOf,
} from '../../features/consultations/apply/hooks/use-consult-draft'
import { recordParams } from '../../features/consultations/apply/record-params'
import { navigate, type ConsultRecordParams } from '../../services/navigate'

function ApplicationContent({
  expertId,
  service,
  seed,
}: {
  expertId: string
  service: ConsultService
  seed: ConsultRecordParams
}) {
  const model = useApplication(expertId, service, seed)
  return (
    <ApplicationView
      model={model}
      onBindIdCard={() => void navigate('idCard')}
      onFamily={() => void navigate('familyCard')}
      onNext={() => model.next() && void navigate('examine', { expertId, service })}
    />
  )
}

/** 会诊申请 (`?expertId=&service=`): for whom, what is wrong, the questions; kept as a draft. */
export default function ConsultApplicationPage() {
  const params = useParams()
  const service = serviceOf(params.service)
  if (!params.expertId || !service) {
    return <PageState status="empty" message="请从专家主页选择会诊方式后再填写申请" />
  }
  return (
    <RequireLogin text="登录后填写会诊申请">
      <ApplicationContent
        expertId={params.expertId}
        service={service}
        seed={recordParams(params)}
      />
    </RequireLogin>
  )
}
