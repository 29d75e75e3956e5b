import { Text, View } from '@tarojs/components'
import { Button, Input } from '@nutui/nutui-react-taro'
import { PageState } from '@/components/page-state'
import { PICKUP_CODE_LENGTH, type ReceivedGrant } from '@/services/shares'
import { untilText } from '../format'
import { isLinkGone, useShareLanding } from '../hooks/use-share-landing'
import { ShareEnded } from './share-ended'
import './share-landing.scss'

export interface ShareLandingViewProps {
  token: string
  onOpened: (grant: ReceivedGrant) => void
}

/** 查看分享: who shared, until when, the 提取码 when one is asked, and 查看. */
export function ShareLandingView({ token, onOpened }: ShareLandingViewProps) {
  const landing = useShareLanding(token, onOpened)
  const loaded = landing.preview
  if (loaded.status === 'loading') return <PageState status="loading" />
  if (loaded.status === 'error') {
    if (isLinkGone(loaded.error)) return <ShareEnded title={loaded.message} />
    return <PageState status="error" message={loaded.message} onRetry={loaded.reload} />
  }
  const preview = loaded.data
  if (landing.ended || preview.status !== 'active') {
    return (
      <ShareEnded
        detail={
          preview.status === 'active'
            ? undefined
            : `此分享${preview.statusLabel}。如需继续查看，请联系分享人重新授权。`
        }
      />
    )
  }
  return (
    <View className="share-landing">
      <View className="share-landing__card">
        <Text className="share-landing__who">{preview.sharerMasked} 向您分享了医疗影像</Text>
        <Text className="share-landing__what">共 {preview.recordCount} 项影像或报告</Text>
        <Text className="share-landing__until">有效期至 {untilText(preview.expiresAt)}</Text>
        {preview.needsPickupCode && (
          <View className="share-landing__code">
            <Text className="share-landing__label">提取码</Text>
            <Input
              className="share-landing__input"
              type="digit"
              value={landing.code}
              maxLength={PICKUP_CODE_LENGTH}
              placeholder={`请输入 ${PICKUP_CODE_LENGTH} 位提取码`}
              onChange={landing.setCode}
              onConfirm={landing.open}
            />
          </View>
        )}
        {landing.openError !== '' && (
          <View role="alert">
            <Text className="share-landing__error">{landing.openError}</Text>
          </View>
        )}
        <Button
          className="share-landing__open"
          type="primary"
          block
          loading={landing.opening}
          disabled={landing.opening}
          onClick={landing.open}
        >
          查看
        </Button>
      </View>
      <Text className="share-landing__note">
        仅供查看，页面会显示查看人和时间水印。分享人可以看到每次查看的时间和大致地点。
      </Text>
    </View>
  )
}
