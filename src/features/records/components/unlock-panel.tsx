import { Text, View } from '@tarojs/components'
import { ShieldCheck } from '@nutui/icons-react-taro'
import { useState } from 'react'
import { FormError } from '@/components/form/form-error'
import { FormField } from '@/components/form/form-field'
import { SmsCodeField } from '@/components/form/fields'
import { CODE_RULES, LOGIN_PASSWORD_RULES } from '@/components/form/rules'
import { SubmitButton } from '@/components/form/submit-button'
import { useForm } from '@/components/form/use-form'
import { useSmsCode } from '@/components/form/use-sms-code'
import { sendReportUnlockCode, unlockReports } from '@/services/records'
import { THEME } from '@/theme'
import { rememberUnlockTicket } from '../unlock-ticket'
import './unlock-panel.scss'

type Mode = 'password' | 'code'

export interface UnlockPanelProps {
  /** Called with the ticket once the person proved it is them. */
  onUnlocked: (ticket: string) => void
  /** What is being opened (查看隐私报告, 取消隐私). */
  purpose?: string
}

/**
 * A private report asks who is looking: the account's login password, or a code sent to its own
 * phone. The ticket it earns is kept in memory for a few minutes (unlock-ticket.ts).
 */
export function UnlockPanel({ onUnlocked, purpose = '查看隐私报告' }: UnlockPanelProps) {
  const [mode, setMode] = useState<Mode>('password')
  const [sentTo, setSentTo] = useState<string | null>(null)
  const form = useForm(
    {
      password: { rules: LOGIN_PASSWORD_RULES },
      code: { rules: CODE_RULES },
    },
    { fallback: '验证失败，请重试' },
  )
  const sms = useSmsCode(async () => {
    const answer = await sendReportUnlockCode()
    setSentTo(answer.mobileMasked)
    return answer
  })

  const submit = () =>
    form.submit(async () => {
      const answer = await unlockReports(
        mode === 'password' ? { password: form.values.password } : { code: form.values.code },
      )
      rememberUnlockTicket(answer.ticket, answer.expiresInSeconds)
      form.setValue('password', '')
      onUnlocked(answer.ticket)
    }, [mode])

  const switchTo = (next: Mode) => {
    if (next === mode) return
    form.hideErrors()
    form.setSubmitError(null)
    setMode(next)
  }

  return (
    <View className="unlock-panel">
      <View className="unlock-panel__icon">
        <ShieldCheck size={40} color={THEME.primary} />
      </View>
      <Text className="unlock-panel__title">这是一份隐私报告</Text>
      <Text className="unlock-panel__text">为保护您的隐私，{purpose}前请先验证身份。</Text>
      <View className="unlock-panel__tabs">
        <Text
          className={`unlock-panel__tab${mode === 'password' ? ' unlock-panel__tab--on' : ''}`}
          onClick={() => switchTo('password')}
        >
          登录密码
        </Text>
        <Text
          className={`unlock-panel__tab${mode === 'code' ? ' unlock-panel__tab--on' : ''}`}
          onClick={() => switchTo('code')}
        >
          短信验证码
        </Text>
      </View>
      <View className="unlock-panel__form">
        {mode === 'password' ? (
          <FormField
            label="密码"
            field={form.field('password')}
            placeholder="请输入登录密码"
            type="password"
            maxLength={64}
          />
        ) : (
          <>
            <SmsCodeField field={form.field('code')} sms={sms} />
            <Text className="unlock-panel__hint">
              {sentTo ? `验证码已发送至 ${sentTo}` : '验证码将发送到当前账号绑定的手机号'}
            </Text>
          </>
        )}
      </View>
      <FormError message={form.submitError} />
      <SubmitButton text="验证并查看" busyText="验证中…" busy={form.submitting} onClick={submit} />
    </View>
  )
}
