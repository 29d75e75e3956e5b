import { Text, View } from '@tarojs/components'
import { Input } from '@nutui/nutui-react-taro'
import type { ReactNode } from 'react'
import type { FieldModel } from '../hooks/use-field'
import './profile-form.scss'

export interface ProfileFieldProps {
  label: string
  field: FieldModel
  placeholder: string
  type?: 'text' | 'number' | 'digit' | 'idcard' | 'tel'
  maxLength?: number
  /** Right of the input, e.g. 获取验证码. */
  extra?: ReactNode
  disabled?: boolean
}

/** A labelled input with its message underneath, shown as soon as the typed value is wrong. */
export function ProfileField({
  label,
  field,
  placeholder,
  type = 'text',
  maxLength,
  extra,
  disabled = false,
}: ProfileFieldProps) {
  return (
    <View className="profile-field">
      <View className={`profile-field__row${field.error ? ' profile-field__row--error' : ''}`}>
        <Text className="profile-field__label">{label}</Text>
        <Input
          className="profile-field__input"
          type={type}
          value={field.value}
          placeholder={placeholder}
          maxLength={maxLength}
          disabled={disabled}
          clearable
          onChange={field.onChange}
          onBlur={field.onBlur}
        />
        {extra}
      </View>
      {field.error !== null && (
        <View className="profile-field__error" role="alert">
          {field.error}
        </View>
      )}
    </View>
  )
}

/** The server's answer when it refused the whole form. */
export function FormError({ message }: { message: string | null }) {
  if (message === null) return null
  return (
    <View className="profile-form__error" role="alert">
      <Text>{message}</Text>
    </View>
  )
}
