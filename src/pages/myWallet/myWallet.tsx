import { RequireLogin } from '../../components/require-login'
import { WalletView } from '../../features/wallet/components/wallet-view'
import { navigate } from '../../services/navigate'

/** 我的钱包: balance, held, income, tax, 提现 and 提现记录, 交易记录 by kind and month. */
export default function MyWalletPage() {
  return (
    <RequireLogin text="登录后查看我的钱包">
      <WalletView
        onWithdraw={() => void navigate('withdraw')}
        onWithdrawals={() => void navigate('withdrawList')}
        onOpenTrade={(trade) => void navigate('walletTrade', { id: trade.id })}
      />
    </RequireLogin>
  )
}
