import { Image, Text, View } from '@tarojs/components'
import { Button, Loading } from '@nutui/nutui-react-taro'
import type { Session } from '@/services/auth'
import { QR_TEXT, useQrLogin } from '../hooks/use-qr-login'
import './qr-login-panel.scss'

export interface QrLoginPanelProps {
  /** Polls only while shown. */
  active: boolean
  onSession: (session: Session) => void | Promise<void>
}

/** Desktop scan login: the QR code, what the phone did, and 刷新 when it can no longer be used. */
export function QrLoginPanel({ active, onSession }: QrLoginPanelProps) {
  const { view, refresh } = useQrLogin(active, (session) => void onSession(session))
  const image = 'image' in view ? view.image : null
  const dimmed = view.status !== 'pending' && view.status !== 'loading'
  let text: string
  switch (view.status) {
    case 'loading':
      text = '二维码生成中...'
      break
    case 'error':
      text = view.message
      break
    default:
      text = QR_TEXT[view.status]
  }
  const canRefresh =
    view.status === 'refused' || view.status === 'expired' || view.status === 'error'
  return (
    <View className="qr-login">
      <View className="qr-login__frame">
        {image !== null && (
          <Image
            className={`qr-login__image${dimmed ? ' qr-login__image--dimmed' : ''}`}
            src={image}
            mode="aspectFit"
            aria-label="扫码登录二维码"
          />
        )}
        {view.status === 'loading' && <Loading type="circular" />}
        {canRefresh && (
          <View className="qr-login__overlay">
            <Button type="primary" size="small" onClick={refresh}>
              刷新
            </Button>
          </View>
        )}
      </View>
      <View
        className={`qr-login__status qr-login__status--${view.status}`}
        role={view.status === 'error' ? 'alert' : 'status'}
      >
        {text}
      </View>
      <Text className="qr-login__help">用已登录的医影通扫一扫，在手机上确认即可登录</Text>
    </View>
  )
}
