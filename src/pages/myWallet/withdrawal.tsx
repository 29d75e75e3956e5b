import { useParams } from '@/hooks/use-params'
import { PageState } from '../../components/page-state'
import { RequireLogin } from '../../components/require-login'
import { WithdrawalView } from '../../features/wallet/components/withdrawal-view'

/** 提现详情 (`?id=`): one withdrawal with 确认收款, 取消提现 and 刷新状态. */
export default function WithdrawalPage() {
  const { id } = useParams()
  return (
    <RequireLogin text="登录后查看提现详情">
      {id ? (
        <WithdrawalView id={id} />
      ) : (
        <PageState status="empty" message="缺少提现编号，请从提现记录进入" />
      )}
    </RequireLogin>
  )
}
