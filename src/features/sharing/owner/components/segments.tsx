import { View } from '@tarojs/components'

export interface SegmentsProps<T extends string> {
  /** Read by screen readers for the group (授权给, 有效期). */
  label: string
  options: readonly { value: T; text: string }[]
  value: T
  onChange: (value: T) => void
}

/** A row of big choice buttons, one chosen (radio semantics): 链接/二维码 | 医生/亲友账号, 24 小时 … */
export function Segments<T extends string>({ label, options, value, onChange }: SegmentsProps<T>) {
  return (
    <View className="grant-segments" role="radiogroup" aria-label={label}>
      {options.map((option) => {
        const chosen = option.value === value
        return (
          <View
            key={option.value}
            role="radio"
            aria-checked={chosen}
            className={`grant-segments__item${chosen ? ' grant-segments__item--on' : ''}`}
            onClick={() => onChange(option.value)}
          >
            {option.text}
          </View>
        )
      })}
    </View>
  )
}
