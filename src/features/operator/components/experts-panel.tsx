import { useState } from 'react'
import { Text, View } from '@tarojs/components'
import { Button, Input } from '@nutui/nutui-react-taro'
import { EXPERT_KEYWORD_MAX, SUSPEND_REASON_MAX } from '@contract/main/expert-profiles'
import { RefreshList } from '@/components/refresh-list'
import type { OperatorExpert, SuspendedFilter } from '@/services/operator-experts'
import { timeFormat } from '@/utils/time'
import {
  type ExpertFilter,
  suspendReasonProblem,
  useOperatorExperts,
  useSuspension,
} from '../hooks/use-expert-review'
import { ReasonBox } from './reason-box'
import './experts.scss'

const FILTERS: { key: SuspendedFilter | 'all'; title: string }[] = [
  { key: 'all', title: '全部' },
  { key: 'no', title: '服务中' },
  { key: 'yes', title: '已暂停' },
]

type Suspension = ReturnType<typeof useSuspension>

function SuspendForm({
  expert,
  suspension,
  onClose,
}: {
  expert: OperatorExpert
  suspension: Suspension
  onClose: () => void
}) {
  const [reason, setReason] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const submit = async () => {
    const found = suspendReasonProblem(reason)
    setProblem(found)
    if (found) return
    if (await suspension.suspend(expert.id, expert.name, reason)) onClose()
  }
  return (
    <View className="operator__reply">
      <ReasonBox
        value={reason}
        placeholder="暂停原因（必填，专家会看到它）"
        max={SUSPEND_REASON_MAX}
        label="暂停原因"
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
          disabled={suspension.busyId === expert.id}
          onClick={() => void submit()}
        >
          确认暂停
        </Button>
        <Button size="small" onClick={onClose}>
          取消
        </Button>
      </View>
    </View>
  )
}

function ExpertRow({
  expert,
  suspension,
  editing,
  setEditing,
}: {
  expert: OperatorExpert
  suspension: Suspension
  editing: boolean
  setEditing: (id: string | null) => void
}) {
  const suspended = expert.suspension
  return (
    <View className="operator__row">
      <View className="expert-queue__head">
        <Text className="operator__title expert-queue__name">
          {expert.name}
          {expert.demo ? '（演示）' : ''}
        </Text>
        <Text className={`expert-status expert-status--${suspended ? 'suspended' : 'approved'}`}>
          {suspended ? '已暂停' : '服务中'}
        </Text>
      </View>
      <Text className="operator__meta">
        {[expert.titleLabel, expert.hospital.name, expert.department].join(' · ')}
      </Text>
      <Text className="operator__meta">
        认证于 {timeFormat(expert.certifiedAt, 'yyyy-mm-dd')} ·{' '}
        {expert.accepting ? '接诊中' : '专家已暂停接诊'}
      </Text>
      {suspended && (
        <Text className="expert-review__suspension">
          暂停原因：{suspended.reason}
          <Text className="expert-review__suspension-time">
            （{timeFormat(suspended.at, 'yyyy-mm-dd hh:MM')}）
          </Text>
        </Text>
      )}
      {editing ? (
        <SuspendForm expert={expert} suspension={suspension} onClose={() => setEditing(null)} />
      ) : (
        <View className="operator__actions">
          {suspended ? (
            <Button
              size="small"
              type="primary"
              disabled={suspension.busyId === expert.id}
              onClick={() => void suspension.resume(expert.id, expert.name)}
            >
              恢复服务
            </Button>
          ) : (
            <Button size="small" onClick={() => setEditing(expert.id)}>
              暂停服务
            </Button>
          )}
        </View>
      )}
    </View>
  )
}

function Experts({ filter }: { filter: ExpertFilter }) {
  const list = useOperatorExperts(filter)
  const suspension = useSuspension(list.refresh)
  const [editing, setEditing] = useState<string | null>(null)
  return (
    <RefreshList
      list={list}
      keyOf={(expert) => expert.id}
      emptyText={filter.keyword || filter.suspended ? '没有符合条件的专家' : '还没有认证专家'}
      renderItem={(expert) => (
        <ExpertRow
          expert={expert}
          suspension={suspension}
          editing={editing === expert.id}
          setEditing={setEditing}
        />
      )}
    />
  )
}

/** 专家管理: certified experts, searchable, with 暂停服务 (停诊 by the platform) and 恢复服务. */
export function ExpertsPanel() {
  const [typed, setTyped] = useState('')
  const [filter, setFilter] = useState<ExpertFilter>({ keyword: '' })
  const active = filter.suspended ?? 'all'
  const search = () => setFilter((current) => ({ ...current, keyword: typed.trim() }))
  return (
    <View>
      <View className="operator__form expert-search">
        <View className="expert-search__row">
          <Input
            className="operator__input expert-search__input"
            value={typed}
            placeholder="姓名、医院、科室或擅长方向"
            maxLength={EXPERT_KEYWORD_MAX}
            confirmType="search"
            aria-label="搜索专家"
            onChange={setTyped}
            onConfirm={search}
          />
          <Button size="small" type="primary" onClick={search}>
            搜索
          </Button>
        </View>
        <View className="operator__chips" role="radiogroup" aria-label="服务状态">
          {FILTERS.map((item) => (
            <View
              key={item.key}
              role="radio"
              aria-checked={item.key === active}
              className={`operator__chip${item.key === active ? ' operator__chip--on' : ''}`}
              onClick={() =>
                setFilter((current) => ({
                  keyword: current.keyword,
                  ...(item.key === 'all' ? {} : { suspended: item.key }),
                }))
              }
            >
              {item.title}
            </View>
          ))}
        </View>
      </View>
      <Experts key={`${filter.keyword}|${active}`} filter={filter} />
    </View>
  )
}
