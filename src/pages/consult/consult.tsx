import { useCallback } from 'react'
import { useParams } from '@/hooks/use-params'
import { PageState } from '../../components/page-state'
import { RequireLogin } from '../../components/require-login'
import { SummaryView } from '../../features/consultations/apply/components/summary-view'
import {
  type ConsultService,
  serviceOf,
} from '../../features/consultations/apply/hooks/use-consult-draft'
import { useSubmit } from '../../features/consultations/apply/hooks/use-submit'
import { navigate, redirect } from '../../services/navigate'

function SummaryContent({ expertId, service }: { expertId: string; service: ConsultService }) {
  // Paid or not, the consultation now exists: 咨询详情 shows it (and 去支付 when unpaid).
  const onFinished = useCallback((id: string) => void redirect('question', { id }), [])
  const model = useSubmit(expertId, service, onFinished)
  return <SummaryView model={model} onFix={(page) => void navigate(page, { expertId, service })} />
}

/** 会诊申请信息 (`?expertId=&service=`): the summary, the consent, 提交并支付. */
export default function ConsultSummaryPage() {
  const params = useParams()
  const service = serviceOf(params.service)
  if (!params.expertId || !service) {
    return <PageState status="empty" message="请从专家主页选择会诊方式后再提交申请" />
  }
  return (
    <RequireLogin text="登录后提交会诊申请">
      <SummaryContent expertId={params.expertId} service={service} />
    </RequireLogin>
  )
}
