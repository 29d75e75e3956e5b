import { useState } from 'react'
import { Text, View } from '@tarojs/components'
import { Button, Input, Popup, TextArea } from '@nutui/nutui-react-taro'
import { ANSWER_FIELD_MAX } from '@contract/main/consultations'
import { SmsCodeButton, SmsCodeError } from '@/components/form/sms-code-button'
import { useSmsCode } from '@/components/form/use-sms-code'
import type { AnswerField, AnswerForm, SignProof } from '../hooks/use-answer-form'
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

type Mode = 'password' | 'code'

/** Password or SMS code: the expert proves it is them before the answer is signed. */
function SignSheet({ form }: { form: AnswerForm }) {
  const [mode, setMode] = useState<Mode>('password')
  const [password, setPassword] = useState('')
  const [code, setCode] = useState('')
  const [sentTo, setSentTo] = useState<string | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const sms = useSmsCode(async () => {
    const answer = await form.sendCode()
    setSentTo(answer.mobileMasked)
    return answer
  })
  const submit = () => {
    let proof: SignProof
    if (mode === 'password') {
      if (!password) return setProblem(T.passwordRequired)
      proof = { password }
    } else {
      if (!/^\d{6}$/.test(code)) return setProblem(T.codeRequired)
      proof = { smsCode: code }
    }
    setProblem(null)
    void form.sign(proof).then((done) => {
      if (done) {
        setPassword('')
        setCode('')
      }
    })
  }
  const message = problem ?? form.error
  return (
    <Popup
      visible={form.signing}
      position="bottom"
      round
      title={T.signTitle}
      onClose={form.closeSign}
    >
      <View className="consult-sign">
        <Text className="consult-sign__text">{T.signText}</Text>
        <View className="consult-sign__tabs" role="tablist">
          {(['password', 'code'] as const).map((one) => (
            <View
              key={one}
              role="tab"
              aria-selected={mode === one}
              className={`consult-sign__tab${mode === one ? ' consult-sign__tab--on' : ''}`}
              onClick={() => {
                setMode(one)
                setProblem(null)
              }}
            >
              {one === 'password' ? T.passwordMode : T.codeMode}
            </View>
          ))}
        </View>
        {mode === 'password' ? (
          <Input
            className="consult-sign__input"
            type="password"
            value={password}
            placeholder={T.passwordPlaceholder}
            maxLength={64}
            aria-label={T.passwordMode}
            onChange={setPassword}
          />
        ) : (
          <>
            <View className="consult-sign__code">
              <Input
                className="consult-sign__input"
                type="number"
                value={code}
                placeholder="请输入验证码"
                maxLength={6}
                aria-label={T.codeMode}
                onChange={setCode}
              />
              <SmsCodeButton sms={sms} />
            </View>
            <SmsCodeError sms={sms} />
            <Text className="consult-sign__hint">
              {sentTo ? `验证码已发送至 ${sentTo}` : '验证码将发送到当前账号绑定的手机号'}
            </Text>
          </>
        )}
        {message && (
          <View className="consult-sign__error" role="alert">
            {message}
          </View>
        )}
        <Button type="primary" block loading={form.busy} disabled={form.busy} onClick={submit}>
          {form.busy ? T.signing : form.addendum ? T.signAddendum : T.sign}
        </Button>
      </View>
    </Popup>
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
