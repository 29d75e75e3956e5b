import { Text, View } from '@tarojs/components'
import type { ReceivedGrant } from '@/services/shares'
import { untilText } from '../format'
import './share-banner.scss'

/** Who shared it and until when, over every shared page; no re-share is offered anywhere. */
export function ShareBanner({
  grant,
}: {
  grant: Pick<ReceivedGrant, 'sharerMasked' | 'expiresAt'>
}) {
  return (
    <View className="share-banner" role="note">
      <Text className="share-banner__main">
        {grant.sharerMasked} 分享 · 有效期至 {untilText(grant.expiresAt)}
      </Text>
      <Text className="share-banner__hint">仅供查看，不能再次分享</Text>
    </View>
  )
}
