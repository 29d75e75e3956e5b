import { Text, View } from '@tarojs/components'
import Taro from '@tarojs/taro'
import { Button } from '@nutui/nutui-react-taro'
import { currentPlatform } from '@/platform/runtime'
import { showToast } from '@/platform/ui'
import type { CreatedGrant } from '@/services/grants'
import { audienceLabel, formatTime } from '../format'
import { copyText } from '../grant-form'
import { GrantQr } from './grant-qr'

export interface GrantResultProps {
  created: CreatedGrant
  onDone: () => void
  onOpenList: () => void
}

async function copy(text: string) {
  try {
    await Taro.setClipboardData({ data: text })
    showToast('已复制链接和提取码')
  } catch {
    showToast('复制失败，请长按链接手动复制')
  }
}

/**
 * What was made. A link is shown this once (the server keeps only its hash), so the page says so
 * and offers every way to pass it on now: copy, the QR code, and in the mini-program the share card.
 */
export function GrantResult({ created, onDone, onOpenList }: GrantResultProps) {
  const { grant, link } = created
  return (
    <View className="grant-result">
      <Text className="grant-result__title">{link ? '分享链接已生成' : '授权成功'}</Text>
      {link ? (
        <>
          <View className="grant-result__once" role="note">
            链接和提取码只显示这一次，关闭后无法再查看，请现在复制或分享
          </View>
          <View className="grant-result__row">
            <Text className="grant-result__label">链接</Text>
            <Text className="grant-result__link" userSelect>
              {link.url}
            </Text>
          </View>
          {link.pickupCode && (
            <View className="grant-result__row">
              <Text className="grant-result__label">提取码</Text>
              <Text className="grant-result__code" userSelect>
                {link.pickupCode}
              </Text>
            </View>
          )}
          <Text className="grant-result__meta">
            有效期至 {formatTime(grant.expiresAt)}
            {grant.maxViews ? ` · 最多打开 ${grant.maxViews} 次` : ''}
          </Text>
          <Button type="primary" block onClick={() => void copy(copyText(link))}>
            {link.pickupCode ? '复制链接和提取码' : '复制链接'}
          </Button>
          {currentPlatform() === 'weapp' && (
            <Button className="grant-result__share" block openType="share">
              发送给微信好友
            </Button>
          )}
          <GrantQr url={link.url} />
          {link.pickupCode && (
            <Text className="grant-result__meta">请把提取码另行告诉对方，扫码后需输入提取码</Text>
          )}
        </>
      ) : (
        <Text className="grant-result__meta">
          已授权给{audienceLabel(grant)}，对方可在「共享给我的」中查看，有效期至{' '}
          {formatTime(grant.expiresAt)}
        </Text>
      )}
      <View className="grant-result__actions">
        <Button className="grant-result__action" onClick={onOpenList}>
          查看授权记录
        </Button>
        <Button className="grant-result__action" type="primary" fill="outline" onClick={onDone}>
          完成
        </Button>
      </View>
    </View>
  )
}
