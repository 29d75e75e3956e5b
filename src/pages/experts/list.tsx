import { useState } from 'react'
import { ExpertListView } from '../../features/experts/directory/components/expert-list-view'
import {
  type ExpertFilter,
  useExpertFilterChoices,
} from '../../features/experts/directory/hooks/use-experts'
import { navigate } from '../../services/navigate'

/** 找专家: the certified experts, filtered by 科室, 地区, 职称 and 服务; pull to refresh, more below. */
export default function ExpertListPage() {
  const choices = useExpertFilterChoices()
  const [filter, setFilter] = useState<ExpertFilter>({})
  return (
    <ExpertListView
      filter={filter}
      choices={choices}
      onFilter={setFilter}
      onOpen={(expert) => void navigate('personalDetail', { id: expert.id })}
    />
  )
}
