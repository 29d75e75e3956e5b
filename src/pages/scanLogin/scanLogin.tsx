import { useRouter } from '@tarojs/taro'
import { ScanLoginView } from '../../features/scan/components/scan-login-view'
import { useScanLogin } from '../../features/scan/hooks/use-scan-login'

export default function ScanLoginPage() {
  const { params } = useRouter()
  const view = useScanLogin(params.id)
  const currentUrl = `/pages/scanLogin/scanLogin?id=${encodeURIComponent(params.id ?? '')}`
  return <ScanLoginView view={view} currentUrl={currentUrl} />
}
