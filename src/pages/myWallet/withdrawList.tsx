import { RequireLogin } from '../../components/require-login'
import { WithdrawListView } from '../../features/wallet/components/withdraw-list-view'
import { navigate } from '../../services/navigate'

/** 提现记录: each withdrawal's state, gross / tax / net, times and reason; a row opens its detail. */
export default function WithdrawListPage() {
  return (
    <RequireLogin text="登录后查看提现记录">
      <WithdrawListView
        onOpen={(withdrawal) => void navigate('withdrawal', { id: withdrawal.id })}
      />
    </RequireLogin>
  )
}
