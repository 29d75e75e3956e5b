import { View, Text } from '@tarojs/components'
import { Button, Loading } from '@nutui/nutui-react-taro'
import './index.scss'

export type PageStateStatus = 'loading' | 'empty' | 'error'

export interface PageStateProps {
  status: PageStateStatus
  /** Overrides the default text of the state. */
  message?: string
  /** Shown as a 重试 button in the error state. */
  onRetry?: () => void
  /** A way on where retrying cannot help (返回 from a page that has nothing to show). */
  action?: { text: string; onClick: () => void }
}

const DEFAULT_MESSAGES: Record<PageStateStatus, string> = {
  loading: '加载中 ...',
  empty: '~ 空空如也 ~',
  error: '加载失败，请检查网络后重试',
}

/** The whole-page loading, empty and error-with-retry states every screen shares. */
export function PageState({ status, message, onRetry, action }: PageStateProps) {
  const text = message ?? DEFAULT_MESSAGES[status]
  return (
    <View
      className={`page-state page-state--${status}`}
      role={status === 'error' ? 'alert' : 'status'}
    >
      {status === 'loading' && <Loading type="circular" />}
      {status === 'error' && <View className="page-state__icon">!</View>}
      <Text className="page-state__text">{text}</Text>
      {status === 'error' && onRetry && (
        <Button className="page-state__retry" type="primary" size="small" onClick={onRetry}>
          重试
        </Button>
      )}
      {action && (
        <Button className="page-state__retry" type="primary" size="small" onClick={action.onClick}>
          {action.text}
        </Button>
      )}
    </View>
  )
}
