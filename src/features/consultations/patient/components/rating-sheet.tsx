import { Text, View } from '@tarojs/components'
import { Button, Popup, TextArea } from '@nutui/nutui-react-taro'
import { useState } from 'react'
import {
  CONSULT_MESSAGES,
  COMPLAINT_DAYS,
  COMPLAINT_TEXT_MAX,
  RATING_TAGS,
  RATING_TEXT_MAX,
  type RatingInput,
} from '@/services/consultations'
import { showToast } from '@/platform/ui'
import './patient.scss'

type RatingValue = Omit<RatingInput, 'consultationId'>
type RatingTag = RatingValue['tags'][number]

export const STAR_WORDS = ['很不满意', '不满意', '一般', '满意', '非常满意'] as const

/** 评价: 1–5 stars, tags, a few words; sent once (the server refuses a second). */
export function RatingSheet({
  visible,
  busy,
  onClose,
  onSubmit,
}: {
  visible: boolean
  busy: boolean
  onClose: () => void
  onSubmit: (value: RatingValue) => void
}) {
  const [stars, setStars] = useState(0)
  const [tags, setTags] = useState<RatingTag[]>([])
  const [text, setText] = useState('')
  const toggleTag = (tag: RatingTag) =>
    setTags((current) =>
      current.includes(tag) ? current.filter((one) => one !== tag) : [...current, tag],
    )
  return (
    <Popup visible={visible} position="bottom" round title="评价专家" onClose={onClose}>
      <View className="consult-sheet">
        <View className="rating-stars" role="radiogroup" aria-label="评分">
          {[1, 2, 3, 4, 5].map((value) => (
            <View
              key={value}
              role="radio"
              aria-checked={stars === value}
              aria-label={`${value} 星`}
              className={`rating-stars__star${value <= stars ? ' rating-stars__star--on' : ''}`}
              onClick={() => setStars(value)}
            >
              ★
            </View>
          ))}
        </View>
        <Text className="rating-stars__word">
          {stars > 0 ? STAR_WORDS[stars - 1] : '请点击星星评分'}
        </Text>
        <View className="rating-tags">
          {RATING_TAGS.map((tag) => (
            <View
              key={tag}
              role="checkbox"
              aria-checked={tags.includes(tag)}
              className={`rating-tags__tag${tags.includes(tag) ? ' rating-tags__tag--on' : ''}`}
              onClick={() => toggleTag(tag)}
            >
              {tag}
            </View>
          ))}
        </View>
        <TextArea
          className="consult-sheet__area"
          value={text}
          placeholder="说说您的感受（选填）"
          maxLength={RATING_TEXT_MAX}
          showCount
          onChange={setText}
        />
        <Text className="consult-sheet__hint">评价提交后不能修改，会以匿名方式显示在专家主页</Text>
        <Button
          type="primary"
          block
          loading={busy}
          disabled={busy}
          onClick={() => {
            if (stars < 1) return showToast(CONSULT_MESSAGES.ratingStars)
            onSubmit({ stars, tags, text: text.trim() })
          }}
        >
          提交评价
        </Button>
      </View>
    </Popup>
  )
}

/** 投诉: what went wrong; the money is held until the platform decides. */
export function ComplaintSheet({
  visible,
  busy,
  onClose,
  onSubmit,
}: {
  visible: boolean
  busy: boolean
  onClose: () => void
  onSubmit: (text: string) => void
}) {
  const [text, setText] = useState('')
  return (
    <Popup visible={visible} position="bottom" round title="投诉" onClose={onClose}>
      <View className="consult-sheet">
        <Text className="consult-sheet__hint">
          咨询结束后 {COMPLAINT_DAYS}{' '}
          天内可投诉。提交后费用暂不结算给专家，平台核实后决定全额、部分退款或结算，结果会通知您和专家。
        </Text>
        <TextArea
          className="consult-sheet__area"
          value={text}
          placeholder="请写下投诉的原因"
          maxLength={COMPLAINT_TEXT_MAX}
          showCount
          onChange={setText}
        />
        <Button
          type="primary"
          block
          loading={busy}
          disabled={busy}
          onClick={() => {
            if (text.trim().length < 2) return showToast(CONSULT_MESSAGES.complaintRequired)
            onSubmit(text.trim())
          }}
        >
          提交投诉
        </Button>
      </View>
    </Popup>
  )
}
