import { useState } from 'react'
import { useParams } from '@/hooks/use-params'
import { PageState } from '../../components/page-state'
import { RequireLogin } from '../../components/require-login'
import { AiAnalysisEntry } from '../../features/ai/components/ai-analysis-entry'
import { QrCodeSheet } from '../../features/claims/components/qr-code-sheet'
import { ConsultExpertEntry } from '../../features/consultations/apply/components/consult-expert-entry'
import { ExamDetailView, QrButton } from '../../features/records/components/exam-detail-view'
import { useExamDetail } from '../../features/records/hooks/use-exam-detail'
import { GrantSheet } from '../../features/sharing/owner/components/grant-sheet'
import {
  ShareButton,
  WhoViewedEntry,
  grantPersonOf,
} from '../../features/sharing/owner/components/sharing-entries'
import { subjectOfExam } from '../../features/sharing/owner/grant-form'
import { useRefreshOnReturn } from '../../features/records/hooks/use-refresh-on-return'
import { navigate } from '../../services/navigate'
import { usePrefetchViewer } from './viewer-prefetch'

function ExamDetailContent({ examId }: { examId: string }) {
  const exam = useExamDetail(examId)
  const [qrOpen, setQrOpen] = useState(false)
  const [grantOpen, setGrantOpen] = useState(false)
  useRefreshOnReturn(exam.reload)
  usePrefetchViewer(exam.status === 'ready' && exam.data.series.length > 0)
  if (exam.status === 'loading') return <PageState status="loading" />
  if (exam.status === 'error') {
    return <PageState status="error" message={exam.message} onRetry={exam.reload} />
  }
  const data = exam.data
  // A doctor or a hospital terminal scans it to open this exam; only a finished exam has one.
  const canShare = data.status === 'ready'
  return (
    <>
      <ExamDetailView
        exam={data}
        onOpenSeries={(series) =>
          void navigate('imageViewer', {
            examId: data.id,
            seriesUid: series.seriesUid,
            t: Date.now(),
            // What this page already has: the viewer paints this thumbnail before anything answers.
            ...(data.studyUid ? { studyUid: data.studyUid } : {}),
            ...(series.thumbnailPath ? { thumb: series.thumbnailPath } : {}),
          })
        }
        onOpenReport={(reportId) => void navigate('reportDetail', { id: reportId })}
        onOpenBarCode={(value) => void navigate('barCode', { value, title: '检查号' })}
        qrButton={canShare ? <QrButton onClick={() => setQrOpen(true)} /> : null}
        shareButton={<ShareButton onClick={() => setGrantOpen(true)} />}
        footer={
          <>
            <WhoViewedEntry examId={data.id} personId={grantPersonOf(data.owner)} />
            {data.owner.relation !== 'grant' && canShare && (
              <AiAnalysisEntry examId={data.id} modalities={data.modalities} />
            )}
            {canShare && (
              <ConsultExpertEntry
                onClick={() => {
                  const personId = grantPersonOf(data.owner)
                  void navigate('expertList', {
                    examId: data.id,
                    ...(personId ? { personId } : {}),
                  })
                }}
              />
            )}
          </>
        }
      />
      <GrantSheet
        visible={grantOpen}
        onClose={() => setGrantOpen(false)}
        subject={subjectOfExam(data)}
        personId={grantPersonOf(data.owner)}
      />
      {canShare && (
        <QrCodeSheet
          examId={data.id}
          visible={qrOpen}
          onClose={() => setQrOpen(false)}
          subtitle={[data.title, data.studyDate].filter(Boolean).join(' · ')}
        />
      )}
    </>
  )
}

/** 影像详情 (SPEC: image detail, with a QR-code button). */
export default function PersonalImageDetailPage() {
  const { id } = useParams()
  return (
    <RequireLogin text="登录后才能查看影像">
      {id ? (
        <ExamDetailContent examId={id} />
      ) : (
        <PageState status="empty" message="缺少检查编号，请从我的影像进入" />
      )}
    </RequireLogin>
  )
}
