import { Text, View } from '@tarojs/components'
import { STRENGTH_TEXT, type PasswordStrength as Strength } from '../form-rules'
import './auth-form.scss'

const LEVEL: Record<Strength, number> = { weak: 1, medium: 2, strong: 3 }

/** The rule before anything is typed, then three bars and 密码强度：中. */
export function PasswordStrength({ strength }: { strength: Strength | null }) {
  return (
    <View className="auth-strength">
      {strength !== null && (
        <View className={`auth-strength__bars auth-strength__bars--${strength}`}>
          {[1, 2, 3].map((bar) => (
            <View
              key={bar}
              className={`auth-strength__bar${bar <= LEVEL[strength] ? ' auth-strength__bar--on' : ''}`}
            />
          ))}
          <Text className="auth-strength__text">{`密码强度：${STRENGTH_TEXT[strength]}`}</Text>
        </View>
      )}
      {strength === null && (
        <Text className="auth-strength__rule">至少 8 位，需同时包含字母和数字</Text>
      )}
    </View>
  )
}
