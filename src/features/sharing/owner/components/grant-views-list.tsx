import { Text, View } from '@tarojs/components'
import type { GrantView } from '@/services/grants'
import { recordLabel, viewTime } from '../format'

export interface GrantViewsListProps {
  views: readonly GrantView[]
  /** Said when nobody has looked yet. */
  empty?: string
}

/** Who looked, when, at what, and roughly where (city level at most, as the server gives it). */
export function GrantViewsList({ views, empty = '还没有人查看' }: GrantViewsListProps) {
  if (views.length === 0) return <Text className="grant-views__empty">{empty}</Text>
  return (
    <View className="grant-views" role="list">
      {views.map((view) => (
        <View
          key={`${view.grantId}:${view.record.kind}:${view.record.id}:${view.firstAt}:${view.viewer}`}
          className="grant-views__item"
          role="listitem"
        >
          <View className="grant-views__head">
            <Text className="grant-views__who">{view.viewer}</Text>
            <Text className="grant-views__place">{view.place}</Text>
          </View>
          <Text className="grant-views__what">{recordLabel(view.record)}</Text>
          <Text className="grant-views__when">{viewTime(view)}</Text>
        </View>
      ))}
    </View>
  )
}
