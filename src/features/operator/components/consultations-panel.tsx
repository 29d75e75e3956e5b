import { useEffect, useState } from 'react'
import { Text, View } from '@tarojs/components'
import { Button, Input } from '@nutui/nutui-react-taro'
import {
  CONSULT_STATE_LABELS,
  CONSULT_STATES,
  type ConsultState,
  yuanOf,
} from '@contract/main/consultations'
import { PageState } from '@/components/page-state'
import { RefreshList } from '@/components/refresh-list'
import type { OperatorConsult } from '@/services/operator-consultations'
import { timeFormat } from '@/utils/time'
import {
  type ConsultFilter,
  percentOf,
  type RefundChoice,
  refundFenOf,
  useComplaintDecision,
  useMoneySettings,
  useOperatorConsultations,
} from '../hooks/use-operator-consultations'
import { ReasonBox } from './reason-box'

type Decision = ReturnType<typeof useComplaintDecision>
type FilterKey = ConsultState | 'disputed' | 'all'

const CHOICES: { key: RefundChoice; title: string }[] = [
  { key: 'all', title: '全额退款' },
  { key: 'part', title: '部分退款' },
  { key: 'none', title: '结算给专家' },
]

function filterOf(key: FilterKey): ConsultFilter {
  if (key === 'all') return { all: true }
  if (key === 'disputed') return { disputed: true }
  return { state: key }
}

function DecideForm({
  consult,
  decision,
  onClose,
}: {
  consult: OperatorConsult
  decision: Decision
  onClose: () => void
}) {
  const [choice, setChoice] = useState<RefundChoice>('all')
  const [amount, setAmount] = useState('')
  const [note, setNote] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const submit = async () => {
    const refund = refundFenOf(choice, amount, consult.paidFen)
    if ('problem' in refund) {
      setProblem(refund.problem)
      return
    }
    setProblem(null)
    if (await decision.decide(consult, refund.fen, note)) onClose()
  }
  return (
    <View className="operator__reply">
      <View className="operator__chips" role="radiogroup" aria-label="处理方式">
        {CHOICES.map((item) => (
          <View
            key={item.key}
            role="radio"
            aria-checked={item.key === choice}
            className={`operator__chip${item.key === choice ? ' operator__chip--on' : ''}`}
            onClick={() => setChoice(item.key)}
          >
            {item.title}
          </View>
        ))}
      </View>
      {choice === 'part' && (
        <Input
          className="operator__input"
          type="digit"
          value={amount}
          placeholder={`退款金额（元，最多 ${yuanOf(consult.paidFen)}）`}
          aria-label="退款金额（元）"
          onChange={setAmount}
        />
      )}
      <ReasonBox
        value={note}
        placeholder="处理说明（必填，患者和专家都会看到它）"
        label="处理说明"
        max={200}
        problem={problem}
        onChange={(value) => {
          setNote(value)
          if (problem) setProblem(null)
        }}
      />
      <View className="operator__actions">
        <Button
          size="small"
          type="primary"
          disabled={decision.busyId === consult.id}
          onClick={() => void submit()}
        >
          确认处理
        </Button>
        <Button size="small" onClick={onClose}>
          取消
        </Button>
      </View>
    </View>
  )
}

function ConsultRow({
  consult,
  decision,
  editing,
  setEditing,
}: {
  consult: OperatorConsult
  decision: Decision
  editing: boolean
  setEditing: (id: string | null) => void
}) {
  const complaint = consult.complaint
  return (
    <View className="operator__row">
      <View className="expert-queue__head">
        <Text className="operator__title expert-queue__name">
          {consult.person.nameMasked} → {consult.expert.name}
        </Text>
        <Text className="operator__state">{consult.stateLabel}</Text>
      </View>
      <Text className="operator__meta">
        {consult.serviceLabel} · 实付 ¥{yuanOf(consult.paidFen)}
        {consult.refundedFen > 0 ? ` · 已退 ¥${yuanOf(consult.refundedFen)}` : ''} ·{' '}
        {timeFormat(consult.createdAt, 'yyyy-mm-dd hh:MM')}
      </Text>
      <Text className="operator__text">{consult.chiefComplaint}</Text>
      {complaint && (
        <Text className="operator__answer">
          投诉（{complaint.state === 'open' ? '待处理' : '已处理'}，
          {timeFormat(complaint.at, 'yyyy-mm-dd hh:MM')}）：{complaint.text}
        </Text>
      )}
      {complaint?.state === 'open' &&
        (editing ? (
          <DecideForm consult={consult} decision={decision} onClose={() => setEditing(null)} />
        ) : (
          <View className="operator__actions">
            <Button size="small" type="primary" onClick={() => setEditing(consult.id)}>
              处理投诉
            </Button>
          </View>
        ))}
    </View>
  )
}

function Consultations({
  filterKey,
  onCounts,
}: {
  filterKey: FilterKey
  onCounts: (counts: ReturnType<typeof useOperatorConsultations>['counts']) => void
}) {
  const { list, counts } = useOperatorConsultations(filterOf(filterKey))
  const decision = useComplaintDecision(list.refresh)
  const [editing, setEditing] = useState<string | null>(null)
  useEffect(() => onCounts(counts), [counts, onCounts])
  return (
    <RefreshList
      list={list}
      keyOf={(consult) => consult.id}
      emptyText={filterKey === 'disputed' ? '没有待处理的投诉' : '没有咨询订单'}
      renderItem={(consult) => (
        <ConsultRow
          consult={consult}
          decision={decision}
          editing={editing === consult.id}
          setEditing={setEditing}
        />
      )}
    />
  )
}

function MoneyCard() {
  const money = useMoneySettings()
  const [typed, setTyped] = useState<string | null>(null)
  if (money.settings.status === 'loading') return <PageState status="loading" />
  if (money.settings.status === 'error') {
    return (
      <PageState status="error" message={money.settings.message} onRetry={money.settings.reload} />
    )
  }
  const data = money.settings.data
  const check = data.ledgerCheck
  const value = typed ?? percentOf(data.platformShareBp)
  return (
    <View className="operator__form" aria-label="平台分成与账本核对">
      <Text className="operator__form-title">平台分成</Text>
      <View className="expert-search__row">
        <Input
          className="operator__input expert-search__input"
          type="digit"
          value={value}
          aria-label="平台分成（%）"
          onChange={setTyped}
        />
        <Text className="operator__meta">%</Text>
        <Button
          size="small"
          type="primary"
          disabled={money.busy}
          onClick={() =>
            void money.saveShare(value).then((saved) => {
              if (saved) setTyped(null)
            })
          }
        >
          保存
        </Button>
      </View>
      <Text className="operator__meta">
        只影响之后提交的新订单；已支付的订单按下单时的分成结算。
      </Text>
      <Text className="operator__form-title">账本核对</Text>
      {check ? (
        <>
          <Text className={`operator__state operator__state--${check.ok ? 'published' : 'open'}`}>
            {check.ok ? '通过' : `发现 ${check.problems.length} 个问题`} ·{' '}
            {timeFormat(check.at, 'yyyy-mm-dd hh:MM:ss')}
          </Text>
          {check.problems.map((problem) => (
            <Text key={problem} className="operator__text">
              {problem}
            </Text>
          ))}
        </>
      ) : (
        <Text className="operator__meta">尚未核对</Text>
      )}
      {data.refundsFailed > 0 && (
        <Text className="operator__state operator__state--open">
          退款异常 {data.refundsFailed} 笔，待处理
        </Text>
      )}
      <View className="operator__actions">
        <Button size="small" disabled={money.busy} onClick={() => void money.check()}>
          立即核对
        </Button>
      </View>
    </View>
  )
}

/** 咨询订单: by state or 投诉 (with counts), deciding complaints, the share and the ledger check. */
export function ConsultationsPanel() {
  const [filterKey, setFilterKey] = useState<FilterKey>('disputed')
  const [counts, setCounts] = useState<ReturnType<typeof useOperatorConsultations>['counts']>(null)
  const filters: { key: FilterKey; title: string }[] = [
    { key: 'disputed', title: `投诉${counts ? ` ${counts.disputed}` : ''}` },
    { key: 'all', title: '全部' },
    ...CONSULT_STATES.map((state) => {
      const count = counts?.byState[state]
      return {
        key: state,
        title: `${CONSULT_STATE_LABELS[state]}${count !== undefined ? ` ${count}` : ''}`,
      }
    }),
  ]
  return (
    <View>
      <MoneyCard />
      <View className="operator__form">
        <View className="operator__chips" role="radiogroup" aria-label="咨询状态">
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
      <Consultations key={filterKey} filterKey={filterKey} onCounts={setCounts} />
    </View>
  )
}
