import { Text, View } from '@tarojs/components'
import { useCallback, useRef, useState } from 'react'
import { RefreshList } from '@/components/refresh-list'
import { TabStrip } from '@/components/tab-strip'
import {
  CONSULT_TAB_LABELS,
  CONSULT_TABS,
  type ConsultCard,
  type ConsultTab,
  yuanOf,
} from '@/services/consultations'
import { timeFormat } from '@/utils/time'
import { ConsultStatusTag } from '../../shared/consult-parts'
import { deadlineText } from '../../shared/countdown'
import {
  isEnded,
  type TabCounts,
  useConsultList,
  useDeleteConsultation,
} from '../hooks/use-my-consultations'
import './patient.scss'

function ConsultRow({
  item,
  onOpen,
  onDelete,
}: {
  item: ConsultCard
  onOpen: () => void
  onDelete: (() => void) | null
}) {
  const left = deadlineText(item.deadlineLabel, item.deadline)
  return (
    <View className="consult-row" onClick={onOpen}>
      <View className="consult-row__head">
        <View className="consult-row__who">
          <Text className="consult-row__expert">{item.expert.name}</Text>
          <Text className="consult-row__title">{item.expert.titleLabel}</Text>
          {item.unread > 0 && (
            <View className="consult-row__dot" aria-label={`${item.unread} 条未读`} />
          )}
        </View>
        <ConsultStatusTag state={item.state} label={item.stateLabel} />
      </View>
      <Text className="consult-row__meta">
        {item.serviceLabel} · 就诊人 {item.person.relationLabel} {item.person.nameMasked}
      </Text>
      <Text className="consult-row__complaint">{item.chiefComplaint}</Text>
      <View className="consult-row__foot">
        <Text className={left ? 'consult-row__left' : 'consult-row__time'}>
          {left ?? timeFormat(item.createdAt, 'yyyy-mm-dd hh:MM')}
        </Text>
        <View className="consult-row__end">
          {item.disputed && <Text className="consult-row__disputed">投诉处理中</Text>}
          <Text className="consult-row__price">¥{yuanOf(item.priceFen)}</Text>
          {onDelete && (
            <Text
              className="consult-row__delete"
              onClick={(event) => {
                event.stopPropagation()
                onDelete()
              }}
            >
              删除
            </Text>
          )}
        </View>
      </View>
    </View>
  )
}

function TabList({
  tab,
  onCounts,
  onOpen,
}: {
  tab: ConsultTab
  onCounts: (counts: TabCounts) => void
  onOpen: (item: ConsultCard) => void
}) {
  const list = useConsultList(tab, onCounts)
  const remove = useDeleteConsultation()
  return (
    <RefreshList
      list={list}
      keyOf={(item) => item.id}
      renderItem={(item) => (
        <ConsultRow
          item={item}
          onOpen={() => onOpen(item)}
          onDelete={
            isEnded(item.state)
              ? () =>
                  void remove(item.id).then((gone) => {
                    if (gone) void list.refresh()
                  })
              : null
          }
        />
      )}
      emptyText={`暂无${CONSULT_TAB_LABELS[tab]}的咨询`}
    />
  )
}

export interface QuestionListViewProps {
  onOpen: (item: ConsultCard) => void
  /** The tab to open on (a link may name one); the first (待支付) otherwise. */
  initialTab?: ConsultTab
}

/** 我的咨询: a tab per state with its count; rows with the expert, the person, the time left. */
export function QuestionListView({ onOpen, initialTab }: QuestionListViewProps) {
  const [tab, setTab] = useState<ConsultTab>(initialTab ?? CONSULT_TABS[0])
  const [counts, setCounts] = useState<TabCounts | null>(null)
  // Opened without a tab named, an empty first tab gives way once to the first with consultations.
  const placed = useRef(initialTab !== undefined)
  const onCounts = useCallback((next: TabCounts) => {
    setCounts(next)
    if (placed.current) return
    placed.current = true
    setTab((current) => {
      if ((next[current] ?? 0) > 0) return current
      return CONSULT_TABS.find((key) => (next[key] ?? 0) > 0) ?? current
    })
  }, [])
  return (
    <View className="question-list">
      <TabStrip
        tabs={CONSULT_TABS.map((key) => ({
          key,
          title: CONSULT_TAB_LABELS[key],
          count: counts ? (counts[key] ?? 0) : undefined,
        }))}
        active={tab}
        onChange={setTab}
      />
      <TabList key={tab} tab={tab} onCounts={onCounts} onOpen={onOpen} />
    </View>
  )
}
