import { RequireLogin } from '../../components/require-login'
import { OperatorHome } from '../../features/operator/components/operator-home'

/** 运营后台 (H5 only): articles, videos, feedback, apps, hospitals and the audit log. */
export default function OperatorPage() {
  return (
    <RequireLogin text="运营人员请先登录">
      <OperatorHome />
    </RequireLogin>
  )
}
