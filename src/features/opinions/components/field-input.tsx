import { Text, View } from '@tarojs/components'
import { Input, TextArea } from '@nutui/nutui-react-taro'
import { type FieldValue, OPINION_FIELD_MAX, type TemplateField } from '@contract/main/opinions'

/** Lines a text needs in the box (about 18 characters a line on a phone), 3 to 12. */
function linesFor(text: string): number {
  const lines = text
    .split('\n')
    .reduce((sum, line) => sum + Math.max(1, Math.ceil(line.length / 18)), 0)
  return Math.min(12, Math.max(3, lines + 1))
}

/**
 * One template field as the expert fills it on a phone: free text in a growing box, a pick-list as
 * taps (one, or several), a number with its unit.
 */
export function FieldInput({
  field,
  value,
  onChange,
}: {
  field: TemplateField
  value: FieldValue | undefined
  onChange: (value: FieldValue) => void
}) {
  if (field.type === 'choice' || field.type === 'multi') {
    const chosen = value === undefined ? [] : Array.isArray(value) ? value : [value]
    const toggle = (option: string) => {
      if (field.type === 'choice') return onChange(chosen[0] === option ? '' : option)
      onChange(
        chosen.includes(option) ? chosen.filter((one) => one !== option) : [...chosen, option],
      )
    }
    return (
      <View
        className="opinion-field__chips"
        role={field.type === 'choice' ? 'radiogroup' : 'group'}
        aria-label={field.label}
      >
        {field.options?.map((option) => {
          const on = chosen.includes(option)
          return (
            <View
              key={option}
              className={`opinion-field__chip${on ? ' opinion-field__chip--on' : ''}`}
              role={field.type === 'choice' ? 'radio' : 'checkbox'}
              aria-checked={on}
              onClick={() => toggle(option)}
            >
              <Text>{option}</Text>
            </View>
          )
        })}
      </View>
    )
  }
  if (field.type === 'number') {
    return (
      <View className="opinion-field__number">
        <Input
          className="opinion-field__number-input"
          type="digit"
          value={typeof value === 'string' ? value : ''}
          placeholder={field.placeholder ?? '请输入数值'}
          maxLength={10}
          aria-label={field.label}
          onChange={(text) => onChange(text)}
        />
        {field.unit && <Text className="opinion-field__unit">{field.unit}</Text>}
      </View>
    )
  }
  const text = typeof value === 'string' ? value : ''
  return (
    <TextArea
      className="opinion-field__area"
      value={text}
      placeholder={field.placeholder ?? `请填写${field.label}`}
      maxLength={OPINION_FIELD_MAX}
      // Tall enough for its text, set or typed: auto-height follows typing only, and an AI draft or
      // a restored draft arrives whole.
      style={{ height: `${linesFor(text) * 1.7}em` }}
      aria-label={field.label}
      onChange={(typed) => onChange(typed)}
    />
  )
}
