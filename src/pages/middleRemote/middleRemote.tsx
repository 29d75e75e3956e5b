import { useParams } from '@/hooks/use-params'
import { PageState } from '../../components/page-state'
import { RequireLogin } from '../../components/require-login'
import { ConsultModeView } from '../../features/consultations/apply/components/consult-mode-view'
import { recordParams } from '../../features/consultations/apply/record-params'
import { useConsultMode } from '../../features/consultations/apply/hooks/use-consult-mode'
import { navigate, type ConsultRecordParams } from '../../services/navigate'

function ConsultModeContent({ expertId, seed }: { expertId: string; seed: ConsultRecordParams }) {
  const model = useConsultMode(expertId)
  return (
    <ConsultModeView
      model={model}
      recordChosen={Boolean(seed.examId || seed.reportId)}
      onChoose={(service) => void navigate('consultApplication', { expertId, service, ...seed })}
    />
  )
}

/**
 * 选择会诊方式 (`?expertId=`, and `examId` / `reportId` / `personId` when a record was chosen on
 * 影像详情 / 报告详情): 图文咨询 or 影像会诊 with this expert.
 */
export default function ConsultModePage() {
  const params = useParams()
  const seed = recordParams(params)
  if (!params.expertId) {
    return (
      <PageState
        status="empty"
        message="请先选择一位专家"
        action={{ text: '找专家', onClick: () => void navigate('expertList', seed) }}
      />
    )
  }
  return (
    <RequireLogin text="登录后咨询专家">
      <ConsultModeContent expertId={params.expertId} seed={seed} />
    </RequireLogin>
  )
}
