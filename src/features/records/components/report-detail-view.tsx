import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import type { ReportDetail } from '@/services/records'
import type { ReportActions } from '../hooks/use-report-actions'
import { ReportBody, ReportHeader, ReportHistory } from './report-sections'
import './report-detail-view.scss'

export interface ReportDetailViewProps {
  report: ReportDetail
  actions: ReportActions
  onOpenImages: () => void
}

/** 报告详情: the report, its history, and what the person can do with it. */
export function ReportDetailView({ report, actions, onOpenImages }: ReportDetailViewProps) {
  return (
    <View className="report-detail">
      <ReportHeader report={report} />
      <ReportBody report={report} />
      <ReportHistory history={report.history} />
      <Text className="report-detail__note">
        本报告由{report.hospital.name}出具，仅供参考，请以医院纸质报告及医生意见为准。
      </Text>
      <View className="report-detail__images" onClick={onOpenImages}>
        <Text>查看本次检查的影像</Text>
        <Text className="report-detail__arrow">›</Text>
      </View>
      <View className="report-detail__bar">
        <Button
          className="report-detail__button"
          size="small"
          loading={actions.busy === 'privacy'}
          disabled={actions.busy !== null}
          onClick={actions.togglePrivacy}
        >
          {report.private ? '取消隐私' : '设为隐私'}
        </Button>
        <Button
          className="report-detail__button"
          size="small"
          loading={actions.busy === 'archive'}
          disabled={actions.busy !== null}
          onClick={actions.toggleArchived}
        >
          {report.archived ? '移出个人档案' : '加入个人档案'}
        </Button>
        <Button
          className="report-detail__button report-detail__button--danger"
          size="small"
          loading={actions.busy === 'delete'}
          disabled={actions.busy !== null}
          onClick={actions.remove}
        >
          删除
        </Button>
      </View>
    </View>
  )
}
