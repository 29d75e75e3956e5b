import { Text, View } from '@tarojs/components'
import { Switch } from '@nutui/nutui-react-taro'
import { RefreshList } from '@/components/refresh-list'
import { PersonSwitcher } from '@/components/person-switcher'
import type { ReportListItem } from '@/services/records'
import { DATE_PRESETS } from '../filters'
import type { Reports } from '../hooks/use-reports'
import { FilterChips, type ChipOption } from './filter-chips'
import { ReportCard } from './report-card'
import './reports-view.scss'

export interface ReportsViewProps {
  reports: Reports
  onOpen: (report: ReportListItem) => void
  /** Above the filters (index-weixin's welcome line and way home). */
  banner?: React.ReactNode
}

/** 我的报告: unread first to the eye, filtered by hospital and date, private ones on request. */
export function ReportsView({ reports, onOpen, banner }: ReportsViewProps) {
  const { filters, setFilters } = reports
  const hospitalOptions: ChipOption<string>[] = [
    { value: '', label: '全部' },
    ...reports.hospitals.map((hospital) => ({ value: hospital.id, label: hospital.name })),
  ]
  const filtered = filters.hospitalId !== '' || filters.date !== '' || filters.unreadOnly
  return (
    <View className="reports">
      <PersonSwitcher />
      {banner}
      <View className="reports__filters">
        <View className="reports__summary">
          <Text className="reports__unread">
            {reports.unread > 0 ? `${reports.unread} 份未读` : '没有未读报告'}
          </Text>
          <Text
            className={`reports__toggle${filters.unreadOnly ? ' reports__toggle--on' : ''}`}
            onClick={() => setFilters({ unreadOnly: !filters.unreadOnly })}
          >
            只看未读
          </Text>
          {reports.unread > 0 && !reports.personId && (
            <Text className="reports__action" onClick={() => void reports.markAllRead()}>
              全部已读
            </Text>
          )}
        </View>
        {hospitalOptions.length > 2 && (
          <FilterChips
            label="医院"
            options={hospitalOptions}
            value={filters.hospitalId}
            onChange={(hospitalId) => setFilters({ hospitalId })}
          />
        )}
        <FilterChips
          label="日期"
          options={DATE_PRESETS}
          value={filters.date}
          onChange={(date) => setFilters({ date })}
        />
        <View className="reports__private">
          <Text className="reports__private-text">显示隐私报告</Text>
          <Switch
            checked={filters.includePrivate}
            onChange={(value) => setFilters({ includePrivate: value })}
          />
        </View>
      </View>
      <View className="reports__items">
        <RefreshList
          list={reports.list}
          keyOf={(report) => report.id}
          renderItem={(report) => <ReportCard report={report} onOpen={onOpen} />}
          emptyText={filtered ? '没有符合条件的报告' : undefined}
        />
      </View>
    </View>
  )
}
