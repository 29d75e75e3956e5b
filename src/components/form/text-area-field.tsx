import { Text, View } from '@tarojs/components'
import { TextArea } from '@nutui/nutui-react-taro'
import type { FieldProps } from './use-form'
import './form.scss'

export interface TextAreaFieldProps {
  label: string
  field: FieldProps
  placeholder: string
  maxLength: number
}

/** Several lines of text (an appeal's reason): the label above, the count and message below. */
export function TextAreaField({ label, field, placeholder, maxLength }: TextAreaFieldProps) {
  return (
    <View className="form-field form-field--area">
      <Text className="form-field__label form-field__label--above">{label}</Text>
      <TextArea
        className={`form-field__area${field.error ? ' form-field__area--error' : ''}`}
        value={field.value}
        placeholder={placeholder}
        maxLength={maxLength}
        showCount
        autoSize
        onChange={field.onChange}
        onBlur={field.onBlur}
      />
      {field.error && (
        <View className="form-field__error" role="alert">
          {field.error}
        </View>
      )}
    </View>
  )
}
