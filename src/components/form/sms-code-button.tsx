import { Text, View } from '@tarojs/components'
import type { SmsCode } from './use-sms-code'
import './form.scss'

/** 获取验证码 / 重新获取(59s), right of the code input. */
export function SmsCodeButton({ sms }: { sms: SmsCode }) {
  return (
    <Text
      className={`form-code-button${sms.disabled ? ' form-code-button--disabled' : ''}`}
      aria-disabled={sms.disabled}
      // Counting or sending: nothing to do. Phone not valid yet: `send` says why instead of sending.
      onClick={sms.sending || sms.remaining > 0 ? undefined : sms.send}
    >
      {sms.label}
    </Text>
  )
}

/** Why the last code was not sent (a rate limit), under the code field. */
export function SmsCodeError({ sms }: { sms: SmsCode }) {
  if (!sms.error) return null
  return (
    <View className="form-field__error" role="alert">
      {sms.error}
    </View>
  )
}
