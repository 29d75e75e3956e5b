import { View } from '@tarojs/components'
import { PageState } from '@/components/page-state'
import { useWithdrawal } from '../hooks/use-withdrawals'
import { WithdrawalDetail } from './withdrawal-detail'
import './wallet.scss'

/** 提现详情 (`?id=`): one withdrawal, its actions, and its state as it moves on. */
export function WithdrawalView({ id }: { id: string }) {
  const withdrawal = useWithdrawal(id)
  if (withdrawal.status === 'loading') return <PageState status="loading" />
  if (withdrawal.status === 'error') {
    return <PageState status="error" message={withdrawal.message} onRetry={withdrawal.restart} />
  }
  return (
    <View className="wallet-page">
      <WithdrawalDetail withdrawal={withdrawal.data} onChange={withdrawal.replace} />
    </View>
  )
}
