import { Text, View } from '@tarojs/components'
import './share-ended.scss'

export const SHARE_ENDED_TEXT =
  '分享人已撤销授权、授权已过期或查看次数已用完。如需继续查看，请联系分享人重新授权。'

/** 授权已失效: the whole page, with no 重试 (retrying an ended grant can never work). */
export function ShareEnded({ title = '授权已失效', detail = SHARE_ENDED_TEXT }) {
  return (
    <View className="share-ended" role="alert">
      <View className="share-ended__icon">!</View>
      <Text className="share-ended__title">{title}</Text>
      <Text className="share-ended__detail">{detail}</Text>
    </View>
  )
}
