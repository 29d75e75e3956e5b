import { useParams } from '@/hooks/use-params'
import { RequireLogin } from '../../components/require-login'
import { OperatorHome, operatorTabOf } from '../../features/operator/components/operator-home'

/**
 * 运营后台 (H5 only): articles, videos, feedback, apps, hospitals, experts, hospital requests and
 * the audit log; `?tab=` opens one of them (专家认证审核 links to 医院申请).
 */
export default function OperatorPage() {
  const { tab } = useParams()
  return (
    <RequireLogin text="运营人员请先登录">
      <OperatorHome initialTab={operatorTabOf(tab)} />
    </RequireLogin>
  )
}
