import { Text, View } from '@tarojs/components'
import { Cell, Switch } from '@nutui/nutui-react-taro'
import { PageState } from '@/components/page-state'
import { NOTICE_ITEMS, type NoticeModel } from '../hooks/use-notice-settings'
import './notice-view.scss'

export interface NoticeViewProps {
  model: NoticeModel
}

export function NoticeView({ model }: NoticeViewProps) {
  const { state } = model
  if (state.status === 'loading') return <PageState status="loading" />
  if (state.status === 'error') {
    return <PageState status="error" message={state.message} onRetry={model.retry} />
  }
  return (
    <View className="notice">
      <Cell.Group className="notice__group">
        {NOTICE_ITEMS.map((item) => (
          <Cell
            key={item.key}
            title={
              <View className="notice__title">
                <Text className="notice__name">{item.title}</Text>
                <Text className="notice__description">{item.description}</Text>
              </View>
            }
            extra={
              <Switch
                ariaLabel={item.title}
                checked={state.settings[item.key]}
                // Busy while saving: a second tap waits for the first answer.
                loading={state.saving.includes(item.key)}
                onChange={(value) => model.toggle(item.key, value)}
              />
            }
            align="center"
          />
        ))}
      </Cell.Group>
      <Text className="notice__footnote">
        关闭后将不再收到对应的消息提醒，已有的消息仍可在“我的消息”中查看
      </Text>
    </View>
  )
}
