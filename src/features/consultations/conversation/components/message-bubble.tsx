import { Image, Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import Taro from '@tarojs/taro'
import { useAuthorisedImage } from '@/components/authorised-image/use-authorised-image'
import { ExplainedText } from '@/components/explained-text'
import type { ConsultMessage, ConsultPicture } from '@/services/consultations'
import type { GrantRecord } from '@/services/grants'
import { navigate } from '@/services/navigate'
import { timeFormat } from '@/utils/time'
import { ExamRequestCard } from '../../exam-request/components/exam-request-card'
import type { PendingMessage } from '../merge'
import { CONVERSATION_TEXTS as T } from '../texts'

function preview(src: string) {
  void Taro.previewImage({ current: src, urls: [src] }).catch(() => undefined)
}

function ServerPicture({ picture }: { picture: ConsultPicture }) {
  const image = useAuthorisedImage(picture.url)
  if (image.status === 'failed')
    return <Text className="consult-chat__picture-failed">{T.pictureFailed}</Text>
  if (image.status !== 'ready')
    return <View className="consult-chat__picture consult-chat__picture--loading" />
  return (
    <Image
      className="consult-chat__picture"
      src={image.src}
      mode="widthFix"
      aria-label="图片"
      onClick={() => preview(image.src)}
    />
  )
}

export function RecordCard({
  record,
  onOpen,
}: {
  record: GrantRecord | { kind: 'exam' | 'report'; title: string }
  onOpen?: () => void
}) {
  const facts =
    'hospitalName' in record
      ? [record.hospitalName, record.studyDate, record.modalities.join(' / ')]
          .filter((fact) => fact)
          .join(' · ')
      : ''
  return (
    <View className="consult-chat__record" onClick={onOpen}>
      <View className="consult-chat__record-head">
        <Text className={`consult-chat__record-kind consult-chat__record-kind--${record.kind}`}>
          {record.kind === 'exam' ? T.exam : T.report}
        </Text>
        <Text className="consult-chat__record-title">{record.title || '未命名检查'}</Text>
      </View>
      {facts !== '' && <Text className="consult-chat__record-facts">{facts}</Text>}
      {onOpen && <Text className="consult-chat__record-open">{T.recordOpen}</Text>}
    </View>
  )
}

/** The expert's signed answer, marked as such: its fields, 已签署 and when. */
export function AnswerCard({ message, imaging }: { message: ConsultMessage; imaging: boolean }) {
  const answer = message.answer ?? { findings: '', opinion: message.text, advice: '' }
  const addendum = message.kind === 'addendum'
  const parts = addendum
    ? [{ label: '', text: answer.opinion || message.text }]
    : [
        ...(imaging ? [{ label: T.findings, text: answer.findings }] : []),
        { label: imaging ? T.opinion : T.textOpinion, text: answer.opinion || message.text },
        { label: T.advice, text: answer.advice },
      ].filter((part) => part.text !== '')
  return (
    <View className={`consult-chat__answer${addendum ? ' consult-chat__answer--addendum' : ''}`}>
      <Text className="consult-chat__answer-badge">
        {addendum ? T.addendumBadge : T.answerBadge}
      </Text>
      {parts.map((part) => (
        <View key={part.label || 'text'} className="consult-chat__answer-part">
          {part.label !== '' && <Text className="consult-chat__answer-label">{part.label}</Text>}
          <Text className="consult-chat__answer-text">
            <ExplainedText text={part.text} />
          </Text>
        </View>
      ))}
      {message.signedAt && (
        <Text className="consult-chat__answer-signed">
          {T.signed(timeFormat(message.signedAt, 'yyyy-mm-dd hh:MM'))}
        </Text>
      )}
      {answer.reportId && (
        <Button
          className="consult-chat__answer-report"
          size="small"
          type="primary"
          fill="outline"
          onClick={() => void navigate('report', { id: answer.reportId })}
        >
          {T.openReport}
        </Button>
      )}
    </View>
  )
}

function Body({
  message,
  imaging,
  onOpenRecord,
}: {
  message: ConsultMessage
  imaging: boolean
  onOpenRecord: (record: GrantRecord) => void
}) {
  if (message.kind === 'answer' || message.kind === 'addendum') {
    return <AnswerCard message={message} imaging={imaging} />
  }
  if (message.kind === 'exam-request' && message.examRequest)
    return <ExamRequestCard card={message.examRequest} />
  if (message.kind === 'picture' && message.picture)
    return <ServerPicture picture={message.picture} />
  if (message.kind === 'record' && message.record) {
    const record = message.record
    return <RecordCard record={record} onOpen={() => onOpenRecord(record)} />
  }
  return <Text className="consult-chat__text">{message.text}</Text>
}

/** One message: a system line in the middle, mine on the right with 已读/未读, theirs on the left. */
export function MessageBubble({
  message,
  imaging,
  onOpenRecord,
}: {
  message: ConsultMessage
  imaging: boolean
  onOpenRecord: (record: GrantRecord) => void
}) {
  if (message.kind === 'system') {
    return (
      <View className="consult-chat__system" role="note">
        <Text>{message.text}</Text>
        <Text className="consult-chat__system-time">
          {timeFormat(message.createdAt, 'mm-dd hh:MM')}
        </Text>
      </View>
    )
  }
  const side = message.mine ? 'mine' : 'theirs'
  return (
    <View className={`consult-chat__row consult-chat__row--${side}`} data-seq={message.seq}>
      <Text className="consult-chat__who">
        {message.from === 'expert' ? '专家' : '患者'} ·{' '}
        {timeFormat(message.createdAt, 'mm-dd hh:MM')}
      </Text>
      <View className={`consult-chat__bubble consult-chat__bubble--${side}`}>
        <Body message={message} imaging={imaging} onOpenRecord={onOpenRecord} />
      </View>
      {message.mine && (
        <Text className={`consult-chat__read${message.read ? ' consult-chat__read--yes' : ''}`}>
          {message.read ? T.read : T.unread}
        </Text>
      )}
    </View>
  )
}

/** A send on its way (发送中) or failed (tap to retry with the same clientId). */
export function PendingBubble({
  pending,
  onRetry,
}: {
  pending: PendingMessage
  onRetry: () => void
}) {
  const content = pending.content
  return (
    <View className="consult-chat__row consult-chat__row--mine" data-client-id={pending.clientId}>
      <View className="consult-chat__bubble consult-chat__bubble--mine consult-chat__bubble--pending">
        {content.kind === 'text' && <Text className="consult-chat__text">{content.text}</Text>}
        {content.kind === 'picture' && (
          <Image className="consult-chat__picture" src={content.localPath} mode="widthFix" />
        )}
        {content.kind === 'record' && (
          <RecordCard record={{ kind: content.record.kind, title: content.title }} />
        )}
      </View>
      {pending.status === 'sending' ? (
        <Text className="consult-chat__read">{T.sending}</Text>
      ) : (
        <View className="consult-chat__failed" role="button" onClick={onRetry}>
          {T.failed}
        </View>
      )}
    </View>
  )
}
