import { Text, View } from '@tarojs/components'
import { Button, TextArea } from '@nutui/nutui-react-taro'
import { ANSWER_FIELD_MAX } from '@contract/main/consultations'
import { ReauthSheet } from '@/components/reauth-sheet'
import type { AnswerField, AnswerForm } from '../hooks/use-answer-form'
import { CONVERSATION_TEXTS as T } from '../texts'

const LABELS: Record<'imaging' | 'text', Record<AnswerField, string>> = {
  imaging: { findings: T.findings, opinion: T.opinion, advice: T.advice },
  text: { findings: T.findings, opinion: T.textOpinion, advice: T.advice },
}

const PLACEHOLDERS: Record<AnswerField, string> = {
  findings: '描述所见的影像表现（部位、大小、形态、密度等）',
  opinion: '您对影像和病情的解读意见',
  advice: '下一步建议（复查时间、需补充的检查、线下就诊科室等）',
}

/** Password or SMS code: the expert proves it is them before the answer is signed. */
function SignSheet({ form }: { form: AnswerForm }) {
  return (
    <ReauthSheet
      className="consult-sign"
      visible={form.signing}
      title={T.signTitle}
      text={T.signText}
      submitText={form.addendum ? T.signAddendum : T.sign}
      busyText={T.signing}
      busy={form.busy}
      error={form.error}
      onClose={form.closeSign}
      onSubmit={form.sign}
      sendCode={form.sendCode}
    />
  )
}

/** The expert's answer (or 补充说明 once signed), under the rule that no prescription is issued. */
export function AnswerFormView({ form, imaging }: { form: AnswerForm; imaging: boolean }) {
  const labels = LABELS[imaging ? 'imaging' : 'text']
  return (
    <View
      className="consult-answer-form"
      aria-label={form.addendum ? T.addendumTitle : T.answerTitle}
    >
      <Text className="consult-answer-form__title">
        {form.addendum ? T.addendumTitle : T.answerTitle}
      </Text>
      <Text className="consult-answer-form__rule">
        {T.notice}；{T.noPrescription}。
      </Text>
      {form.addendum && <Text className="consult-answer-form__hint">{T.answerSignedHint}</Text>}
      {form.fields.map((field) => (
        <View key={field.name} className="consult-answer-form__field">
          <Text className="consult-answer-form__label">
            {form.addendum ? T.addendumTitle : labels[field.name]}
            {field.required ? '' : T.optional}
          </Text>
          <TextArea
            className="consult-answer-form__area"
            value={form.values[field.name]}
            placeholder={form.addendum ? '补充说明的内容，患者会看到它' : PLACEHOLDERS[field.name]}
            maxLength={ANSWER_FIELD_MAX}
            aria-label={form.addendum ? T.addendumTitle : labels[field.name]}
            onChange={(value) => form.setValue(field.name, value)}
          />
        </View>
      ))}
      <Button type="primary" block onClick={form.openSign}>
        {form.addendum ? T.signAddendum : T.sign}
      </Button>
      <SignSheet form={form} />
    </View>
  )
}
