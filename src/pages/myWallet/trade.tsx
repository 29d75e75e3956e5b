import { useParams } from '@/hooks/use-params'
import { PageState } from '../../components/page-state'
import { RequireLogin } from '../../components/require-login'
import { TradeDetailView } from '../../features/wallet/components/trade-detail-view'
import { navigate } from '../../services/navigate'

/** 交易详情 (`?id=`): one row of 交易记录, with the consultation or withdrawal it came from. */
export default function WalletTradePage() {
  const { id } = useParams()
  return (
    <RequireLogin text="登录后查看交易详情">
      {id ? (
        <TradeDetailView
          id={id}
          onOpenConsultation={(consultationId) => void navigate('question', { id: consultationId })}
          onOpenWithdrawal={(withdrawalId) => void navigate('withdrawal', { id: withdrawalId })}
        />
      ) : (
        <PageState status="empty" message="缺少交易编号，请从我的钱包进入" />
      )}
    </RequireLogin>
  )
}
