import { useState } from 'react'
import { Image, Text, View } from '@tarojs/components'
import { Button, Checkbox, TextArea } from '@nutui/nutui-react-taro'
import { OPERATOR_MESSAGES } from '@contract/main/operator'
import { useAuthorisedImage } from '@/components/authorised-image/use-authorised-image'
import { RefreshList } from '@/components/refresh-list'
import { showToast } from '@/platform/ui'
import type { Feedback } from '@/services/feedback'
import { operatorApi } from '@/services/operator'
import { timeFormat } from '@/utils/time'
import { act, useFeedbackList } from '../hooks/use-operator'

const ADOPTED_POINTS = 50

function Thumb({ path }: { path: string }) {
  const image = useAuthorisedImage(path)
  return image.status === 'ready' ? (
    <Image className="operator__thumb" src={image.src} mode="aspectFill" />
  ) : (
    <View className="operator__thumb" />
  )
}

function ReplyForm({ item, onDone }: { item: Feedback; onDone: () => Promise<void> }) {
  const [text, setText] = useState('')
  const [adopted, setAdopted] = useState(false)
  const send = () => {
    if (!text.trim()) return showToast(OPERATOR_MESSAGES.replyRequired)
    void act(() => operatorApi.replyFeedback(item.id, text.trim(), adopted), '已回复', onDone).then(
      (answer) => {
        if (answer) setText('')
      },
    )
  }
  return (
    <View className="operator__reply">
      <TextArea
        className="operator__area"
        value={text}
        placeholder="回复内容（用户会在我的消息和意见反馈里看到）"
        maxLength={500}
        onChange={setText}
      />
      <View className="operator__actions">
        <Checkbox
          checked={adopted}
          onChange={setAdopted}
          label={`采纳（奖励 ${ADOPTED_POINTS} 积分）`}
        />
        <Button size="small" type="primary" onClick={send}>
          回复
        </Button>
      </View>
    </View>
  )
}

/** 意见反馈, newest first: the text, pictures and contact, and a reply that reaches the sender. */
export function FeedbackPanel() {
  const list = useFeedbackList()
  return (
    <RefreshList
      list={list}
      keyOf={(item) => item.id}
      emptyText="还没有反馈"
      renderItem={(item) => (
        <View className="operator__row">
          <Text className="operator__meta">
            {item.typeLabel} ·{' '}
            <Text className={`operator__state operator__state--${item.status}`}>
              {item.statusLabel}
            </Text>{' '}
            · {timeFormat(item.createdAt, 'yyyy-mm-dd hh:MM')}
          </Text>
          <Text className="operator__text">{item.text}</Text>
          {item.imagePaths.length > 0 && (
            <View className="operator__thumbs">
              {item.imagePaths.map((path) => (
                <Thumb key={path} path={path} />
              ))}
            </View>
          )}
          {item.contact && <Text className="operator__meta">联系方式：{item.contact}</Text>}
          {item.reply && (
            <Text className="operator__answer">
              已回复：{item.reply.text}（{timeFormat(item.reply.at, 'yyyy-mm-dd hh:MM')}）
            </Text>
          )}
          <ReplyForm item={item} onDone={list.refresh} />
        </View>
      )}
    />
  )
}
