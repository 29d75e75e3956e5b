import { RequireLogin } from '../../components/require-login'
import { WithdrawView } from '../../features/wallet/components/withdraw-view'
import { back, navigate } from '../../services/navigate'

/** 提现: amount, target, tax and net before confirming, password or SMS code, then its state. */
export default function WithdrawPage() {
  return (
    <RequireLogin text="登录后提现">
      <WithdrawView
        onWithdrawals={() => void navigate('withdrawList')}
        onBack={() => void back()}
      />
    </RequireLogin>
  )
}
