import { useParams } from '@/hooks/use-params'
import { SignInNeeded } from '@/components/require-login'
import { routeUrl } from '@/services/navigate'
import { useAppStore } from '@/stores/app-store'
import { HospitalReportsView } from '../../features/claims/components/hospital-reports-view'
import { useHospitalReports } from '../../features/claims/hooks/use-hospital-reports'

function HospitalReports({ hospitalId, roomId }: { hospitalId?: string; roomId?: string }) {
  return <HospitalReportsView model={useHospitalReports(hospitalId, roomId)} />
}

/** 院内报告, opened from a hospital's room code (?hospitalId=…&roomId=…). */
export default function ReportReportInPage() {
  const { hospitalId, roomId } = useParams()
  const hasLogin = useAppStore((state) => state.hasLogin)
  if (!hasLogin) {
    // Back here with the hospital and room after logging in (a phone camera opens this signed out).
    return (
      <SignInNeeded
        redirect={routeUrl('reportIn', { hospitalId: hospitalId ?? '', roomId })}
        text="登录后查看您在该医院的检查和报告进度"
      />
    )
  }
  return <HospitalReports hospitalId={hospitalId} roomId={roomId} />
}
