import { useState } from 'react'
import { Text, View } from '@tarojs/components'
import { Button, Input } from '@nutui/nutui-react-taro'
import { PageState } from '@/components/page-state'
import { RefreshList } from '@/components/refresh-list'
import {
  type OperatorWithdrawal,
  type Reconciliation,
  WALLET_LIMIT_FIELDS,
  WALLET_LIMIT_LABELS,
  type WalletLimitField,
  WITHDRAWAL_STATE_LABELS,
  WITHDRAWAL_STATES,
  type WithdrawalState,
  yuanOf,
} from '@/services/wallet'
import { timeFormat } from '@/utils/time'
import {
  chinaYesterday,
  checkLimits,
  type LimitsProblem,
  type LimitsTyped,
  limitsTyped,
  noReview,
  recentQuarters,
  rejectReasonProblem,
  useIncomeReport,
  useOperatorWithdrawals,
  useReconciliation,
  useWalletLimits,
  useWithdrawalDecision,
  WALLET_LIMITS_TEXTS,
  type WithdrawalCounts,
} from '../hooks/use-operator-withdrawals'
import { ReasonBox } from './reason-box'
import './withdrawals.scss'

type Decision = ReturnType<typeof useWithdrawalDecision>
type FilterKey = WithdrawalState | 'all'

const when = (at: string | null) => (at ? timeFormat(at, 'yyyy-mm-dd hh:MM') : '')

const PROBLEM_LABELS: Record<Reconciliation['differences'][number]['problem'], string> = {
  'missing-in-ledger': '账本中没有',
  'missing-at-provider': '支付机构没有',
  state: '状态不一致',
  amount: '金额不一致',
}

/** One side of a difference: its state and amount, or 无 when the bill is not there at all. */
function side(state: string | null, value: number | null): string {
  if (state === null && value === null) return '无'
  return [state, value === null ? null : `¥${yuanOf(value)}`].filter(Boolean).join(' ')
}

/**
 * 提现 ¥gross · 代扣个税 · 实到 once paid (应到 while on its way); a failed, rejected or cancelled
 * one paid and withheld nothing: its gross went back to the expert's balance.
 */
export function amountsLine(withdrawal: OperatorWithdrawal): string {
  const gross = `提现 ¥${yuanOf(withdrawal.grossFen)}`
  if (withdrawal.state === 'failed' || withdrawal.state === 'cancelled') {
    return `${gross} · 未打款，已退回专家余额`
  }
  const net = withdrawal.state === 'paid' ? '实到' : '应到'
  return `${gross} · 代扣个税 ¥${yuanOf(withdrawal.taxFen)} · ${net} ¥${yuanOf(withdrawal.netFen)}`
}

/** 驳回: the reason is required (the expert reads it). */
function RejectForm({
  withdrawal,
  decision,
  onClose,
}: {
  withdrawal: OperatorWithdrawal
  decision: Decision
  onClose: () => void
}) {
  const [reason, setReason] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const submit = async () => {
    const found = rejectReasonProblem(reason)
    setProblem(found)
    if (found) return
    if (await decision.reject(withdrawal, reason)) onClose()
  }
  return (
    <View className="operator__reply">
      <ReasonBox
        value={reason}
        placeholder="驳回原因（必填，专家会在提现记录中看到它）"
        label="驳回原因"
        max={200}
        problem={problem}
        onChange={(value) => {
          setReason(value)
          if (problem) setProblem(null)
        }}
      />
      <View className="operator__actions">
        <Button
          size="small"
          type="primary"
          disabled={decision.busyId === withdrawal.id}
          onClick={() => void submit()}
        >
          确认驳回
        </Button>
        <Button size="small" onClick={onClose}>
          取消
        </Button>
      </View>
    </View>
  )
}

function WithdrawalRow({
  withdrawal,
  decision,
  rejecting,
  setRejecting,
}: {
  withdrawal: OperatorWithdrawal
  decision: Decision
  rejecting: boolean
  setRejecting: (id: string | null) => void
}) {
  const busy = decision.busyId === withdrawal.id
  return (
    <View className="operator__row" aria-label={`提现 ${withdrawal.billNo}`}>
      <View className="expert-queue__head">
        <Text className="operator__title expert-queue__name">
          {withdrawal.expert.name} · {withdrawal.expert.hospitalName}
        </Text>
        <Text
          className={`operator__state${withdrawal.state === 'reviewing' ? ' operator__state--open' : ''}`}
        >
          {withdrawal.stateLabel}
        </Text>
      </View>
      <Text className="operator__text">{amountsLine(withdrawal)}</Text>
      <Text className="operator__meta">
        {withdrawal.targetLabel} · 单号 {withdrawal.billNo}
      </Text>
      <Text className="operator__meta">
        申请 {when(withdrawal.createdAt)}
        {withdrawal.paidAt ? ` · 到账 ${when(withdrawal.paidAt)}` : ''}
      </Text>
      {withdrawal.reason && (
        <Text className="operator__answer">
          原因：{withdrawal.reason}
          {withdrawal.providerCode ? `（${withdrawal.providerCode}）` : ''}
        </Text>
      )}
      {withdrawal.state === 'reviewing' &&
        (rejecting ? (
          <RejectForm
            withdrawal={withdrawal}
            decision={decision}
            onClose={() => setRejecting(null)}
          />
        ) : (
          <View className="operator__actions">
            <Button
              size="small"
              type="primary"
              disabled={busy}
              onClick={() => void decision.approve(withdrawal)}
            >
              通过
            </Button>
            <Button size="small" disabled={busy} onClick={() => setRejecting(withdrawal.id)}>
              驳回
            </Button>
          </View>
        ))}
    </View>
  )
}

function Withdrawals({
  filterKey,
  onCounts,
}: {
  filterKey: FilterKey
  onCounts: (counts: WithdrawalCounts) => void
}) {
  const list = useOperatorWithdrawals(filterKey === 'all' ? null : filterKey, onCounts)
  const decision = useWithdrawalDecision(list.refresh)
  const [rejecting, setRejecting] = useState<string | null>(null)
  return (
    <RefreshList
      list={list}
      keyOf={(withdrawal) => withdrawal.id}
      emptyText={filterKey === 'reviewing' ? '没有待审核的提现' : '没有提现记录'}
      renderItem={(withdrawal) => (
        <WithdrawalRow
          withdrawal={withdrawal}
          decision={decision}
          rejecting={rejecting === withdrawal.id}
          setRejecting={setRejecting}
        />
      )}
    />
  )
}

function ReconciliationResult({ result }: { result: Reconciliation }) {
  const ok = result.differences.length === 0
  return (
    <View className="withdrawal-reconcile">
      <Text className={`operator__state operator__state--${ok ? 'published' : 'open'}`}>
        {result.date} ·{' '}
        {result.checkedAt === null
          ? '尚未对账'
          : ok
            ? '一致'
            : `${result.differences.length} 处差异`}
      </Text>
      <Text className="operator__meta">
        支付机构 {result.providerCount} 笔 · 账本 {result.ledgerCount} 笔
        {result.checkedAt ? ` · ${when(result.checkedAt)}` : ''}
      </Text>
      {result.differences.map((difference) => (
        <Text key={`${difference.outBillNo}-${difference.problem}`} className="operator__text">
          {difference.outBillNo}：{PROBLEM_LABELS[difference.problem]}（支付机构{' '}
          {side(difference.providerState, difference.providerFen)}；账本{' '}
          {side(difference.ledgerState, difference.ledgerFen)}）
        </Text>
      ))}
    </View>
  )
}

/** 对账 and the quarterly income report: the money checks operators run. */
function MoneyChecks() {
  const reconciliation = useReconciliation()
  const report = useIncomeReport()
  const [date, setDate] = useState(chinaYesterday)
  const quarters = recentQuarters()
  const [quarter, setQuarter] = useState(quarters[0]!)
  const results = reconciliation.results
  return (
    <View className="operator__form" aria-label="对账与收入报表">
      <Text className="operator__form-title">对账（支付机构日账单与账本）</Text>
      <View className="expert-search__row">
        <Input
          className="operator__input expert-search__input"
          value={date}
          placeholder="日期，如 2026-11-19"
          maxLength={10}
          aria-label="对账日期"
          onChange={setDate}
        />
        <Button
          size="small"
          type="primary"
          disabled={reconciliation.busy}
          onClick={() => void reconciliation.reconcile(date.trim())}
        >
          立即对账
        </Button>
      </View>
      {results.status === 'loading' && <PageState status="loading" />}
      {results.status === 'error' && (
        <PageState status="error" message={results.message} onRetry={results.reload} />
      )}
      {results.status === 'ready' &&
        (results.data.items.length === 0 ? (
          <Text className="operator__meta">还没有对账结果</Text>
        ) : (
          results.data.items.map((result) => (
            <ReconciliationResult key={result.date} result={result} />
          ))
        ))}
      <Text className="operator__form-title">季度收入报表（每位专家的身份与收入）</Text>
      <View className="operator__chips" role="radiogroup" aria-label="季度">
        {quarters.map((one) => (
          <View
            key={one}
            role="radio"
            aria-checked={one === quarter}
            className={`operator__chip${one === quarter ? ' operator__chip--on' : ''}`}
            onClick={() => setQuarter(one)}
          >
            {one}
          </View>
        ))}
      </View>
      <View className="operator__actions">
        <Button size="small" disabled={report.busy} onClick={() => void report.download(quarter)}>
          下载 {quarter} 收入报表（CSV）
        </Button>
      </View>
    </View>
  )
}

/** While editing: what the typed threshold will mean, once both figures read as amounts. */
function reviewPreview(typed: LimitsTyped): string | null {
  const check = checkLimits(typed)
  if (check.kind === 'ok') return WALLET_LIMITS_TEXTS.review(check.limits)
  return null
}

/**
 * 提现限额: the four limits in 元 (the threshold says 不需审核 when it is not below the per-transfer
 * limit), 修改 opens them as inputs; 保存 checks them in the contract's words beside the field,
 * asks to confirm, then saves. New withdrawals only.
 */
function LimitsCard() {
  const T = WALLET_LIMITS_TEXTS
  const model = useWalletLimits()
  const resource = model.limits
  const [typed, setTyped] = useState<LimitsTyped | null>(null)
  const [problem, setProblem] = useState<LimitsProblem | null>(null)
  const type = (field: WalletLimitField, value: string) => {
    setTyped((current) => (current ? { ...current, [field]: value } : current))
    setProblem(null)
  }
  const submit = async () => {
    if (!typed) return
    const outcome = await model.save(typed)
    if (outcome === 'saved') setTyped(null)
    else if (outcome !== 'not-saved') setProblem(outcome)
  }
  const preview = typed ? reviewPreview(typed) : null
  return (
    <View className="operator__form withdrawal-limits" aria-label={T.title}>
      <Text className="operator__form-title">{T.title}</Text>
      {resource.status === 'loading' && <PageState status="loading" />}
      {resource.status === 'error' && (
        <PageState status="error" message={resource.message} onRetry={resource.reload} />
      )}
      {resource.status === 'ready' && typed === null && (
        <>
          {WALLET_LIMIT_FIELDS.map((field) => (
            <View key={field} className="withdrawal-limits__row">
              <Text className="withdrawal-limits__label">{WALLET_LIMIT_LABELS[field]}</Text>
              <Text className="withdrawal-limits__value">
                ¥{yuanOf(resource.data[field])}
                {field === 'reviewAboveFen' && noReview(resource.data) ? '（不需审核）' : ''}
              </Text>
            </View>
          ))}
          <Text className="operator__meta">{T.newOnly}</Text>
          <View className="operator__actions">
            <Button
              size="small"
              onClick={() => {
                setTyped(limitsTyped(resource.data))
                setProblem(null)
              }}
            >
              {T.edit}
            </Button>
          </View>
        </>
      )}
      {resource.status === 'ready' && typed !== null && (
        <>
          {WALLET_LIMIT_FIELDS.map((field) => (
            <View key={field} className="withdrawal-limits__field">
              <Text className="withdrawal-limits__label">{WALLET_LIMIT_LABELS[field]}（元）</Text>
              <Input
                className="operator__input"
                type="digit"
                value={typed[field]}
                maxLength={12}
                aria-label={WALLET_LIMIT_LABELS[field]}
                onChange={(value) => type(field, value)}
              />
              <Text className="operator__hint">{T.hints[field]}</Text>
              {problem?.field === field && (
                <View className="withdrawal-limits__error" role="alert">
                  {problem.message}
                </View>
              )}
            </View>
          ))}
          {preview && <Text className="operator__text">审核：{preview}</Text>}
          <Text className="operator__meta">{T.newOnly}</Text>
          <View className="operator__actions">
            <Button size="small" type="primary" disabled={model.busy} onClick={() => void submit()}>
              {T.save}
            </Button>
            <Button
              size="small"
              disabled={model.busy}
              onClick={() => {
                setTyped(null)
                setProblem(null)
              }}
            >
              {T.cancel}
            </Button>
          </View>
        </>
      )}
    </View>
  )
}

/** 提现审核: withdrawals by state (with counts), 通过 / 驳回, 提现限额, 对账 and the income report. */
export function WithdrawalsPanel() {
  const [filterKey, setFilterKey] = useState<FilterKey>('reviewing')
  const [counts, setCounts] = useState<WithdrawalCounts | null>(null)
  const filters: { key: FilterKey; title: string }[] = [
    ...WITHDRAWAL_STATES.map((state) => {
      const count = counts?.[state]
      return {
        key: state,
        title: `${WITHDRAWAL_STATE_LABELS[state]}${count !== undefined ? ` ${count}` : ''}`,
      }
    }),
    { key: 'all', title: '全部' },
  ]
  return (
    <View>
      <LimitsCard />
      <MoneyChecks />
      <View className="operator__form">
        <View className="operator__chips" role="radiogroup" aria-label="提现状态">
          {filters.map((item) => (
            <View
              key={item.key}
              role="radio"
              aria-checked={item.key === filterKey}
              className={`operator__chip${item.key === filterKey ? ' operator__chip--on' : ''}`}
              onClick={() => setFilterKey(item.key)}
            >
              {item.title}
            </View>
          ))}
        </View>
      </View>
      <Withdrawals key={filterKey} filterKey={filterKey} onCounts={setCounts} />
    </View>
  )
}
