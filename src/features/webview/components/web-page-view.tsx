import { Text, View, WebView } from '@tarojs/components'
import { PageState } from '@/components/page-state'
import type { WebPageState } from '../hooks/use-web-page'
import './web-page.scss'

/** The allowed page (weapp web-view), the way there (H5), or why it was refused. */
export function WebPageView({ state, onRetry }: { state: WebPageState; onRetry: () => void }) {
  if (state.status === 'checking') return <PageState status="loading" />
  if (state.status === 'error') return <PageState status="error" onRetry={onRetry} />
  if (state.status === 'refused') {
    return (
      <View className="web-page" role="alert">
        <Text className="web-page__icon">!</Text>
        <Text className="web-page__message">{state.message}</Text>
        {state.shown && <Text className="web-page__address">{state.shown}</Text>}
        <Text className="web-page__hint">为保护您的信息安全，应用内只打开经过审核的网站。</Text>
      </View>
    )
  }
  if (state.left) {
    return (
      <View className="web-page">
        <Text className="web-page__message">正在打开网页…</Text>
        <Text className="web-page__address">{state.url}</Text>
      </View>
    )
  }
  return <WebView src={state.url} />
}
