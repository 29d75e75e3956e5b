import { Text, View } from '@tarojs/components'
import { useState } from 'react'
import { useParams } from '@/hooks/use-params'
import { PageState } from '../../components/page-state'
import { RequireLogin } from '../../components/require-login'
import {
  DeleteUploadedExam,
  UploadedExamPhotos,
  UploadedExamRecord,
} from '../../features/dicom-upload/components/uploaded-exam-record'
import { useUploadedExam } from '../../features/dicom-upload/hooks/use-uploaded-exam'
import { SeriesFiles } from '../../features/records/components/series-files'
import { SeriesGrid } from '../../features/records/components/series-grid'
import { useExamDetail, type ExamDetail } from '../../features/records/hooks/use-exam-detail'
import { GrantSheet } from '../../features/sharing/owner/components/grant-sheet'
import {
  ShareButton,
  WhoViewedEntry,
  grantPersonOf,
} from '../../features/sharing/owner/components/sharing-entries'
import { subjectOfExam } from '../../features/sharing/owner/grant-form'
import { navigate } from '../../services/navigate'
import { usePrefetchViewer } from '../personalImage/viewer-prefetch'
import './detail-ys.scss'

function DetailYs({ exam, reload }: { exam: ExamDetail; reload: () => void }) {
  const model = useUploadedExam(exam, reload)
  const [grantOpen, setGrantOpen] = useState(false)
  return (
    <View className="detail-ys">
      <UploadedExamRecord
        exam={exam}
        model={model}
        actions={<ShareButton onClick={() => setGrantOpen(true)} />}
      />

      <View className="detail-ys__card">
        <Text className="detail-ys__section">影像</Text>
        <SeriesGrid
          series={exam.series}
          onOpen={(series) =>
            void navigate('imageViewer', {
              examId: exam.id,
              seriesUid: series.seriesUid,
              t: Date.now(),
              // What this page already has: the viewer paints this thumbnail before anything answers.
              ...(exam.studyUid ? { studyUid: exam.studyUid } : {}),
              ...(series.thumbnailPath ? { thumb: series.thumbnailPath } : {}),
            })
          }
        />
      </View>

      {exam.series.length > 0 && (
        <View className="detail-ys__card">
          <Text className="detail-ys__section">文件</Text>
          <Text className="detail-ys__hint">误传或不需要的文件可单独删除</Text>
          <SeriesFiles examId={exam.id} series={exam.series} onDeleted={reload} />
        </View>
      )}

      <UploadedExamPhotos exam={exam} model={model} />
      <WhoViewedEntry examId={exam.id} personId={grantPersonOf(exam.owner)} />
      <DeleteUploadedExam model={model} />
      <GrantSheet
        visible={grantOpen}
        onClose={() => setGrantOpen(false)}
        subject={subjectOfExam(exam)}
        personId={grantPersonOf(exam.owner)}
      />
    </View>
  )
}

function DetailYsContent({ examId }: { examId: string }) {
  const exam = useExamDetail(examId)
  usePrefetchViewer(exam.status === 'ready' && exam.data.series.length > 0)
  if (exam.status === 'loading') return <PageState status="loading" />
  if (exam.status === 'error') {
    return <PageState status="error" message={exam.message} onRetry={exam.reload} />
  }
  return <DetailYs exam={exam.data} reload={exam.reload} />
}

/** 报告详情 (ys): one uploaded study — its record (editable), series, report photos, delete. */
export default function PersonalReportDetailYsPage() {
  const { id } = useParams()
  return (
    <RequireLogin text="登录后才能查看影像">
      {id ? <DetailYsContent examId={id} /> : <PageState status="error" message="缺少影像编号" />}
    </RequireLogin>
  )
}
