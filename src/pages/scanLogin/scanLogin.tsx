import { useParams } from '@/hooks/use-params'
import { routeUrl } from '@/services/navigate'
import { ScanLoginView } from '../../features/scan/components/scan-login-view'
import { useScanLogin } from '../../features/scan/hooks/use-scan-login'

export default function ScanLoginPage() {
  const params = useParams()
  const view = useScanLogin(params.id)
  // After logging in the person scans again: the confirm page only takes a scan made in the app.
  const currentUrl = routeUrl('scanPage')
  return <ScanLoginView view={view} currentUrl={currentUrl} />
}
