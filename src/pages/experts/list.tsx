import { useState } from 'react'
import { useParams } from '@/hooks/use-params'
import { ExpertListView } from '../../features/experts/directory/components/expert-list-view'
import {
  type ExpertFilter,
  useExpertFilterChoices,
} from '../../features/experts/directory/hooks/use-experts'
import { recordParams } from '../../features/consultations/apply/record-params'
import { navigate } from '../../services/navigate'

/**
 * 找专家: the certified experts, filtered by 科室, 地区, 职称 and 服务; pull to refresh, more below. A
 * record chosen on 影像详情 / 报告详情 (咨询专家) rides along to the expert's page and on to 咨询.
 */
export default function ExpertListPage() {
  const seed = recordParams(useParams())
  const choices = useExpertFilterChoices()
  const [filter, setFilter] = useState<ExpertFilter>({})
  return (
    <ExpertListView
      filter={filter}
      choices={choices}
      onFilter={setFilter}
      onOpen={(expert) => void navigate('personalDetail', { id: expert.id, ...seed })}
    />
  )
}
