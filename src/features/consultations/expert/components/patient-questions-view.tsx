import { useEffect, useState } from 'react'
import { Text, View } from '@tarojs/components'
import { Button, TextArea } from '@nutui/nutui-react-taro'
import { z } from 'zod/mini'
import {
  DECLINE_REASON_MAX,
  declineConsultation as declineEndpoint,
  EXPERT_CONSULT_TAB_LABELS,
  EXPERT_CONSULT_TABS,
} from '@contract/main/consultations'
import { RefreshList } from '@/components/refresh-list'
import { TabStrip } from '@/components/tab-strip'
import { type ConsultCard, type ExpertConsultTab, yuanOf } from '@/services/consultations'
import { isUrgent, timeLeftText, useMinuteClock } from '../countdown'
import { useConsultDecisions, usePatientQuestions } from '../hooks/use-patient-questions'
import { EXPERT_TEXTS as T } from '../texts'
import './patient-questions.scss'

type Decisions = ReturnType<typeof useConsultDecisions>

/** The contract's rule for the reason (required, length, no invisible characters), in its words. */
export function declineReasonProblem(reason: string): string | null {
  const parsed = z.safeParse(declineEndpoint.input.shape.reason, reason.trim())
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? '请填写原因')
}

function personText(card: ConsultCard): string {
  const { person } = card
  const age = person.age === null ? T.ageUnknown : `${person.age}岁`
  return `${person.nameMasked} ${T.sex[person.sex]} ${age}`
}

function DeclineBox({
  card,
  decisions,
  onClose,
}: {
  card: ConsultCard
  decisions: Decisions
  onClose: () => void
}) {
  const [reason, setReason] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const submit = async () => {
    const found = declineReasonProblem(reason)
    setProblem(found)
    if (found) return
    if (await decisions.decline(card, reason)) onClose()
  }
  return (
    <View className="patient-questions__decline">
      <TextArea
        className="patient-questions__area"
        value={reason}
        placeholder={T.reasonPlaceholder}
        maxLength={DECLINE_REASON_MAX}
        showCount
        aria-label={T.reasonLabel}
        onChange={(value) => {
          setReason(value)
          if (problem) setProblem(null)
        }}
      />
      {problem && (
        <View className="patient-questions__error" role="alert">
          {problem}
        </View>
      )}
      <View className="patient-questions__actions">
        <Button size="small" onClick={onClose}>
          {T.cancel}
        </Button>
        <Button
          size="small"
          type="danger"
          disabled={decisions.busyId === card.id}
          onClick={() => void submit()}
        >
          {T.confirmDecline}
        </Button>
      </View>
    </View>
  )
}

function QuestionRow({
  card,
  now,
  decisions,
  declining,
  setDeclining,
  onOpen,
}: {
  card: ConsultCard
  now: number
  decisions: Decisions
  declining: boolean
  setDeclining: (id: string | null) => void
  onOpen: (card: ConsultCard) => void
}) {
  const waiting = card.state === 'waiting-accept'
  return (
    <View className="patient-questions__row">
      <View
        className="patient-questions__main"
        role="link"
        aria-label={`打开 ${card.person.nameMasked} 的咨询`}
        onClick={() => onOpen(card)}
      >
        <View className="patient-questions__head">
          {card.unread > 0 && <View className="patient-questions__dot" aria-label={T.unread} />}
          <Text className="patient-questions__person">{personText(card)}</Text>
          <Text className="patient-questions__service">{card.serviceLabel}</Text>
        </View>
        <Text className="patient-questions__complaint">{card.chiefComplaint}</Text>
        <View className="patient-questions__facts">
          <Text className="patient-questions__price">¥{yuanOf(card.priceFen)}</Text>
          {card.deadline && card.deadlineLabel ? (
            <Text
              className={`patient-questions__deadline${
                isUrgent(card.deadline, now) ? ' patient-questions__deadline--urgent' : ''
              }`}
            >
              {card.deadlineLabel} {timeLeftText(card.deadline, now)}
            </Text>
          ) : (
            <Text className="patient-questions__state">{card.stateLabel}</Text>
          )}
          {card.disputed && <Text className="patient-questions__disputed">{T.disputed}</Text>}
        </View>
      </View>
      {waiting &&
        (declining ? (
          <DeclineBox card={card} decisions={decisions} onClose={() => setDeclining(null)} />
        ) : (
          <View className="patient-questions__actions">
            <Button
              size="small"
              disabled={decisions.busyId === card.id}
              onClick={() => setDeclining(card.id)}
            >
              {T.decline}
            </Button>
            <Button
              size="small"
              type="primary"
              disabled={decisions.busyId === card.id}
              onClick={() => void decisions.accept(card)}
            >
              {T.accept}
            </Button>
          </View>
        ))}
    </View>
  )
}

function Questions({
  tab,
  onCounts,
  onOpen,
}: {
  tab: ExpertConsultTab
  onCounts: (counts: Partial<Record<ExpertConsultTab, number>>) => void
  onOpen: (card: ConsultCard) => void
}) {
  const { list, counts } = usePatientQuestions(tab)
  const decisions = useConsultDecisions(list.refresh)
  const [declining, setDeclining] = useState<string | null>(null)
  const now = useMinuteClock()
  useEffect(() => onCounts(counts), [counts, onCounts])
  return (
    <RefreshList
      list={list}
      keyOf={(card) => card.id}
      emptyText={T.empty[tab]}
      renderItem={(card) => (
        <QuestionRow
          card={card}
          now={now}
          decisions={decisions}
          declining={declining === card.id}
          setDeclining={setDeclining}
          onOpen={onOpen}
        />
      )}
    />
  )
}

/** 患者咨询: 待接诊 (time left to accept), 进行中 (time left to answer), 已完成, with counts. */
export function PatientQuestionsView({
  initialTab = 'waiting',
  onOpen,
}: {
  initialTab?: ExpertConsultTab
  onOpen: (card: ConsultCard) => void
}) {
  const [tab, setTab] = useState<ExpertConsultTab>(initialTab)
  const [counts, setCounts] = useState<Partial<Record<ExpertConsultTab, number>>>({})
  const tabs = EXPERT_CONSULT_TABS.map((key) => ({
    key,
    title: EXPERT_CONSULT_TAB_LABELS[key],
    ...(counts[key] !== undefined ? { count: counts[key] } : {}),
  }))
  return (
    <View className="patient-questions">
      <TabStrip tabs={tabs} active={tab} onChange={setTab} />
      <Questions key={tab} tab={tab} onOpen={onOpen} onCounts={setCounts} />
    </View>
  )
}
