import { Text } from '@tarojs/components'
import type { SmsCodeButton } from '../hooks/use-sms-code'
import './auth-form.scss'

/** 获取验证码 / 59 秒后重发, right of the code input. */
export function CodeButton({ sms }: { sms: SmsCodeButton }) {
  return (
    <Text
      className={`auth-code-button${sms.disabled ? ' auth-code-button--disabled' : ''}`}
      aria-disabled={sms.disabled}
      onClick={sms.disabled ? undefined : sms.send}
    >
      {sms.label}
    </Text>
  )
}
