import { useState } from 'react'
import { useParams } from '@/hooks/use-params'
import { PageState } from '../../components/page-state'
import { RequireLogin } from '../../components/require-login'
import { ConsultExpertEntry } from '../../features/consultations/apply/components/consult-expert-entry'
import { ReportDetailView } from '../../features/records/components/report-detail-view'
import { UnlockPanel } from '../../features/records/components/unlock-panel'
import { useReportActions } from '../../features/records/hooks/use-report-actions'
import { useReportDetail, type ReportDetail } from '../../features/records/hooks/use-report-detail'
import { GrantSheet } from '../../features/sharing/owner/components/grant-sheet'
import {
  grantPersonOf,
  WhoViewedEntry,
} from '../../features/sharing/owner/components/sharing-entries'
import { subjectOfReport } from '../../features/sharing/owner/grant-form'
import { back, navigate } from '../../services/navigate'
import { usePrefetchViewer } from '../personalImage/viewer-prefetch'

function Loaded({
  report,
  ticket,
  replace,
}: {
  report: ReportDetail
  ticket: string | null
  replace: (report: ReportDetail) => void
}) {
  const actions = useReportActions(report, ticket, replace, () => void back('user'))
  usePrefetchViewer((report.keyImages ?? []).length > 0)
  const [grantOpen, setGrantOpen] = useState(false)
  return (
    <>
      <ReportDetailView
        report={report}
        actions={actions}
        onOpenImages={() => void navigate('imageDetail', { id: report.examId })}
        onShare={() => setGrantOpen(true)}
        footer={
          <>
            <WhoViewedEntry examId={report.examId} personId={grantPersonOf(report.owner)} />
            <ConsultExpertEntry
              onClick={() => {
                const personId = grantPersonOf(report.owner)
                void navigate('expertList', {
                  reportId: report.id,
                  ...(personId ? { personId } : {}),
                })
              }}
            />
          </>
        }
      />
      <GrantSheet
        visible={grantOpen}
        onClose={() => setGrantOpen(false)}
        subject={subjectOfReport(report)}
        focus={report.id}
        personId={grantPersonOf(report.owner)}
      />
    </>
  )
}

function ReportDetailContent({ reportId }: { reportId: string }) {
  const { report, ticket, unlocked } = useReportDetail(reportId)
  if (report.status === 'loading') return <PageState status="loading" />
  if (report.status === 'error') {
    return <PageState status="error" message={report.message} onRetry={report.reload} />
  }
  if (report.data.locked) return <UnlockPanel onUnlocked={unlocked} />
  return <Loaded report={report.data} ticket={ticket} replace={report.replace} />
}

/** 报告详情: 影像所见, 诊断意见, doctors, times, status, history; private ones ask who is looking. */
export default function PersonalReportDetailPage() {
  const { id } = useParams()
  return (
    <RequireLogin text="登录后才能查看报告">
      {id ? (
        <ReportDetailContent reportId={id} />
      ) : (
        <PageState status="empty" message="缺少报告编号，请从我的报告进入" />
      )}
    </RequireLogin>
  )
}
