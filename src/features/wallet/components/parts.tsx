import { Text, View } from '@tarojs/components'
import { type WalletTax, type WithdrawalState, yuanOf } from '@/services/wallet'
import { timeFormat } from '@/utils/time'
import { WALLET_TEXTS } from '../texts'
import './wallet.scss'

/*
 * What the wallet's screens draw alike: amounts in 元 with two decimals from integer fen, a label
 * and its value, a withdrawal's state as a coloured tag, and how its tax was computed.
 */

export const TIME = 'yyyy-mm-dd hh:MM'

/** ¥12.30 */
export const yuan = (fen: number) => `¥${yuanOf(fen)}`

/** +¥12.30 for money in, -¥12.30 for money out (the trade's signed fen). */
export const signedYuan = (fen: number) =>
  fen > 0 ? `+¥${yuanOf(fen)}` : fen < 0 ? `-¥${yuanOf(-fen)}` : `¥${yuanOf(0)}`

export const timeText = (at: string | null) => (at ? timeFormat(at, TIME) : '')

export function Row({
  label,
  value,
  tone,
}: {
  label: string
  value: string
  tone?: 'strong' | 'bad'
}) {
  if (value === '') return null
  return (
    <View className="wallet-row">
      <Text className="wallet-row__label">{label}</Text>
      <Text className={`wallet-row__value${tone ? ` wallet-row__value--${tone}` : ''}`}>
        {value}
      </Text>
    </View>
  )
}

type Tone = 'waiting' | 'done' | 'failed' | 'closed'

const TONE: Record<WithdrawalState, Tone> = {
  reviewing: 'waiting',
  paying: 'waiting',
  confirming: 'waiting',
  paid: 'done',
  failed: 'failed',
  cancelled: 'closed',
}

/** Failed or cancelled (驳回 included): nothing was paid or withheld, the gross is back in 可提现. */
export const isReturned = (state: WithdrawalState) => state === 'failed' || state === 'cancelled'

/**
 * What a withdrawal's net amount is in its state: 实际到账 once paid, 预计到账 while on its way. (A
 * returned one has none: it shows 已退回余额 and its gross instead, never 实际到账.)
 */
export const netLabel = (state: WithdrawalState) =>
  state === 'paid' ? WALLET_TEXTS.net : WALLET_TEXTS.netExpected

/** The state as the server words it (stateLabel), coloured by what it means for the expert. */
export function WithdrawalStateTag({ state, label }: { state: WithdrawalState; label: string }) {
  return <Text className={`wallet-state wallet-state--${TONE[state]}`}>{label}</Text>
}

/**
 * 个税怎么算: the cumulative method of 税务总局公告2025年第16号 with this year's figures, so the
 * expert can follow every step from income to this withdrawal's tax.
 */
export function TaxBreakdown({ tax }: { tax: WalletTax }) {
  return (
    <View className="withdraw-tax" aria-label="个税计算">
      <Row label={`${tax.year} 年累计劳务报酬（含本次）`} value={yuan(tax.incomeFen)} />
      <Row label="其中本次之前" value={yuan(tax.incomeBeforeFen)} />
      <Row label="减除费用（收入的 20%）" value={yuan(tax.expensesFen)} />
      <Row label={`累计减除（5000 元 × ${tax.months} 个月）`} value={yuan(tax.deductionFen)} />
      <Row label="累计应纳税所得额" value={yuan(tax.taxableFen)} />
      <Row
        label="预扣率 / 速算扣除数"
        value={`${tax.ratePercent}% / ${yuan(tax.quickDeductionFen)}`}
      />
      <Row label="累计应预扣个税" value={yuan(tax.dueFen)} />
      <Row label="本年已代扣" value={yuan(tax.withheldBeforeFen)} />
      <Row label="本次代扣" value={yuan(tax.taxFen)} tone="strong" />
      <Text className="withdraw-tax__note">
        平台依法为您代扣代缴劳务报酬个人所得税，按税务总局公告2025年第16号的累计预扣法计算：
        本次代扣 = 累计应纳税所得额 × 预扣率 − 速算扣除数 − 本年已代扣。
      </Text>
    </View>
  )
}
