import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { RefreshList } from '@/components/refresh-list'
import type { ExpertCard as Expert, ExpertFilters } from '@/services/expert-profiles'
import { type ExpertFilter, filterKey, isFiltered, useExpertList } from '../hooks/use-experts'
import { ExpertCard } from './expert-card'
import { ExpertFilterBar } from './expert-filter-bar'
import './experts.scss'

function ExpertResults({
  filter,
  onOpen,
  onClear,
}: {
  filter: ExpertFilter
  onOpen: (expert: Expert) => void
  onClear: () => void
}) {
  const list = useExpertList(filter)
  if (list.status === 'ready' && list.items.length === 0 && isFiltered(filter)) {
    // Say what to change: the filters are the only reason this list is empty.
    return (
      <View className="experts__empty" role="status">
        <Text className="experts__empty-text">没有符合筛选条件的专家</Text>
        <Text className="experts__empty-hint">试试放宽科室、地区、职称或服务的条件</Text>
        <Button className="experts__empty-button" type="primary" size="small" onClick={onClear}>
          清除筛选
        </Button>
      </View>
    )
  }
  return (
    <RefreshList
      list={list}
      keyOf={(expert) => expert.id}
      renderItem={(expert) => <ExpertCard expert={expert} onOpen={() => onOpen(expert)} />}
      emptyText="暂无认证专家，请稍后再来看看"
    />
  )
}

export interface ExpertListViewProps {
  filter: ExpertFilter
  choices: ExpertFilters
  onFilter: (filter: ExpertFilter) => void
  onOpen: (expert: Expert) => void
}

/** 找专家: the filter row over the certified experts; each filter is its own list (keyed). */
export function ExpertListView({ filter, choices, onFilter, onOpen }: ExpertListViewProps) {
  return (
    <View className="experts">
      <ExpertFilterBar filter={filter} choices={choices} onChange={onFilter} />
      <Text className="experts__note">专家均经平台核验执业信息</Text>
      <ExpertResults
        key={filterKey(filter)}
        filter={filter}
        onOpen={onOpen}
        onClear={() => onFilter({})}
      />
    </View>
  )
}
