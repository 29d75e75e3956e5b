import { PageState } from '@/components/page-state'
import { useParams } from '@/hooks/use-params'
import { back } from '@/services/navigate'
import { RequireLogin } from '../../components/require-login'
import { ExpertApplicationReview } from '../../features/operator/components/expert-application-view'
import { OperatorsOnly } from '../../features/operator/components/operators-only'

/** 专家认证审核 (H5 only): one application, `?id=`, beside its photos; 通过 or 驳回. */
export default function OperatorExpertApplicationPage() {
  const { id } = useParams()
  return (
    <RequireLogin text="运营人员请先登录">
      <OperatorsOnly>
        {id ? (
          <ExpertApplicationReview id={id} />
        ) : (
          <PageState
            status="empty"
            message="没有指定认证申请，请从运营后台的专家认证进入"
            action={{ text: '返回', onClick: () => void back('user') }}
          />
        )}
      </OperatorsOnly>
    </RequireLogin>
  )
}
