import { Text, View } from '@tarojs/components'
import { RefreshList } from '@/components/refresh-list'
import { timeFormat } from '@/utils/time'
import { useActions } from '../hooks/use-operator'

/** 操作记录: who changed what, when (the operators' audit log; nobody can edit it). */
export function ActionsPanel() {
  const list = useActions()
  return (
    <RefreshList
      list={list}
      keyOf={(line) => line.id}
      emptyText="还没有操作记录"
      renderItem={(line) => (
        <View className="operator__row">
          <Text className="operator__title">
            {line.label}
            {line.detail ? `：${line.detail}` : ''}
          </Text>
          <Text className="operator__meta">
            {line.operator} · {timeFormat(line.at, 'yyyy-mm-dd hh:MM:ss')} ·{' '}
            {line.targetId.slice(0, 8)}
          </Text>
        </View>
      )}
    />
  )
}
