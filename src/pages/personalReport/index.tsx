import { RequireLogin } from '../../components/require-login'
import { ReportsView } from '../../features/records/components/reports-view'
import { useRefreshOnReturn } from '../../features/records/hooks/use-refresh-on-return'
import { useReports } from '../../features/records/hooks/use-reports'
import { navigate } from '../../services/navigate'

function ReportsContent() {
  const reports = useReports()
  useRefreshOnReturn(reports.list.refresh)
  return (
    <ReportsView
      reports={reports}
      onOpen={(report) => void navigate('reportDetail', { id: report.id })}
    />
  )
}

/** 个人报告: the hospitals' reports of the signed-in person, unread marked, with filters. */
export default function PersonalReportIndexPage() {
  return (
    <RequireLogin text="登录后才能查看个人报告">
      <ReportsContent />
    </RequireLogin>
  )
}
