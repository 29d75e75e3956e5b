import { useState } from 'react'
import { Text, View } from '@tarojs/components'
import { usePageScroll } from '@tarojs/taro'
import { Button, PullToRefresh } from '@nutui/nutui-react-taro'
import {
  FILM_READY_AFTER_HOURS,
  HOSPITAL_REPORT_STATE_LABELS,
} from '@contract/scan/hospital-reports'
import { PageState } from '@/components/page-state'
import { LIST_DEFAULTS, LIST_TEXTS } from '@/components/refresh-list'
import { navigate } from '@/services/navigate'
import {
  groupByState,
  type HospitalReportItem,
  type HospitalReportState,
  type HospitalReports,
  type HospitalReportsModel,
} from '../hooks/use-hospital-reports'
import './hospital-reports-view.scss'

type TagType = 'default' | 'primary' | 'success' | 'warning' | 'danger' | 'info'

/** The tag's tone for each state: ready to collect stands out, a report being written waits. */
const STATE_TAG: Record<HospitalReportState, TagType> = {
  filmReady: 'success',
  reported: 'primary',
  reporting: 'warning',
  examined: 'default',
}

/** What each state means for the person, under its heading. */
const STATE_HINT: Record<HospitalReportState, string> = {
  filmReady: `报告已发布满 ${FILM_READY_AFTER_HOURS} 小时，可到取片处或自助终端领取胶片`,
  reported: '报告已发布，可在线查看；胶片打印中',
  reporting: '医生正在书写或审核报告',
  examined: '影像已到达，报告尚未开始出具',
}

export const EMPTY_TEXT =
  '暂无您在该医院的检查记录。检查完成后，医院推送的影像和报告进度会显示在这里'

/** The counts in the order an exam goes through them. */
const COUNT_CELLS: readonly HospitalReportState[] = [
  'examined',
  'reporting',
  'reported',
  'filmReady',
]

function Header({ data }: { data: HospitalReports }) {
  return (
    <View className="hospital-reports__header">
      <Text className="hospital-reports__label">院内报告</Text>
      <Text className="hospital-reports__hospital">{data.hospital.name}</Text>
      <Text className="hospital-reports__room">
        {data.room ? `扫码位置：${data.room.name}` : '扫码位置：医院自助终端'}
      </Text>
      <View className="hospital-reports__counts">
        {COUNT_CELLS.map((state) => (
          <View key={state} className={`hospital-reports__count hospital-reports__count--${state}`}>
            <Text className="hospital-reports__count-value">{data.counts[state]}</Text>
            <Text className="hospital-reports__count-label">
              {HOSPITAL_REPORT_STATE_LABELS[state]}
            </Text>
          </View>
        ))}
      </View>
      <Text className="hospital-reports__total">{`共 ${data.counts.total} 项检查`}</Text>
    </View>
  )
}

function ExamRow({ item }: { item: HospitalReportItem }) {
  const { exam } = item
  const report = exam.report
  const facts = [exam.studyDate, exam.modalities.join(' / ') || null, exam.accessionNumber]
    .filter((fact): fact is string => Boolean(fact))
    .join(' · ')
  return (
    <View className="hospital-reports__exam">
      <View className="hospital-reports__exam-head">
        <Text className="hospital-reports__exam-title">{exam.title}</Text>
        {/* A label, not a control: NutUI's Tag answers taps, and a tap target must be 24 px. */}
        <Text className={`hospital-reports__tag hospital-reports__tag--${STATE_TAG[item.state]}`}>
          {item.stateLabel}
        </Text>
      </View>
      {facts && <Text className="hospital-reports__exam-facts">{facts}</Text>}
      {report && (
        <Text className="hospital-reports__exam-report">{`报告状态：${report.statusLabel}`}</Text>
      )}
      <View className="hospital-reports__actions">
        <Button
          size="small"
          fill="outline"
          type="primary"
          onClick={() => void navigate('imageDetail', { id: exam.id })}
        >
          影像详情
        </Button>
        {report && (
          <Button
            size="small"
            type="primary"
            onClick={() => void navigate('reportDetail', { id: report.id })}
          >
            报告详情
          </Button>
        )}
      </View>
    </View>
  )
}

function Content({ data }: { data: HospitalReports }) {
  if (data.items.length === 0) {
    return (
      <View className="hospital-reports__empty">
        <PageState status="empty" message={EMPTY_TEXT} />
      </View>
    )
  }
  return (
    <>
      {groupByState(data.items).map((group) => (
        <View key={group.state} className="hospital-reports__group">
          <View className="hospital-reports__group-head">
            <Text className="hospital-reports__group-title">
              {`${group.label}（${group.items.length}）`}
            </Text>
            <Text className="hospital-reports__group-hint">{STATE_HINT[group.state]}</Text>
          </View>
          {group.items.map((item) => (
            <ExamRow key={item.exam.id} item={item} />
          ))}
        </View>
      ))}
    </>
  )
}

/** 院内报告 after scanning a room code: the hospital and room, the counts, the exams by state. */
export function HospitalReportsView({ model }: { model: HospitalReportsModel }) {
  const { resource, invalid } = model
  const [atTop, setAtTop] = useState(true)
  usePageScroll(({ scrollTop }) => setAtTop(scrollTop <= 0))

  if (invalid) {
    return (
      <PageState
        status="error"
        message="二维码无效，请扫描医院诊室或自助终端上的二维码"
        action={{ text: '重新扫码', onClick: () => void navigate('scanPage') }}
      />
    )
  }
  if (resource.status === 'loading' || resource.status === 'idle') {
    return <PageState status="loading" />
  }
  if (resource.status === 'error') {
    return <PageState status="error" message={resource.message} onRetry={resource.restart} />
  }
  return (
    <PullToRefresh
      className="hospital-reports"
      scrollTop={atTop ? 0 : 1}
      threshold={LIST_DEFAULTS.pullDistance}
      completeDelay={LIST_DEFAULTS.finishDelay}
      pullingText={LIST_TEXTS.pulling}
      canReleaseText={LIST_TEXTS.canRelease}
      refreshingText={LIST_TEXTS.loading}
      completeText=""
      onRefresh={resource.reload}
    >
      <View className="hospital-reports__body">
        <Header data={resource.data} />
        <Content data={resource.data} />
      </View>
    </PullToRefresh>
  )
}
