import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { PageState } from '@/components/page-state'
import { timeFormat } from '@/utils/time'
import type { MessageDetailModel } from '../hooks/use-message-detail'
import { linkTarget, openMessageLink } from '../link'
import './messages.scss'

/** One message in full, with the page it is about (查看) and 删除. */
export function MessageDetailView({ model }: { model: MessageDetailModel }) {
  const loaded = model.message
  if (loaded.status === 'loading') return <PageState status="loading" />
  if (loaded.status === 'error') {
    return <PageState status="error" message={loaded.message} onRetry={loaded.reload} />
  }
  const message = loaded.data
  return (
    <View className="message-detail">
      <View className="message-detail__card">
        <View className="messages__head">
          <Text className={`messages__kind messages__kind--${message.kind}`}>
            {message.kindLabel}
          </Text>
          <Text className="messages__time">
            {timeFormat(message.createdAt, 'yyyy-mm-dd hh:MM')}
          </Text>
        </View>
        <Text className="message-detail__title">{message.title}</Text>
        <Text className="message-detail__body">{message.body}</Text>
      </View>
      {linkTarget(message.link) && (
        <Button
          className="message-detail__open"
          type="primary"
          block
          onClick={() => void openMessageLink(message.link)}
        >
          查看
        </Button>
      )}
      <Button
        className="message-detail__delete"
        fill="none"
        block
        onClick={() => void model.remove()}
      >
        删除消息
      </Button>
    </View>
  )
}
