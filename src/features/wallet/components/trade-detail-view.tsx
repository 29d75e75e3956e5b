import { Text, View } from '@tarojs/components'
import { PageState } from '@/components/page-state'
import type { WalletTradeDetail } from '@/services/wallet'
import { useWalletTrade } from '../hooks/use-withdrawals'
import { WALLET_TEXTS as T } from '../texts'
import { Row, signedYuan, timeText, yuan } from './parts'
import './wallet.scss'

export interface TradeDetailViewProps {
  id: string
  onOpenConsultation: (consultationId: string) => void
  onOpenWithdrawal: (withdrawalId: string) => void
}

function ConsultationCard({
  consultation,
  onOpen,
}: {
  consultation: NonNullable<WalletTradeDetail['consultation']>
  onOpen: () => void
}) {
  return (
    <View className="wallet-card">
      <Text className="wallet-card__title">{T.consultation}</Text>
      <Row
        label={consultation.serviceLabel}
        value={`${consultation.personMasked} · ${consultation.stateLabel}`}
      />
      <Row label={T.consultPrice} value={yuan(consultation.priceFen)} />
      <Row label={T.consultPlatform} value={yuan(consultation.platformFen)} />
      <Row label={T.consultExpert} value={yuan(consultation.expertFen)} tone="strong" />
      <Text className="wallet-link" onClick={onOpen}>
        {T.openConsultation} ›
      </Text>
    </View>
  )
}

/**
 * 交易详情: one movement of the expert's money: how much, where it landed (待结算 / 可提现 /
 * 提现中), every entry on the expert's accounts, and what it came from: the consultation (with
 * its price split, opening 咨询详情) or the withdrawal (opening 提现详情).
 */
export function TradeDetailView({
  id,
  onOpenConsultation,
  onOpenWithdrawal,
}: TradeDetailViewProps) {
  const trade = useWalletTrade(id)
  if (trade.status === 'loading') return <PageState status="loading" />
  if (trade.status === 'error') {
    return <PageState status="error" message={trade.message} onRetry={trade.restart} />
  }
  const data = trade.data
  const consultationId = data.consultation?.id ?? data.consultationId
  return (
    <View className="wallet-page">
      <View className="wallet-card">
        <Text className="wallet-card__sub">{data.kindLabel}</Text>
        <Text className="wallet-card__big">{signedYuan(data.amountFen)}</Text>
        <Text className="wallet-card__sub">{data.title}</Text>
      </View>
      <View className="wallet-card">
        <Row label={T.tradeAccount} value={data.accountLabel} />
        <Row label={T.tradeTime} value={timeText(data.at)} />
        {data.entries.length > 0 && (
          <>
            <Text className="wallet-card__title wallet-card__title--section">{T.entries}</Text>
            {data.entries.map((entry, index) => (
              <Row
                key={`${entry.accountLabel}-${index}`}
                label={entry.accountLabel}
                value={signedYuan(entry.amountFen)}
              />
            ))}
          </>
        )}
        {data.withdrawalId && (
          <Text className="wallet-link" onClick={() => onOpenWithdrawal(data.withdrawalId!)}>
            {T.openWithdrawal} ›
          </Text>
        )}
        {!data.consultation && consultationId && (
          <Text className="wallet-link" onClick={() => onOpenConsultation(consultationId)}>
            {T.openConsultation} ›
          </Text>
        )}
      </View>
      {data.consultation && (
        <ConsultationCard
          consultation={data.consultation}
          onOpen={() => onOpenConsultation(data.consultation!.id)}
        />
      )}
    </View>
  )
}
