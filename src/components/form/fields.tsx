import { FormField } from './form-field'
import { PasswordStrength } from './password-strength'
import { SmsCodeButton, SmsCodeError } from './sms-code-button'
import type { FieldProps } from './use-form'
import type { SmsCode } from './use-sms-code'

/** The fields every account form shares, so they read and behave the same on every page. */

export function MobileField({
  field,
  label = '手机号',
  placeholder = '请输入手机号',
}: {
  field: FieldProps
  label?: string
  placeholder?: string
}) {
  return (
    <FormField label={label} field={field} placeholder={placeholder} type="number" maxLength={11} />
  )
}

/** 验证码 with its 获取验证码 button, and why the last code was not sent. */
export function SmsCodeField({ field, sms }: { field: FieldProps; sms: SmsCode }) {
  return (
    <>
      <FormField
        label="验证码"
        field={field}
        placeholder="请输入验证码"
        type="number"
        maxLength={6}
        extra={<SmsCodeButton sms={sms} />}
      />
      <SmsCodeError sms={sms} />
    </>
  )
}

/** A new password with its strength, and (given `confirm`) its repetition. */
export function NewPasswordFields({
  password,
  confirm,
  label = '新密码',
}: {
  password: FieldProps
  confirm?: FieldProps
  label?: string
}) {
  return (
    <>
      <FormField
        label={label}
        field={password}
        placeholder="8 位以上字母和数字"
        type="password"
        maxLength={64}
        hint={<PasswordStrength password={password.value} />}
      />
      {confirm && (
        <FormField
          label="确认密码"
          field={confirm}
          placeholder="请再次输入新密码"
          type="password"
          maxLength={64}
        />
      )}
    </>
  )
}
