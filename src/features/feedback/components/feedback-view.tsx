import { Image, Text, View } from '@tarojs/components'
import { Button, Input, TextArea } from '@nutui/nutui-react-taro'
import { FEEDBACK_IMAGES_MAX, FEEDBACK_TEXT_MAX } from '@contract/main/feedback'
import { useAuthorisedImage } from '@/components/authorised-image/use-authorised-image'
import { RefreshList } from '@/components/refresh-list'
import { FEEDBACK_TYPE_LABELS, FEEDBACK_TYPES, type Feedback } from '@/services/feedback'
import { timeFormat } from '@/utils/time'
import type { FeedbackForm } from '../hooks/use-feedback'
import './feedback.scss'

function SentImage({ path }: { path: string }) {
  const image = useAuthorisedImage(path)
  return image.status === 'ready' ? (
    <Image className="feedback__thumb" src={image.src} mode="aspectFill" />
  ) : (
    <View className="feedback__thumb feedback__thumb--empty" />
  )
}

function FeedbackRow({ item }: { item: Feedback }) {
  return (
    <View className="feedback__item">
      <View className="feedback__item-head">
        <Text className="feedback__item-type">{item.typeLabel}</Text>
        <Text className={`feedback__status feedback__status--${item.status}`}>
          {item.statusLabel}
        </Text>
        <Text className="feedback__item-time">
          {timeFormat(item.createdAt, 'yyyy-mm-dd hh:MM')}
        </Text>
      </View>
      <Text className="feedback__item-text">{item.text}</Text>
      {item.imagePaths.length > 0 && (
        <View className="feedback__images">
          {item.imagePaths.map((path) => (
            <SentImage key={path} path={path} />
          ))}
        </View>
      )}
      {item.reply && (
        <View className="feedback__reply">
          <Text className="feedback__reply-label">
            官方回复（{timeFormat(item.reply.at, 'yyyy-mm-dd')}）
          </Text>
          <Text className="feedback__reply-text">{item.reply.text}</Text>
        </View>
      )}
    </View>
  )
}

/** The 我的反馈 heading's id: a reply's message opens the page scrolled to it (tab=mine). */
export const FEEDBACK_HISTORY_ID = 'feedback-history'

/** 意见反馈: the form, then 我的反馈 with status and the operator's reply. */
export function FeedbackView({ form }: { form: FeedbackForm }) {
  return (
    <View className="feedback">
      <View className="feedback__card">
        <Text className="feedback__label">反馈类型</Text>
        <View className="feedback__types" role="radiogroup">
          {FEEDBACK_TYPES.map((type) => (
            <View
              key={type}
              role="radio"
              aria-checked={form.type === type}
              className={`feedback__type${form.type === type ? ' feedback__type--on' : ''}`}
              onClick={() => form.setType(type)}
            >
              {FEEDBACK_TYPE_LABELS[type]}
            </View>
          ))}
        </View>
        <Text className="feedback__label">问题描述</Text>
        <TextArea
          className="feedback__text"
          value={form.text}
          maxLength={FEEDBACK_TEXT_MAX}
          showCount
          placeholder="请描述遇到的问题或建议（至少 5 个字），我们会认真阅读每一条反馈"
          onChange={form.setText}
        />
        <Text className="feedback__label">
          图片（选填，{form.images.length}/{FEEDBACK_IMAGES_MAX}）
        </Text>
        <View className="feedback__images">
          {form.images.map((image) => (
            <View key={image.localPath} className="feedback__picked">
              <Image className="feedback__thumb" src={image.localPath} mode="aspectFill" />
              {image.status === 'uploading' && <Text className="feedback__uploading">上传中</Text>}
              <Text
                className="feedback__remove"
                aria-label="删除图片"
                onClick={() => form.removeImage(image.localPath)}
              >
                ×
              </Text>
            </View>
          ))}
          {form.images.length < FEEDBACK_IMAGES_MAX && (
            <View
              className="feedback__add"
              role="button"
              aria-label="添加图片"
              onClick={() => void form.addImages()}
            >
              +
            </View>
          )}
        </View>
        <Text className="feedback__label">联系方式（选填）</Text>
        <Input
          className="feedback__contact"
          value={form.contact}
          placeholder="手机号或微信号，方便我们联系您"
          onChange={form.setContact}
        />
        <Button
          className="feedback__submit"
          type="primary"
          block
          loading={form.submitting}
          disabled={form.submitting}
          onClick={() => void form.submit()}
        >
          提交反馈
        </Button>
      </View>
      <Text id={FEEDBACK_HISTORY_ID} className="feedback__history-title">
        我的反馈
      </Text>
      <RefreshList
        list={form.history}
        keyOf={(item) => item.id}
        renderItem={(item) => <FeedbackRow item={item} />}
        emptyText="还没有提交过反馈"
      />
    </View>
  )
}
