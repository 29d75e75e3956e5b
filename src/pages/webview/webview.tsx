import { useParams } from '@/hooks/use-params'
import { WebPageView } from '../../features/webview/components/web-page-view'
import { useWebPage } from '../../features/webview/hooks/use-web-page'

/** 网页: an allowed https page (the server's list of origins); anything else is refused, never opened. */
export default function WebviewPage() {
  const params = useParams()
  const url = params.url || undefined
  const { state, retry } = useWebPage(url)
  return <WebPageView state={state} onRetry={retry} />
}
