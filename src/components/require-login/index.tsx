import type { ReactNode } from 'react'
import { Text, View } from '@tarojs/components'
import Taro from '@tarojs/taro'
import { Button } from '@nutui/nutui-react-taro'
import { navigate } from '../../services/navigate'
import { useAppStore } from '../../stores/app-store'
import './index.scss'

export interface SignInNeededProps {
  /** Where to come back to after logging in: `routeUrl('notificationSettings')`. */
  redirect: string
  /** Defaults to 请先登录. */
  text?: string
}

/** What a page that acts on the account shows to someone not signed in. */
export function SignInNeeded({ redirect, text = '请先登录' }: SignInNeededProps) {
  return (
    <View className="sign-in-needed">
      <Text className="sign-in-needed__text">{text}</Text>
      <Button
        type="primary"
        className="sign-in-needed__button"
        onClick={() => void navigate('login', { redirect })}
      >
        去登录
      </Button>
    </View>
  )
}

export interface RequireLoginProps {
  children: ReactNode
  text?: string
}

/**
 * Renders an account page only for a signed-in person. Signed out, it asks them to log in (and come
 * back) instead of calling the server only to be answered 401 and shown 请重新登录！.
 */
export function RequireLogin({ children, text }: RequireLoginProps) {
  const hasLogin = useAppStore((state) => state.hasLogin)
  if (hasLogin) return <>{children}</>
  // Outside a mounted page (tests, previews) Taro has no router yet.
  const path = Taro.getCurrentInstance().router?.path ?? '/'
  return <SignInNeeded redirect={path.split('?')[0]} text={text} />
}
