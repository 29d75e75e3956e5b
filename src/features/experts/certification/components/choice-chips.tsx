import { View } from '@tarojs/components'

export interface ChoiceChipsProps<V extends string> {
  label: string
  options: readonly V[]
  labels: Record<V, string>
  value: V | null
  onChange: (value: V) => void
}

/** A few choices side by side (职称, 执业类别): one tap each, all visible, no picker to open. */
export function ChoiceChips<V extends string>({
  label,
  options,
  labels,
  value,
  onChange,
}: ChoiceChipsProps<V>) {
  return (
    <View className="cert-chips" role="radiogroup" aria-label={label}>
      {options.map((option) => (
        <View
          key={option}
          role="radio"
          aria-checked={value === option}
          className={`cert-chip${value === option ? ' cert-chip--on' : ''}`}
          onClick={() => onChange(option)}
        >
          {labels[option]}
        </View>
      ))}
    </View>
  )
}
