import { Text, View } from '@tarojs/components'
import { RefreshList } from '@/components/refresh-list'
import type { ExamSummary } from '@/services/records'
import { DATE_PRESETS, MODALITY_FILTERS } from '../filters'
import type { ExamList } from '../hooks/use-exam-list'
import { ExamCard } from './exam-card'
import { FilterChips } from './filter-chips'
import './exam-list-view.scss'

export interface ExamListViewProps {
  /** The hospital's name (or 我上传的影像), above the filters. */
  title: string
  exams: ExamList
  onOpen: (exam: ExamSummary) => void
}

/** 院内查询: one hospital's exams, filtered by date and type. */
export function ExamListView({ title, exams, onOpen }: ExamListViewProps) {
  const filtered = exams.filters.date !== '' || exams.filters.modality !== ''
  return (
    <View className="exam-list">
      <View className="exam-list__filters">
        <Text className="exam-list__title">{title}</Text>
        <FilterChips
          label="日期"
          options={DATE_PRESETS}
          value={exams.filters.date}
          onChange={(date) => exams.setFilters({ date })}
        />
        <FilterChips
          label="类型"
          options={MODALITY_FILTERS}
          value={exams.filters.modality}
          onChange={(modality) => exams.setFilters({ modality })}
        />
      </View>
      <View className="exam-list__items">
        <RefreshList
          list={exams.list}
          keyOf={(exam) => exam.id}
          renderItem={(exam) => <ExamCard exam={exam} showHospital={false} onOpen={onOpen} />}
          emptyText={filtered ? '没有符合条件的检查，换个日期或类型试试' : undefined}
        />
      </View>
    </View>
  )
}
