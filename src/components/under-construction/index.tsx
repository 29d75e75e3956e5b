import { View, Text } from '@tarojs/components'
import { useRouter } from '@tarojs/taro'
import { findRoute } from '@/routes'
import './index.scss'

/** What every link to, and every page of, a feature that does not work yet says. */
export const COMING_SOON = '即将上线'

/**
 * What a spec route shows until the issue that builds it lands: the page's real title and an honest
 * note, never pretend content.
 */
export function UnderConstruction() {
  const { path } = useRouter()
  const route = findRoute(path ?? '')
  return (
    <View className="under-construction">
      <View className="under-construction__badge">{COMING_SOON}</View>
      <Text className="under-construction__title">{route?.title ?? '页面'}</Text>
      <Text className="under-construction__text">该功能即将上线，敬请期待</Text>
    </View>
  )
}
