import { useState } from 'react'
import { Text, View } from '@tarojs/components'
import { Button, Input, Popup } from '@nutui/nutui-react-taro'
import { MESSAGE_TEXT_MAX } from '@contract/main/consultations'
import { PageState } from '@/components/page-state'
import type { ConsultDetail, ConsultMessage } from '@/services/consultations'
import type { GrantRecord } from '@/services/grants'
import { navigate } from '@/services/navigate'
import { useAnswerForm } from '../hooks/use-answer-form'
import type { ConversationModel } from '../hooks/use-consult-conversation'
import { CONVERSATION_TEXTS as T } from '../texts'
import { AnswerFormView } from './answer-form'
import { MessageBubble, PendingBubble, RecordCard } from './message-bubble'
import './conversation.scss'

export interface ConversationViewProps {
  model: ConversationModel
  onOpenDetail: () => void
  onOpenRecord: (detail: ConsultDetail, record: GrantRecord) => void
}

const hasAnswer = (messages: readonly ConsultMessage[]) =>
  messages.some((message) => message.kind === 'answer')

/** Why the box is closed, or the follow-ups left, under the messages. */
function composerNote(detail: ConsultDetail, messages: readonly ConsultMessage[]): string | null {
  const answered = hasAnswer(messages) || detail.state === 'answered'
  const left = Math.max(0, detail.followupLimit - detail.followupsUsed)
  if (detail.role === 'patient' && answered && detail.actions.send) return T.followupsLeft(left)
  if (detail.actions.send) return null
  if (detail.role === 'patient' && answered && left === 0 && detail.state === 'answered') {
    return T.followupsUsed
  }
  return T.closed
}

function Header({ detail, onOpenDetail }: { detail: ConsultDetail; onOpenDetail: () => void }) {
  const who =
    detail.role === 'expert'
      ? `${detail.person.nameMasked} · ${detail.serviceLabel}`
      : `${detail.expert.name} ${detail.expert.titleLabel} · ${detail.serviceLabel}`
  return (
    <View className="consult-chat__header">
      <View className="consult-chat__header-main">
        <Text className="consult-chat__who-title">{who}</Text>
        <Text className={`consult-chat__state consult-chat__state--${detail.state}`}>
          {detail.stateLabel}
          {detail.disputed ? ' · 投诉处理中' : ''}
        </Text>
      </View>
      <View className="consult-chat__detail-link" role="link" onClick={onOpenDetail}>
        {T.detailLink} ›
      </View>
    </View>
  )
}

function Composer({ model, detail }: { model: ConversationModel; detail: ConsultDetail }) {
  const [text, setText] = useState('')
  const [picking, setPicking] = useState(false)
  const submit = () => {
    void model.sendText(text).then((sent) => {
      if (sent) setText('')
    })
  }
  return (
    <View className="consult-chat__composer">
      <View className="consult-chat__composer-row">
        <Input
          className="consult-chat__input"
          value={text}
          placeholder={T.placeholder}
          maxLength={MESSAGE_TEXT_MAX}
          confirmType="send"
          aria-label="消息"
          onChange={setText}
          onConfirm={submit}
        />
        <Button size="small" type="primary" onClick={submit}>
          {T.send}
        </Button>
      </View>
      <View className="consult-chat__tools">
        <View className="consult-chat__tool" role="button" onClick={() => void model.sendPicture()}>
          {T.picture}
        </View>
        {detail.records.length > 0 && (
          <View className="consult-chat__tool" role="button" onClick={() => setPicking(true)}>
            {T.records}
          </View>
        )}
        {detail.role === 'expert' && (
          <View
            className="consult-chat__tool consult-chat__tool--exam"
            role="button"
            onClick={() => void navigate('reportNew', { consultationId: detail.id })}
          >
            {T.examRequest}
          </View>
        )}
      </View>
      <Popup
        visible={picking}
        position="bottom"
        round
        title="发送检查或报告"
        onClose={() => setPicking(false)}
      >
        <View className="consult-chat__picker">
          {detail.records.map((record) => (
            <RecordCard
              key={`${record.kind}:${record.id}`}
              record={record}
              onOpen={() => {
                setPicking(false)
                void model.sendRecord({ kind: record.kind, id: record.id }, record.title)
              }}
            />
          ))}
        </View>
      </Popup>
    </View>
  )
}

/** An 影像会诊's answer is a report from a template (pages/report/report); its addenda are here. */
function WriteReportCard({ consultationId }: { consultationId: string }) {
  return (
    <View className="consult-answer-form" aria-label={T.writeReportTitle}>
      <Text className="consult-answer-form__title">{T.writeReportTitle}</Text>
      <Text className="consult-answer-form__rule">
        {T.notice}；{T.noPrescription}。
      </Text>
      <Text className="consult-answer-form__hint">{T.writeReportText}</Text>
      <Button type="primary" block onClick={() => void navigate('report', { consultationId })}>
        {T.writeReport}
      </Button>
    </View>
  )
}

function ExpertAnswer({ model, detail }: { model: ConversationModel; detail: ConsultDetail }) {
  if (detail.service === 'imaging' && !hasAnswer(model.messages))
    return <WriteReportCard consultationId={detail.id} />
  return <ExpertAnswerForm model={model} detail={detail} />
}

function ExpertAnswerForm({ model, detail }: { model: ConversationModel; detail: ConsultDetail }) {
  const form = useAnswerForm({
    consultationId: detail.id,
    service: detail.service,
    addendum: hasAnswer(model.messages),
    onSigned: (message) => {
      model.received(message)
      void model.detail.reload()
    },
  })
  return <AnswerFormView form={form} imaging={detail.service === 'imaging'} />
}

/** 消息详情: the consultation's state, its messages, the box, and for the expert the answer form. */
export function ConversationView({ model, onOpenDetail, onOpenRecord }: ConversationViewProps) {
  const { detail } = model
  if (detail.status === 'loading') return <PageState status="loading" />
  if (detail.status === 'error') {
    return <PageState status="error" message={detail.message} onRetry={detail.reload} />
  }
  const data = detail.data
  const note = composerNote(data, model.messages)
  const imaging = data.service === 'imaging'
  return (
    <View className="consult-chat">
      <Header detail={data} onOpenDetail={onOpenDetail} />
      <Text className="consult-chat__notice">{T.notice}</Text>
      <View className="consult-chat__list" aria-label="消息列表">
        {model.status === 'loading' && <PageState status="loading" />}
        {model.status === 'error' && (
          <PageState status="error" message={model.error ?? undefined} onRetry={model.refresh} />
        )}
        {model.status === 'ready' && model.messages.length === 0 && model.pending.length === 0 && (
          <Text className="consult-chat__empty">{T.empty}</Text>
        )}
        {model.messages.map((message) => (
          <MessageBubble
            key={message.id}
            message={message}
            imaging={imaging}
            onOpenRecord={(record) => onOpenRecord(data, record)}
          />
        ))}
        {model.pending.map((pending) => (
          <PendingBubble
            key={pending.clientId}
            pending={pending}
            onRetry={() => void model.retry(pending.clientId)}
          />
        ))}
      </View>
      {data.role === 'expert' && data.actions.answer && (
        <ExpertAnswer model={model} detail={data} />
      )}
      {note && <Text className="consult-chat__note">{note}</Text>}
      {data.actions.send && <Composer model={model} detail={data} />}
    </View>
  )
}
