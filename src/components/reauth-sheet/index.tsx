import { type ReactNode, useState } from 'react'
import { Text, View } from '@tarojs/components'
import { Button, Input, Popup } from '@nutui/nutui-react-taro'
import { SmsCodeButton, SmsCodeError } from '../form/sms-code-button'
import { useSmsCode } from '../form/use-sms-code'
import './index.scss'

/** What proves it is the account's owner: the login password, or a code sent to its own phone. */
export type ReauthProof = { password: string } | { smsCode: string }

export const REAUTH_TEXTS = {
  passwordMode: '登录密码',
  codeMode: '短信验证码',
  passwordPlaceholder: '请输入登录密码',
  codePlaceholder: '请输入验证码',
  passwordRequired: '请输入登录密码',
  codeRequired: '请输入 6 位数字验证码',
  codeHint: '验证码将发送到当前账号绑定的手机号',
  codeSentTo: (masked: string) => `验证码已发送至 ${masked}`,
} as const

export interface ReauthSheetProps {
  visible: boolean
  /** 签署回复, 确认提现. */
  title: string
  /** What the proof is for and what happens after it. */
  text: string
  /** Extra content above the choice (a withdrawal's amounts). */
  children?: ReactNode
  /** The button's text, and its text while `busy`. */
  submitText: string
  busyText: string
  busy: boolean
  /** The server's words when the last try failed (wrong password, the state changed). */
  error: string | null
  onClose: () => void
  /** Resolves true when it went through: the typed password or code is then cleared. */
  onSubmit: (proof: ReauthProof) => Promise<boolean>
  /** Sends a code to the account's own phone (the app never sees its full number). */
  sendCode: () => Promise<{ cooldownSeconds: number; mobileMasked: string }>
  /** An extra class on the sheet's body (what e2e flows find it by). */
  className?: string
}

type Mode = 'password' | 'code'

/**
 * A bottom sheet asking the login password or an SMS code before an act that must be the owner's
 * own: the expert's signed answer, a withdrawal. The check itself is the server's.
 */
export function ReauthSheet({
  visible,
  title,
  text,
  children,
  submitText,
  busyText,
  busy,
  error,
  onClose,
  onSubmit,
  sendCode,
  className,
}: ReauthSheetProps) {
  const [mode, setMode] = useState<Mode>('password')
  const [password, setPassword] = useState('')
  const [code, setCode] = useState('')
  const [sentTo, setSentTo] = useState<string | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const sms = useSmsCode(async () => {
    const answer = await sendCode()
    setSentTo(answer.mobileMasked)
    return answer
  })
  const submit = () => {
    let proof: ReauthProof
    if (mode === 'password') {
      if (!password) return setProblem(REAUTH_TEXTS.passwordRequired)
      proof = { password }
    } else {
      if (!/^\d{6}$/.test(code)) return setProblem(REAUTH_TEXTS.codeRequired)
      proof = { smsCode: code }
    }
    setProblem(null)
    void onSubmit(proof).then((done) => {
      if (done) {
        setPassword('')
        setCode('')
      }
    })
  }
  const message = problem ?? error
  return (
    <Popup visible={visible} position="bottom" round title={title} onClose={onClose}>
      <View className={`reauth-sheet${className ? ` ${className}` : ''}`}>
        {children}
        <Text className="reauth-sheet__text">{text}</Text>
        <View className="reauth-sheet__tabs" role="tablist">
          {(['password', 'code'] as const).map((one) => (
            <View
              key={one}
              role="tab"
              aria-selected={mode === one}
              className={`reauth-sheet__tab${mode === one ? ' reauth-sheet__tab--on' : ''}`}
              onClick={() => {
                setMode(one)
                setProblem(null)
              }}
            >
              {one === 'password' ? REAUTH_TEXTS.passwordMode : REAUTH_TEXTS.codeMode}
            </View>
          ))}
        </View>
        {mode === 'password' ? (
          <Input
            className="reauth-sheet__input"
            type="password"
            value={password}
            placeholder={REAUTH_TEXTS.passwordPlaceholder}
            maxLength={64}
            aria-label={REAUTH_TEXTS.passwordMode}
            onChange={setPassword}
          />
        ) : (
          <>
            <View className="reauth-sheet__code">
              <Input
                className="reauth-sheet__input"
                type="number"
                value={code}
                placeholder={REAUTH_TEXTS.codePlaceholder}
                maxLength={6}
                aria-label={REAUTH_TEXTS.codeMode}
                onChange={setCode}
              />
              <SmsCodeButton sms={sms} />
            </View>
            <SmsCodeError sms={sms} />
            <Text className="reauth-sheet__hint">
              {sentTo ? REAUTH_TEXTS.codeSentTo(sentTo) : REAUTH_TEXTS.codeHint}
            </Text>
          </>
        )}
        {message && (
          <View className="reauth-sheet__error" role="alert">
            {message}
          </View>
        )}
        <Button type="primary" block loading={busy} disabled={busy} onClick={submit}>
          {busy ? busyText : submitText}
        </Button>
      </View>
    </Popup>
  )
}
