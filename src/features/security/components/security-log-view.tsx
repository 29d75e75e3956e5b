import { Text, View } from '@tarojs/components'
import { RefreshList, type PagedList } from '@/components/refresh-list'
import type { AuditEvent } from '@/services/profile'
import { timeFormat } from '@/utils/time'
import './security-log-view.scss'

/** Events a person should look at twice: a stranger's attempt or a change they may not have made. */
const WARNING_KINDS = new Set<AuditEvent['kind']>(['login-failed', 'lock', 'refresh-reuse'])

function EventRow({ event }: { event: AuditEvent }) {
  const where = [event.location, event.ipMasked].filter((part) => part !== '').join(' · ')
  return (
    <View className="security-log__item">
      <View className="security-log__head">
        <Text
          className={`security-log__label${WARNING_KINDS.has(event.kind) ? ' security-log__label--warn' : ''}`}
        >
          {event.detail ? `${event.label}（${event.detail}）` : event.label}
        </Text>
        <Text className="security-log__time">
          {timeFormat(event.createdAt, 'yyyy-mm-dd hh:MM')}
        </Text>
      </View>
      <Text className="security-log__meta">{event.client}</Text>
      {where !== '' && <Text className="security-log__meta">{where}</Text>}
    </View>
  )
}

export function SecurityLogView({ list }: { list: PagedList<AuditEvent> }) {
  return (
    <View className="security-log">
      <Text className="security-log__intro">
        您账号的登录与安全操作记录。如有不是您本人的操作，请立即修改密码。
      </Text>
      <RefreshList
        list={list}
        keyOf={(event) => event.id}
        renderItem={(event) => <EventRow event={event} />}
        emptyText="暂无登录记录"
      />
    </View>
  )
}
