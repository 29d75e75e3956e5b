import { Text, View } from '@tarojs/components'
import { Input } from '@nutui/nutui-react-taro'
import { Eye, Marshalling } from '@nutui/icons-react-taro'
import { useState, type ReactNode } from 'react'
import type { FieldProps } from './use-form'
import './form.scss'

export interface FormFieldProps {
  label: string
  field: FieldProps
  placeholder: string
  /** Default 'text'. 'password' adds a show/hide eye. */
  type?: 'text' | 'number' | 'digit' | 'password' | 'idcard' | 'tel'
  maxLength?: number
  /** Right of the input: the 获取验证码 button. */
  extra?: ReactNode
  /** Under the field and its message: the password strength. */
  hint?: ReactNode
  disabled?: boolean
}

/** One labelled NutUI input with its message underneath, for every form of the app. */
export function FormField({
  label,
  field,
  placeholder,
  type = 'text',
  maxLength,
  extra,
  hint,
  disabled = false,
}: FormFieldProps) {
  const [revealed, setRevealed] = useState(false)
  const secret = type === 'password'
  return (
    <View className="form-field">
      <View className={`form-field__row${field.error ? ' form-field__row--error' : ''}`}>
        <Text className="form-field__label">{label}</Text>
        <Input
          className="form-field__input"
          type={secret && revealed ? 'text' : type}
          value={field.value}
          placeholder={placeholder}
          maxLength={maxLength}
          disabled={disabled}
          clearable={!secret}
          onChange={field.onChange}
          onBlur={field.onBlur}
        />
        {secret && (
          <View
            className="form-field__eye"
            aria-label={revealed ? '隐藏密码' : '显示密码'}
            onClick={() => setRevealed((value) => !value)}
          >
            {revealed ? (
              <Eye size={16} color="#999999" />
            ) : (
              <Marshalling size={16} color="#999999" />
            )}
          </View>
        )}
        {extra}
      </View>
      {field.error && (
        <View className="form-field__error" role="alert">
          {field.error}
        </View>
      )}
      {hint}
    </View>
  )
}
