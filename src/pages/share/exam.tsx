import { Text, View } from '@tarojs/components'
import { useParams } from '@/hooks/use-params'
import { PageState } from '../../components/page-state'
import { ReportPhotos } from '../../features/dicom-upload/components/report-photos'
import { ExamDetailView } from '../../features/records/components/exam-detail-view'
import { ShareBanner } from '../../features/sharing/holder/components/share-banner'
import { SharedState } from '../../features/sharing/holder/components/shared-state'
import { useSharedExam } from '../../features/sharing/holder/hooks/use-shared'
import { Watermark } from '../../features/sharing/watermark'
import { navigate } from '../../services/navigate'

function SharedExamContent({
  grantId,
  examId,
  pin,
}: {
  grantId: string
  examId: string
  /** An expert attaching a finding to an opinion (issue 23): the viewer it opens pins for it. */
  pin?: string
}) {
  const shared = useSharedExam(grantId, examId)
  return (
    <SharedState
      shared={shared}
      ready={([grant, exam]) => (
        <>
          <ShareBanner grant={grant} />
          {/* No 二维码, 授权 or 分享 here: what was shared is not shared on. */}
          <ExamDetailView
            exam={exam}
            onOpenSeries={(series) =>
              void navigate('imageViewer', {
                examId: exam.id,
                grantId,
                seriesUid: series.seriesUid,
                t: Date.now(),
                ...(exam.studyUid ? { studyUid: exam.studyUid } : {}),
                ...(pin ? { pin } : {}),
              })
            }
            onOpenReport={(reportId) => void navigate('shareReport', { grantId, reportId })}
            footer={
              exam.files.length > 0 ? (
                <View className="exam-detail__card">
                  <Text className="exam-detail__heading">报告照片</Text>
                  {/* Read-only: fetched with the share token, like the series' thumbnails. */}
                  <ReportPhotos photos={exam.files} />
                </View>
              ) : null
            }
          />
          <Watermark text={grant.watermark} />
        </>
      )}
    />
  )
}

/** 影像详情 through a grant (issue 9): the exam and its series, watermarked. */
export default function SharedExamPage() {
  const { grantId, examId, pin } = useParams()
  if (!grantId || !examId) {
    return <PageState status="empty" message="链接不完整，请重新打开分享链接" />
  }
  return <SharedExamContent grantId={grantId} examId={examId} {...(pin ? { pin } : {})} />
}
