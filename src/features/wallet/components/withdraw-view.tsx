import { Text, View } from '@tarojs/components'
import { Button, Input } from '@nutui/nutui-react-taro'
import Taro from '@tarojs/taro'
import { useEffect, useState } from 'react'
import { ReauthSheet } from '@/components/reauth-sheet'
import { type WithdrawalQuote, yuanOf } from '@/services/wallet'
import { useWithdraw, type WithdrawModel } from '../hooks/use-withdraw'
import { WALLET_TEXTS as T } from '../texts'
import { OverviewState } from './overview-state'
import { Row, TaxBreakdown, yuan } from './parts'
import { WithdrawalDetail } from './withdrawal-detail'
import './wallet.scss'

function QuoteBox({ model }: { model: WithdrawModel }) {
  const [showTax, setShowTax] = useState(false)
  if (model.check.kind === 'problem') {
    return (
      <View className="wallet-problem" role="alert">
        {model.check.message}
      </View>
    )
  }
  const quote = model.quote
  if (quote.status === 'idle') return null
  if (quote.status === 'loading') {
    return <Text className="withdraw-quote__loading">{T.quoting}</Text>
  }
  if (quote.status === 'error') {
    return (
      <View className="withdraw-quote">
        <View className="wallet-problem" role="alert">
          {quote.message}
        </View>
        <Text className="wallet-link" onClick={() => void quote.reload()}>
          重试
        </Text>
      </View>
    )
  }
  const data = quote.data
  if (data.refused !== null) {
    return (
      <View className="wallet-problem" role="alert">
        {data.refused}
      </View>
    )
  }
  return (
    <View className="withdraw-quote" aria-label="提现试算">
      <Row label={T.tax} value={yuan(data.taxFen)} />
      <Row label={T.net} value={yuan(data.netFen)} tone="strong" />
      <Text className="withdraw-line">{data.needsReview ? T.needsReview : T.noReview}</Text>
      <Text className="wallet-link" onClick={() => setShowTax((shown) => !shown)}>
        {T.taxHow} {showTax ? '▴' : '▾'}
      </Text>
      {showTax && <TaxBreakdown tax={data.tax} />}
    </View>
  )
}

/** What the password-or-code sheet repeats of the withdrawal being confirmed. */
function SheetSummary({ quote, target }: { quote: WithdrawalQuote; target: string }) {
  return (
    <View className="withdraw-sheet-sum">
      <Row label={T.gross} value={yuan(quote.grossFen)} />
      <Row label={T.tax} value={yuan(quote.taxFen)} />
      <Row label={T.net} value={yuan(quote.netFen)} tone="strong" />
      <Row label={T.target} value={target} />
    </View>
  )
}

export interface WithdrawViewProps {
  onWithdrawals: () => void
  onBack: () => void
}

/**
 * 提现: the amount (全部提现), where it goes (微信零钱 in the certified real name), the tax and the
 * net amount before confirming, then the login password or an SMS code; after it the withdrawal
 * with its state, and 确认收款 when WeChat asks the expert to confirm.
 */
export function WithdrawView({ onWithdrawals, onBack }: WithdrawViewProps) {
  const model = useWithdraw()
  const overview = model.overview
  const resultId = model.result?.id ?? null
  useEffect(() => {
    // The form may have been scrolled (个税怎么算 open): the withdrawal made shows from its top,
    // its state first, not from wherever the form was.
    if (resultId) void Taro.pageScrollTo({ scrollTop: 0, duration: 0 }).catch(() => undefined)
  }, [resultId])
  if (model.result) {
    return (
      <View className="wallet-page">
        <WithdrawalDetail withdrawal={model.result} onChange={model.setResult} />
        <View className="wallet-buttons">
          <Button className="wallet-buttons__button" onClick={onWithdrawals}>
            {T.viewWithdrawals}
          </Button>
          <Button className="wallet-buttons__button" type="primary" onClick={onBack}>
            {T.backToWallet}
          </Button>
        </View>
      </View>
    )
  }
  if (overview.status !== 'ready') return <OverviewState overview={overview} />
  const data = overview.data
  const quote = model.quote.status === 'ready' ? model.quote.data : null
  return (
    <View className="wallet-page">
      <View className="wallet-card">
        <Text className="wallet-card__title">{T.amountLabel}</Text>
        <View className="withdraw-amount">
          <Text className="withdraw-amount__currency">¥</Text>
          <Input
            className="withdraw-amount__input"
            type="digit"
            value={model.amount}
            placeholder={T.amountPlaceholder}
            maxLength={12}
            disabled={model.blocked !== null}
            aria-label={T.amountLabel}
            onChange={model.setAmount}
          />
          {model.blocked === null && (
            <Text className="withdraw-amount__all" onClick={model.fillAll}>
              {T.all}
            </Text>
          )}
        </View>
        <Text className="withdraw-line">{T.availableLine(yuanOf(data.availableFen))}</Text>
        {model.blocked ? (
          <View className="wallet-notice" role="alert">
            {model.blocked}
          </View>
        ) : (
          <QuoteBox model={model} />
        )}
      </View>
      <View className="wallet-card">
        <Row label={T.target} value={data.payout.label} />
        <Text className="withdraw-line">
          {T.limitsLine(yuanOf(data.limits.perTransferFen), yuanOf(data.limits.leftTodayFen))}
        </Text>
        <Text className="withdraw-line">{T.reviewLine(yuanOf(data.limits.reviewAboveFen))}</Text>
        {data.payout.provider === 'demo' && <Text className="wallet-notice">{T.demoProvider}</Text>}
      </View>
      <Button type="primary" block disabled={!model.canContinue} onClick={model.openConfirm}>
        {T.next}
      </Button>
      <ReauthSheet
        className="withdraw-sheet"
        visible={model.confirming}
        title={T.confirmTitle}
        text={T.confirmText}
        submitText={T.submit}
        busyText={T.submitting}
        busy={model.busy}
        error={model.error}
        onClose={model.closeConfirm}
        onSubmit={model.submit}
        sendCode={model.sendCode}
      >
        {quote && <SheetSummary quote={quote} target={data.payout.label} />}
      </ReauthSheet>
    </View>
  )
}
