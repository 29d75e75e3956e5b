import { Text, View } from '@tarojs/components'
import { useParams } from '@/hooks/use-params'
import { PageState } from '../../components/page-state'
import {
  ReportBody,
  ReportHeader,
  ReportHistory,
  ReportKeyImages,
} from '../../features/records/components/report-sections'
import { ShareBanner } from '../../features/sharing/holder/components/share-banner'
import { SharedState } from '../../features/sharing/holder/components/shared-state'
import { useSharedReport } from '../../features/sharing/holder/hooks/use-shared'
import { Watermark } from '../../features/sharing/watermark'
import { navigate } from '../../services/navigate'
import '../../features/records/components/report-detail-view.scss'

function SharedReportContent({ grantId, reportId }: { grantId: string; reportId: string }) {
  const shared = useSharedReport(grantId, reportId)
  return (
    <SharedState
      shared={shared}
      ready={([grant, report]) => {
        const examShared = grant.records.some(
          (record) => record.kind === 'exam' && record.examId === report.examId,
        )
        return (
          <View className="report-detail">
            <ShareBanner grant={grant} />
            <ReportHeader report={report} />
            <ReportBody report={report} />
            {examShared && (
              <ReportKeyImages
                images={report.keyImages ?? []}
                onOpen={(image) =>
                  void navigate('imageViewer', {
                    examId: image.examId,
                    grantId,
                    seriesUid: image.seriesUid,
                    sop: image.sopInstanceUid,
                    frame: image.frame,
                    // The viewer asks for the metadata alongside the exam (tap → first pixels).
                    ...(report.studyUid ? { studyUid: report.studyUid } : {}),
                    t: Date.now(),
                  })
                }
              />
            )}
            <ReportHistory history={report.history} />
            <Text className="report-detail__note">
              本报告由{report.hospital.name}出具，仅供参考，请以医院纸质报告及医生意见为准。
            </Text>
            {examShared && (
              <View
                className="report-detail__images"
                onClick={() => void navigate('shareExam', { grantId, examId: report.examId })}
              >
                <Text>查看本次检查的影像</Text>
                <Text className="report-detail__arrow">›</Text>
              </View>
            )}
            {/* No 隐私, 归档, 删除, 授权 or 分享: the holder only reads. */}
            <Watermark text={grant.watermark} />
          </View>
        )
      }}
    />
  )
}

/** 报告详情 through a grant (issue 9): the report, watermarked. */
export default function SharedReportPage() {
  const { grantId, reportId } = useParams()
  if (!grantId || !reportId) {
    return <PageState status="empty" message="链接不完整，请重新打开分享链接" />
  }
  return <SharedReportContent grantId={grantId} reportId={reportId} />
}
