import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { useState } from 'react'
import type { Withdrawal } from '@/services/wallet'
import { useFollowPaying, useWithdrawalActions } from '../hooks/use-withdrawal-actions'
import { WALLET_TEXTS as T } from '../texts'
import {
  isReturned,
  netLabel,
  Row,
  TaxBreakdown,
  timeText,
  WithdrawalStateTag,
  yuan,
} from './parts'
import './wallet.scss'

export interface WithdrawalDetailProps {
  withdrawal: Withdrawal
  /** The server's newer answer about it (an action, a refresh, the state moving on). */
  onChange: (next: Withdrawal) => void
}

/**
 * One withdrawal as the expert follows it: its state, gross / tax / net, where it goes, the bill
 * number, its times, why it failed, how the tax was computed, and what may be done now: 确认收款
 * (canConfirm), 取消提现 (canCancel), 刷新状态 (asks the provider).
 */
export function WithdrawalDetail({ withdrawal, onChange }: WithdrawalDetailProps) {
  const actions = useWithdrawalActions(withdrawal, onChange)
  useFollowPaying(withdrawal, onChange)
  const [showTax, setShowTax] = useState(false)
  // A failed or cancelled one paid nothing and withheld nothing: its gross is back in 可提现.
  const returned = isReturned(withdrawal.state)
  return (
    <>
      <View className="wallet-card" aria-label="提现详情">
        <View className="wallet-card__head">
          <Text className="wallet-card__title">
            {returned ? T.returned : netLabel(withdrawal.state)}
          </Text>
          <WithdrawalStateTag state={withdrawal.state} label={withdrawal.stateLabel} />
        </View>
        <Text className="wallet-card__big">
          {yuan(returned ? withdrawal.grossFen : withdrawal.netFen)}
        </Text>
        <Text className="wallet-card__sub">{withdrawal.targetLabel}</Text>
        {withdrawal.reason && (
          <View className="wallet-problem" role="alert">
            {T.reason}：{withdrawal.reason}
          </View>
        )}
        {withdrawal.canConfirm && <Text className="wallet-notice">{T.confirmHint}</Text>}
        {actions.notice && (
          <View className="wallet-notice" role="alert">
            {actions.notice}
          </View>
        )}
        <View className="wallet-buttons">
          {withdrawal.canConfirm && (
            <Button
              className="wallet-buttons__button"
              type="primary"
              loading={actions.busy === 'confirm'}
              disabled={actions.busy !== null}
              onClick={() => void actions.confirm()}
            >
              {T.confirm}
            </Button>
          )}
          {withdrawal.canCancel && (
            <Button
              className="wallet-buttons__button"
              disabled={actions.busy !== null}
              onClick={() => void actions.cancel()}
            >
              {T.cancel}
            </Button>
          )}
          <Button
            className="wallet-buttons__button"
            loading={actions.busy === 'refresh'}
            disabled={actions.busy !== null}
            onClick={() => void actions.refresh()}
          >
            {T.refresh}
          </Button>
        </View>
      </View>
      <View className="wallet-card">
        <Row label={T.gross} value={yuan(withdrawal.grossFen)} />
        {returned ? (
          <Row label={T.returned} value={yuan(withdrawal.grossFen)} tone="strong" />
        ) : (
          <>
            <Row label={T.tax} value={yuan(withdrawal.taxFen)} />
            <Row label={netLabel(withdrawal.state)} value={yuan(withdrawal.netFen)} tone="strong" />
          </>
        )}
        <Row label={T.target} value={withdrawal.targetLabel} />
        <Row label={T.billNo} value={withdrawal.billNo} />
        <Row label={T.createdAt} value={timeText(withdrawal.createdAt)} />
        <Row label={T.updatedAt} value={timeText(withdrawal.updatedAt)} />
        <Row label={T.paidAt} value={timeText(withdrawal.paidAt)} />
        {!returned && (
          <Text className="wallet-link" onClick={() => setShowTax((shown) => !shown)}>
            {T.taxHow} {showTax ? '▴' : '▾'}
          </Text>
        )}
        {!returned && showTax && <TaxBreakdown tax={withdrawal.tax} />}
      </View>
    </>
  )
}
