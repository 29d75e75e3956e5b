import { Input, TextArea, Button } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import {
  EXAM_BODY_PARTS,
  EXAM_BODY_PART_MAX,
  EXAM_CONTRASTS,
  EXAM_CONTRAST_LABELS,
  EXAM_NAME_MAX,
  EXAM_REASON_MAX,
  EXAM_TYPES,
  EXAM_TYPE_LABELS,
  EXAM_URGENCIES,
  EXAM_URGENCY_LABELS,
} from '@contract/main/exam-requests'
import type { ExamRequestCompose } from '../hooks/use-exam-request-compose'
import { EXAM_REQUEST_TEXTS as T } from '../texts'
import './exam-request.scss'

interface Choice<V extends string> {
  value: V
  label: string
}

/** A pick-list as taps: one choice, tapped again to keep it (never a blank). */
function Chips<V extends string>({
  label,
  choices,
  value,
  onChoose,
}: {
  label: string
  choices: readonly Choice<V>[]
  value: string | null
  onChoose: (value: V) => void
}) {
  return (
    <View className="exam-compose__chips" role="radiogroup" aria-label={label}>
      {choices.map((choice) => {
        const on = choice.value === value
        return (
          <View
            key={choice.value}
            className={`exam-compose__chip${on ? ' exam-compose__chip--on' : ''}`}
            role="radio"
            aria-checked={on}
            onClick={() => onChoose(choice.value)}
          >
            <Text>{choice.label}</Text>
          </View>
        )
      })}
    </View>
  )
}

const of = <V extends string>(values: readonly V[], labels: Record<V, string>) =>
  values.map((value) => ({ value, label: labels[value] }))
const TYPES = of(EXAM_TYPES, EXAM_TYPE_LABELS)
const CONTRASTS = of(EXAM_CONTRASTS, EXAM_CONTRAST_LABELS)
const URGENCIES = of(EXAM_URGENCIES, EXAM_URGENCY_LABELS)
const PARTS = EXAM_BODY_PARTS.map((part) => ({ value: part as string, label: part }))

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <View className="exam-compose__section">
      <Text className="exam-compose__label">{title}</Text>
      {children}
    </View>
  )
}

/** 开检查建议: the expert's phone form (taps for the pick-lists), 发送 at the bottom. */
export function ExamRequestComposeView({ compose }: { compose: ExamRequestCompose }) {
  const { draft, set } = compose
  const typedPart = EXAM_BODY_PARTS.includes(draft.bodyPart as (typeof EXAM_BODY_PARTS)[number])
    ? ''
    : draft.bodyPart
  return (
    <View className="exam-compose">
      <View className="exam-compose__head">
        <Text className="exam-compose__title">{T.composeTitle}</Text>
        <Text className="exam-compose__hint">{T.composeHint}</Text>
      </View>
      <Section title={T.examType}>
        <Chips
          label={T.examType}
          choices={TYPES}
          value={draft.examType}
          onChoose={(value) => set('examType', value)}
        />
        {draft.examType === 'other' && (
          <Input
            className="exam-compose__input"
            value={draft.examName}
            placeholder={T.examNamePlaceholder}
            maxLength={EXAM_NAME_MAX}
            aria-label={T.examName}
            onChange={(text) => set('examName', text)}
          />
        )}
      </Section>
      <Section title={T.bodyPart}>
        <Chips
          label={T.bodyPart}
          choices={PARTS}
          value={draft.bodyPart}
          onChoose={(value) => set('bodyPart', value)}
        />
        <Input
          className="exam-compose__input"
          value={typedPart}
          placeholder={T.bodyPartPlaceholder}
          maxLength={EXAM_BODY_PART_MAX}
          aria-label={T.bodyPart}
          onChange={(text) => set('bodyPart', text)}
        />
      </Section>
      <Section title={T.contrast}>
        <Chips
          label={T.contrast}
          choices={CONTRASTS}
          value={draft.contrast}
          onChoose={(value) => set('contrast', value)}
        />
      </Section>
      <Section title={T.urgency}>
        <Chips
          label={T.urgency}
          choices={URGENCIES}
          value={draft.urgency}
          onChoose={(value) => set('urgency', value)}
        />
      </Section>
      <Section title={T.reason}>
        <TextArea
          className="exam-compose__area"
          value={draft.reason}
          placeholder={T.reasonPlaceholder}
          maxLength={EXAM_REASON_MAX}
          showCount
          autoSize
          aria-label={T.reason}
          onChange={(text) => set('reason', text)}
        />
      </Section>
      <View className="exam-compose__notice" role="note">
        {T.notice}
      </View>
      {compose.error && (
        <View className="exam-compose__error" role="alert">
          {compose.error}
        </View>
      )}
      <View className="exam-compose__actions">
        <Button
          type="primary"
          block
          loading={compose.sending}
          disabled={compose.sending}
          onClick={() => void compose.send()}
        >
          {compose.sending ? T.sending : T.send}
        </Button>
      </View>
    </View>
  )
}
