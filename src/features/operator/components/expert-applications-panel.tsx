import { useState } from 'react'
import { Text, View } from '@tarojs/components'
import { useDidShow } from '@tarojs/taro'
import { EXPERT_APPLICATION_STATUS_LABELS } from '@contract/main/experts'
import { RefreshList } from '@/components/refresh-list'
import { navigate } from '@/services/navigate'
import type {
  ExpertApplicationStatus,
  OperatorExpertApplication,
} from '@/services/operator-experts'
import { timeFormat } from '@/utils/time'
import { useExpertApplications } from '../hooks/use-expert-review'
import './experts.scss'

const STATUSES = [
  'pending',
  'approved',
  'rejected',
  'withdrawn',
] as const satisfies readonly ExpertApplicationStatus[]
type QueueStatus = (typeof STATUSES)[number]

const EMPTY: Record<QueueStatus, string> = {
  pending: '没有待审核的申请',
  approved: '还没有已认证的申请',
  rejected: '没有已驳回的申请',
  withdrawn: '没有已撤回的申请',
}

/** One row: who (the bound ID card's name), where they practise, and when they submitted. */
export function ApplicationRow({ item }: { item: OperatorExpertApplication }) {
  const open = () => void navigate('operatorExpertApplication', { id: item.id })
  const where = [item.hospitalName, item.department, item.titleLabel].filter(Boolean).join(' · ')
  return (
    <View
      className="operator__row expert-queue__row"
      role="button"
      aria-label={`查看 ${item.certifiedName ?? '申请人'} 的认证申请`}
      onClick={open}
    >
      <View className="expert-queue__head">
        <Text className="operator__title expert-queue__name">
          {item.certifiedName ?? '（未绑定身份证）'}
        </Text>
        <Text className={`expert-status expert-status--${item.status}`}>{item.statusLabel}</Text>
      </View>
      <Text className="operator__meta expert-queue__where">{where || '未填写医院和科室'}</Text>
      <View className="expert-queue__foot">
        <Text className="operator__meta">
          {item.submittedAt
            ? `提交于 ${timeFormat(item.submittedAt, 'yyyy-mm-dd hh:MM')}`
            : '尚未提交'}
          {item.decidedAt ? ` · 处理于 ${timeFormat(item.decidedAt, 'yyyy-mm-dd hh:MM')}` : ''}
        </Text>
        <Text className="expert-queue__go">
          {item.status === 'pending' ? '去审核 ›' : '查看 ›'}
        </Text>
      </View>
    </View>
  )
}

function Queue({ status }: { status: QueueStatus }) {
  const list = useExpertApplications(status)
  // Back from an application: a decided one has left the 待审核 queue.
  useDidShow(() => void list.refresh())
  return (
    <RefreshList
      list={list}
      keyOf={(item) => item.id}
      emptyText={EMPTY[status]}
      renderItem={(item) => <ApplicationRow item={item} />}
    />
  )
}

/** 专家认证: the review queue (待审核 first, oldest submission first) and the decided ones. */
export function ExpertApplicationsPanel() {
  const [status, setStatus] = useState<QueueStatus>('pending')
  return (
    <View>
      <View className="operator__chips expert-filter" role="radiogroup" aria-label="申请状态">
        {STATUSES.map((key) => (
          <View
            key={key}
            role="radio"
            aria-checked={key === status}
            className={`operator__chip${key === status ? ' operator__chip--on' : ''}`}
            onClick={() => setStatus(key)}
          >
            {EXPERT_APPLICATION_STATUS_LABELS[key]}
          </View>
        ))}
      </View>
      {status === 'pending' && (
        <Text className="operator__hint">
          先提交的在前。打开申请，对照证书照片在国家卫健委网站核对后再通过或驳回。
        </Text>
      )}
      {/* A new list per status: its pages start again from the first. */}
      <Queue key={status} status={status} />
    </View>
  )
}
