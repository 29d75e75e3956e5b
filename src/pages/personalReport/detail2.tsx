import { useParams } from '@/hooks/use-params'
import { SignInNeeded } from '@/components/require-login'
import { routeUrl } from '@/services/navigate'
import { useAppStore } from '@/stores/app-store'
import { FilmReportView } from '../../features/claims/components/film-report-view'
import { useFilmReport } from '../../features/claims/hooks/use-film-report'
import {
  ReportBody,
  ReportHeader,
  ReportHistory,
} from '../../features/records/components/report-sections'

function FilmReport({ code }: { code: string | undefined }) {
  return (
    <FilmReportView
      view={useFilmReport(code)}
      renderReport={(report) => (
        <>
          <ReportHeader report={report} />
          <ReportBody report={report} />
          <ReportHistory history={report.history} />
        </>
      )}
    />
  )
}

/** The report opened from a scanned film-bag code (?code=…): read-only, with who issued it. */
export default function PersonalReportDetail2Page() {
  const params = useParams()
  const hasLogin = useAppStore((state) => state.hasLogin)
  if (!hasLogin) {
    // Back here with the code after logging in (a phone camera opens this link signed out).
    return (
      <SignInNeeded
        redirect={routeUrl('filmReport', { code: params.code })}
        text="登录后验证手机号即可查看该报告"
      />
    )
  }
  return <FilmReport code={params.code} />
}
