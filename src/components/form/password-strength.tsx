import { Text, View } from '@tarojs/components'
import { STRENGTH_TEXT, passwordStrength, type PasswordStrength as Strength } from './rules'
import './form.scss'

const LEVEL: Record<Strength, number> = { weak: 1, medium: 2, strong: 3 }

/** Under a new password: the rule before anything is typed, then three bars and 密码强度：中. */
export function PasswordStrength({ password }: { password: string }) {
  const strength = password === '' ? null : passwordStrength(password)
  return (
    <View className="form-strength">
      {strength !== null ? (
        <View className={`form-strength__bars form-strength__bars--${strength}`}>
          {[1, 2, 3].map((bar) => (
            <View
              key={bar}
              className={`form-strength__bar${bar <= LEVEL[strength] ? ' form-strength__bar--on' : ''}`}
            />
          ))}
          <Text className="form-strength__text">{`密码强度：${STRENGTH_TEXT[strength]}`}</Text>
        </View>
      ) : (
        <Text className="form-strength__rule">至少 8 位，需同时包含字母和数字</Text>
      )}
    </View>
  )
}
