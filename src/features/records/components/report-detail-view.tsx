import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import type { ReactNode } from 'react'
import type { ReportDetail } from '@/services/records'
import { navigate } from '@/services/navigate'
import type { ReportActions } from '../hooks/use-report-actions'
import {
  type KeyImage,
  ReportBody,
  ReportBookmarks,
  ReportHeader,
  ReportHistory,
  ReportKeyImages,
} from './report-sections'
import './report-detail-view.scss'

export interface ReportDetailViewProps {
  report: ReportDetail
  actions: ReportActions
  onOpenImages: () => void
  /** The owner's 授权 (first in the bar); absent where the report is seen through a grant. */
  onShare?: () => void
  /** After the link to the images: the owner's 谁看过. */
  footer?: ReactNode
}

/**
 * The viewer on exactly this image and frame; `t` starts its tap → first pixels timing. The study
 * UID is handed over so the viewer asks for the series metadata alongside the exam, not after it.
 */
function openInViewer(
  image: Pick<KeyImage, 'examId' | 'seriesUid' | 'sopInstanceUid' | 'frame'>,
  studyUid: string | null,
) {
  void navigate('imageViewer', {
    examId: image.examId,
    seriesUid: image.seriesUid,
    sop: image.sopInstanceUid,
    frame: image.frame,
    ...(studyUid ? { studyUid } : {}),
    t: Date.now(),
  })
}

/** 报告详情: the report, its history, and what the person can do with it. */
export function ReportDetailView({
  report,
  actions,
  onOpenImages,
  onShare,
  footer,
}: ReportDetailViewProps) {
  const open = (image: Pick<KeyImage, 'examId' | 'seriesUid' | 'sopInstanceUid' | 'frame'>) =>
    openInViewer(image, report.studyUid)
  return (
    <View className="report-detail">
      <ReportHeader report={report} />
      <ReportBody report={report} />
      <ReportKeyImages images={report.keyImages ?? []} onOpen={open} />
      <ReportHistory history={report.history} />
      <ReportBookmarks examId={report.examId} onOpen={open} />
      <Text className="report-detail__note">
        本报告由{report.hospital.name}出具，仅供参考，请以医院纸质报告及医生意见为准。
      </Text>
      <View className="report-detail__images" onClick={onOpenImages}>
        <Text>查看本次检查的影像</Text>
        <Text className="report-detail__arrow">›</Text>
      </View>
      {footer}
      <View className="report-detail__bar">
        {onShare && (
          <Button
            className="report-detail__button"
            size="small"
            type="primary"
            disabled={actions.busy !== null}
            onClick={onShare}
          >
            授权
          </Button>
        )}
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
