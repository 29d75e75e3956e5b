import { Text, View } from '@tarojs/components'
import type { ReportListItem } from '@/services/records'
import { timeFormat } from '@/utils/time'
import { ModalityTags, Tag, reportTone } from './tags'
import './report-card.scss'

export interface ReportCardProps {
  report: ReportListItem
  onOpen: (report: ReportListItem) => void
}

/** One report of 我的报告: unread ones carry a dot, private ones hide their words. */
export function ReportCard({ report, onOpen }: ReportCardProps) {
  const issued = report.issuedAt ? timeFormat(report.issuedAt, 'yyyy-mm-dd hh:MM') : null
  return (
    <View
      className={`report-card${report.read ? '' : ' report-card--unread'}`}
      onClick={() => onOpen(report)}
    >
      <View className="report-card__head">
        {!report.read && <View className="report-card__dot" aria-label="未读" />}
        <Text className="report-card__title">{report.title || '检查报告'}</Text>
        <Text className="report-card__date">{report.studyDate ?? ''}</Text>
      </View>
      <View className="report-card__tags">
        <ModalityTags modalities={report.modalities} />
        <Tag tone={reportTone(report.status)}>{report.statusLabel}</Tag>
        {report.private && <Tag>隐私</Tag>}
        {report.archived && <Tag>个人档案</Tag>}
        {!report.read && <Tag tone="danger">未读</Tag>}
      </View>
      <Text className="report-card__summary">
        {report.private
          ? '隐私报告，验证身份后查看'
          : report.summary
            ? `诊断意见：${report.summary}`
            : '报告内容请点击查看'}
      </Text>
      <View className="report-card__foot">
        <Text className="report-card__hospital">{report.hospital.name}</Text>
        {issued && <Text>报告 {issued}</Text>}
      </View>
    </View>
  )
}
