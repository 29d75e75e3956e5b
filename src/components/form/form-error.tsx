import { View } from '@tarojs/components'
import './form.scss'

/** The server's refusal of the last attempt, above the button (the toast may already be gone). */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null
  return (
    <View className="form-error" role="alert">
      {message}
    </View>
  )
}
