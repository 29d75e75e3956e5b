import { Text, View } from '@tarojs/components'
import { RefreshList, type PagedList } from '@/components/refresh-list'
import { timeFrom } from '@/utils/time'
import type { InboxRow } from '../hooks/use-consult-inbox'
import { CONVERSATION_TEXTS as T } from '../texts'
import './conversation.scss'

function Row({ row, onOpen }: { row: InboxRow; onOpen: () => void }) {
  const { card } = row
  const name =
    row.side === 'expert'
      ? `${card.person.nameMasked}（${card.serviceLabel}）`
      : `${card.expert.name} ${card.expert.titleLabel}`
  return (
    <View
      className="consult-inbox__row"
      role="link"
      aria-label={`打开 ${name} 的对话`}
      onClick={onOpen}
    >
      <View className="consult-inbox__main">
        <View className="consult-inbox__head">
          <Text className="consult-inbox__name">{name}</Text>
          <Text className="consult-inbox__side">
            {row.side === 'expert' ? T.asExpert : T.asPatient}
          </Text>
          <Text className="consult-inbox__time">{timeFrom(card.createdAt)}</Text>
        </View>
        <Text className="consult-inbox__preview">{card.chiefComplaint}</Text>
        <Text className="consult-inbox__state">
          {card.stateLabel}
          {card.deadlineLabel ? ` · ${card.deadlineLabel}` : ''}
        </Text>
      </View>
      {card.unread > 0 && (
        <Text className="consult-inbox__badge" aria-label={`${card.unread} 条未读`}>
          {T.unreadCount(card.unread)}
        </Text>
      )}
    </View>
  )
}

/** 咨询消息: one row per conversation, unread first, then newest. */
export function InboxView({
  list,
  onOpen,
}: {
  list: PagedList<InboxRow>
  onOpen: (row: InboxRow) => void
}) {
  return (
    <View className="consult-inbox">
      <RefreshList
        list={list}
        keyOf={(row) => `${row.side}:${row.card.id}`}
        emptyText={T.inboxEmpty}
        renderItem={(row) => <Row row={row} onOpen={() => onOpen(row)} />}
      />
    </View>
  )
}
