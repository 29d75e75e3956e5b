import Taro from '@tarojs/taro'
import { useEffect } from 'react'
import { useParams } from '@/hooks/use-params'
import { WebPageView } from '../../features/webview/components/web-page-view'
import { useWebPage } from '../../features/webview/hooks/use-web-page'

/**
 * 网页 with our own title: the page's title bar says `title` (a mini-program web-view fills the
 * page below the navigation bar, so the title goes there rather than in a bar of our own).
 */
export default function WebviewHeadPage() {
  const params = useParams()
  const url = params.url || undefined
  useEffect(() => {
    const title = (params.title ?? '').slice(0, 20)
    if (title) Taro.setNavigationBarTitle({ title }).catch(() => undefined)
  }, [params.title])
  const { state, retry } = useWebPage(url)
  return <WebPageView state={state} onRetry={retry} />
}
