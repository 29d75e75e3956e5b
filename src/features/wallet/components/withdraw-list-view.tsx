import { Text, View } from '@tarojs/components'
import { RefreshList } from '@/components/refresh-list'
import type { Withdrawal } from '@/services/wallet'
import { useRefreshOnReturn } from '../hooks/use-wallet'
import { useWithdrawals } from '../hooks/use-withdrawals'
import { WALLET_TEXTS as T } from '../texts'
import { isReturned, netLabel, timeText, WithdrawalStateTag, yuan } from './parts'
import './wallet.scss'

function WithdrawalRow({ withdrawal, onOpen }: { withdrawal: Withdrawal; onOpen: () => void }) {
  return (
    <View className="withdrawal-row" onClick={onOpen}>
      <View className="withdrawal-row__head">
        <Text className="withdrawal-row__gross">{yuan(withdrawal.grossFen)}</Text>
        <WithdrawalStateTag state={withdrawal.state} label={withdrawal.stateLabel} />
      </View>
      <Text className="withdrawal-row__amounts">
        {isReturned(withdrawal.state)
          ? `${T.returned} ${yuan(withdrawal.grossFen)}`
          : `${T.tax} ${yuan(withdrawal.taxFen)} · ${netLabel(withdrawal.state)} ${yuan(withdrawal.netFen)}`}
      </Text>
      <Text className="withdrawal-row__time">
        {T.createdAt} {timeText(withdrawal.createdAt)}
        {withdrawal.paidAt ? ` · ${T.paidAt} ${timeText(withdrawal.paidAt)}` : ''}
      </Text>
      {withdrawal.reason && (
        <Text className="withdrawal-row__reason">
          {T.reason}：{withdrawal.reason}
        </Text>
      )}
    </View>
  )
}

/**
 * 提现记录: every withdrawal with its state (审核中 … 已到账, 失败 — 已退回余额), gross / tax / net,
 * its times and the reason when it failed; a row opens 提现详情.
 */
export function WithdrawListView({ onOpen }: { onOpen: (withdrawal: Withdrawal) => void }) {
  const list = useWithdrawals()
  useRefreshOnReturn(list.refresh)
  return (
    <View className="wallet-page">
      <RefreshList
        list={list}
        keyOf={(withdrawal) => withdrawal.id}
        emptyText={T.withdrawalsEmpty}
        renderItem={(withdrawal) => (
          <WithdrawalRow withdrawal={withdrawal} onOpen={() => onOpen(withdrawal)} />
        )}
      />
    </View>
  )
}
