import { Picker, Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { useEffect, useRef, useState } from 'react'
import { type PagedList, RefreshList } from '@/components/refresh-list'
import { TabStrip } from '@/components/tab-strip'
import {
  TRADE_KIND_LABELS,
  TRADE_KINDS,
  type TradeKind,
  type WalletOverview,
  type WalletTrade,
  yuanOf,
} from '@/services/wallet'
import { chinaMonth, withdrawBlocked } from '../amount'
import {
  filterKey,
  NO_FILTER,
  type TradeFilter,
  useRefreshOnReturn,
  useWalletOverview,
  useWalletTrades,
} from '../hooks/use-wallet'
import { WALLET_TEXTS as T } from '../texts'
import { OverviewState } from './overview-state'
import { signedYuan, timeText, yuan } from './parts'
import './wallet.scss'

type KindTab = TradeKind | 'all'

const KIND_TABS: { key: KindTab; title: string }[] = [
  { key: 'all', title: T.allKinds },
  ...TRADE_KINDS.map((kind) => ({ key: kind, title: TRADE_KIND_LABELS[kind] })),
]

/** 2026-11 → 2026年11月 */
const monthText = (month: string) => `${month.slice(0, 4)}年${Number(month.slice(5, 7))}月`

function Head({ overview }: { overview: WalletOverview }) {
  return (
    <View className="wallet-head" aria-label="余额">
      <Text className="wallet-head__label">{T.available}</Text>
      <Text className="wallet-head__balance">{yuanOf(overview.availableFen)}</Text>
      <View className="wallet-head__held">
        <Text>
          {T.pending} {yuan(overview.pendingFen)}
        </Text>
        <Text>
          {T.withdrawing} {yuan(overview.withdrawingFen)}
        </Text>
      </View>
      {overview.pendingFen > 0 && <Text className="wallet-head__hint">{T.pendingHint}</Text>}
    </View>
  )
}

function Stats({ overview }: { overview: WalletOverview }) {
  const items = [
    { label: T.monthIncome, fen: overview.monthIncomeFen },
    { label: T.totalIncome, fen: overview.totalIncomeFen },
    { label: T.yearTax, fen: overview.yearTaxFen },
  ]
  return (
    <View className="wallet-stats">
      {items.map((item) => (
        <View key={item.label} className="wallet-stats__item">
          <Text className="wallet-stats__value">{yuan(item.fen)}</Text>
          <Text className="wallet-stats__label">{item.label}</Text>
        </View>
      ))}
    </View>
  )
}

function TradeRow({ trade, onOpen }: { trade: WalletTrade; onOpen: () => void }) {
  return (
    <View className="wallet-trade" onClick={onOpen}>
      <View className="wallet-trade__main">
        <Text className="wallet-trade__title">{trade.title}</Text>
        <Text className="wallet-trade__meta">
          {trade.kindLabel} · {trade.accountLabel} · {timeText(trade.at)}
        </Text>
      </View>
      <Text
        className={`wallet-trade__amount${trade.amountFen > 0 ? ' wallet-trade__amount--in' : ''}`}
      >
        {signedYuan(trade.amountFen)}
      </Text>
    </View>
  )
}

function Filters({
  filter,
  onChange,
}: {
  filter: TradeFilter
  onChange: (next: TradeFilter) => void
}) {
  const now = chinaMonth()
  return (
    <View className="wallet-filters">
      <TabStrip
        tabs={KIND_TABS}
        active={filter.kind ?? 'all'}
        onChange={(key) => onChange({ ...filter, kind: key === 'all' ? null : key })}
      />
      <View className="wallet-filters__month">
        <Picker
          mode="date"
          fields="month"
          value={filter.month ?? now}
          end={now}
          aria-label={T.pickMonth}
          onChange={(event) =>
            onChange({ ...filter, month: String(event.detail.value).slice(0, 7) })
          }
        >
          <View className="wallet-filters__month-value">
            <Text>{filter.month ? monthText(filter.month) : T.allMonths}</Text>
            <Text aria-hidden>▾</Text>
          </View>
        </Picker>
        {filter.month && (
          <Text
            className="wallet-filters__clear"
            aria-label="清除月份"
            onClick={() => onChange({ ...filter, month: null })}
          >
            {T.allMonths}
          </Text>
        )}
      </View>
    </View>
  )
}

function Trades({
  filter,
  refreshSignal,
  onPulled,
  onOpen,
}: {
  filter: TradeFilter
  /** Changes when the page asks the list to load again (coming back to it). */
  refreshSignal: number
  /** A pull-to-refresh reloads the figures above too. */
  onPulled: () => Promise<void>
  onOpen: (trade: WalletTrade) => void
}) {
  const list = useWalletTrades(filter)
  const first = useRef(refreshSignal)
  useEffect(() => {
    if (refreshSignal !== first.current) void list.refresh()
    // Only a new signal asks; the list's own refresh is stable.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [refreshSignal])
  const pulled: PagedList<WalletTrade> = {
    ...list,
    refresh: async () => {
      await Promise.all([list.refresh(), onPulled()])
    },
  }
  const filtered = filter.kind !== null || filter.month !== null
  return (
    <RefreshList
      list={pulled}
      keyOf={(trade) => trade.id}
      emptyText={filtered ? T.tradesEmptyFiltered : T.tradesEmpty}
      renderItem={(trade) => <TradeRow trade={trade} onOpen={() => onOpen(trade)} />}
    />
  )
}

export interface WalletViewProps {
  onWithdraw: () => void
  onWithdrawals: () => void
  onOpenTrade: (trade: WalletTrade) => void
}

/**
 * 我的钱包: the balance that can be withdrawn, what is held (待结算, 提现中), income this month and
 * in all, tax withheld this year, 提现 (closed with its reason) and 提现记录, then 交易记录 by kind
 * and month with pull-to-refresh and load-more; each row opens its detail.
 */
export function WalletView({ onWithdraw, onWithdrawals, onOpenTrade }: WalletViewProps) {
  const overview = useWalletOverview()
  const [filter, setFilter] = useState<TradeFilter>(NO_FILTER)
  const [refreshSignal, setRefreshSignal] = useState(0)
  useRefreshOnReturn(() => {
    void overview.reload()
    setRefreshSignal((value) => value + 1)
  })
  if (overview.status !== 'ready') return <OverviewState overview={overview} />
  const data = overview.data
  const blocked = withdrawBlocked(data, T.belowMinimum)
  return (
    <View className="wallet-page">
      <Head overview={data} />
      <View className="wallet-actions">
        <Button
          className="wallet-actions__button"
          type="primary"
          disabled={blocked !== null}
          onClick={onWithdraw}
        >
          {T.withdraw}
        </Button>
        <Button className="wallet-actions__button" onClick={onWithdrawals}>
          {T.withdrawList}
        </Button>
      </View>
      {blocked && (
        <View className="wallet-blocked" role="note">
          {blocked}
        </View>
      )}
      <Stats overview={data} />
      <Text className="wallet-section">{T.trades}</Text>
      <Filters filter={filter} onChange={setFilter} />
      <Trades
        key={filterKey(filter)}
        filter={filter}
        refreshSignal={refreshSignal}
        onPulled={overview.reload}
        onOpen={onOpenTrade}
      />
    </View>
  )
}
