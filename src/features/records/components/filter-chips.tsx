import { ScrollView, Text, View } from '@tarojs/components'
import './filter-chips.scss'

export interface ChipOption<V extends string> {
  value: V
  label: string
}

export interface FilterChipsProps<V extends string> {
  /** What the row filters, left of the chips (日期, 类型, 医院). */
  label: string
  options: readonly ChipOption<V>[]
  value: V
  onChange: (value: V) => void
}

/**
 * One filter as a row of chips that scrolls sideways: every choice is one tap away and the chosen
 * one is always visible, which a dropdown hides. Single choice; the first option is "all".
 */
export function FilterChips<V extends string>({
  label,
  options,
  value,
  onChange,
}: FilterChipsProps<V>) {
  return (
    <View className="filter-chips" aria-label={label}>
      <Text className="filter-chips__label">{label}</Text>
      <ScrollView className="filter-chips__scroll" scrollX enhanced showScrollbar={false}>
        <View className="filter-chips__row">
          {options.map((option) => {
            const selected = option.value === value
            return (
              <Text
                key={option.value || 'all'}
                className={`filter-chips__chip${selected ? ' filter-chips__chip--on' : ''}`}
                onClick={() => {
                  if (!selected) onChange(option.value)
                }}
              >
                {option.label}
              </Text>
            )
          })}
        </View>
      </ScrollView>
    </View>
  )
}
