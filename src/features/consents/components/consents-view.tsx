import { useState } from 'react'
import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { PageState } from '@/components/page-state'
import type { ConsentGroup, ConsentItem } from '@/services/consents'
import { timeFormat } from '@/utils/time'
import { consentKey, type ConsentsModel } from '../hooks/use-consents'
import './consents-view.scss'

function ConsentCard({
  item,
  busy,
  onWithdraw,
}: {
  item: ConsentItem
  busy: boolean
  onWithdraw: () => void
}) {
  const [open, setOpen] = useState(false)
  const newest = item.history[0]
  return (
    <View className="consents__item">
      <View className="consents__head">
        <View className="consents__what">
          <Text className="consents__title">{item.title}</Text>
          <Text className="consents__meta">
            {item.subject} · 版本 {item.version}
            {newest ? ` · ${timeFormat(newest.at, 'yyyy-mm-dd hh:MM')}` : ''}
          </Text>
        </View>
        <Text
          className={`consents__state${item.state === 'withdrawn' ? ' consents__state--off' : ''}`}
        >
          {item.stateLabel}
        </Text>
      </View>
      <View className="consents__actions">
        <Text className="consents__link" onClick={() => setOpen(!open)}>
          {open ? '收起记录' : `查看记录（${item.history.length}）`}
        </Text>
        {item.canWithdraw && (
          <Button size="small" fill="outline" loading={busy} onClick={onWithdraw}>
            撤回
          </Button>
        )}
      </View>
      {open && (
        <View className="consents__history">
          {item.history.map((event, index) => (
            <Text key={`${event.at}-${index}`} className="consents__event">
              {timeFormat(event.at, 'yyyy-mm-dd hh:MM')} {event.actionLabel}（版本 {event.version}）
              {event.channel ? ` · ${event.channel}` : ''}
            </Text>
          ))}
        </View>
      )}
    </View>
  )
}

function Group({ group, model }: { group: ConsentGroup; model: ConsentsModel }) {
  return (
    <View className="consents__group">
      <Text className="consents__label">{group.label}</Text>
      <Text className="consents__about">{group.about}</Text>
      {!group.withdrawable && <Text className="consents__note">{group.onWithdraw}</Text>}
      {group.items.length === 0 ? (
        <Text className="consents__empty">暂无记录</Text>
      ) : (
        group.items.map((item) => (
          <ConsentCard
            key={consentKey(item)}
            item={item}
            busy={model.busy === consentKey(item)}
            onWithdraw={() => void model.withdraw(item)}
          />
        ))
      )}
    </View>
  )
}

export function ConsentsView({ model }: { model: ConsentsModel }) {
  const { state } = model
  if (state.status === 'loading') return <PageState status="loading" />
  if (state.status === 'error') {
    return <PageState status="error" message={state.message} onRetry={model.retry} />
  }
  return (
    <View className="consents">
      <Text className="consents__intro">
        健康信息属于敏感个人信息，每一项使用都单独征得你的同意。你可以随时查看并撤回；撤回后，依赖该授权的处理立即停止。
      </Text>
      {state.groups.map((group) => (
        <Group key={group.purpose} group={group} model={model} />
      ))}
    </View>
  )
}
