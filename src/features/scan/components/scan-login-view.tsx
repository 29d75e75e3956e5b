import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { PageState } from '@/components/page-state'
import { back, navigate } from '@/services/navigate'
import { timeFormat } from '@/utils/time'
import { INVALID_QR_MESSAGE, type ScanLoginView as ScanLoginModel } from '../hooks/use-scan-login'
import './scan-login-view.scss'

export interface ScanLoginViewProps {
  view: ScanLoginModel
  /** Where 去登录 comes back to: this page with its id. */
  currentUrl: string
}

function leave() {
  // Opened from the scanner (which it replaced) or from a link: back if possible, else home.
  void back('main')
}

function Outcome({ icon, title, text }: { icon: string; title: string; text: string }) {
  return (
    <View className="scan-login scan-login--outcome">
      <View className={`scan-login__icon scan-login__icon--${icon}`}>
        {icon === 'ok' ? '✓' : '!'}
      </View>
      <Text className="scan-login__title">{title}</Text>
      <Text className="scan-login__text">{text}</Text>
      <Button className="scan-login__button" type="primary" block onClick={leave}>
        完成
      </Button>
    </View>
  )
}

/** 扫码登录: who is asking, then 确认登录 / 取消登录, then a clear outcome. */
export function ScanLoginView({ view, currentUrl }: ScanLoginViewProps) {
  const { state } = view
  switch (state.status) {
    case 'loading':
      return <PageState status="loading" />
    case 'invalid':
      return <Outcome icon="warn" title="无法登录" text={INVALID_QR_MESSAGE} />
    case 'signed-out':
      return (
        <View className="scan-login scan-login--outcome">
          <View className="scan-login__icon scan-login__icon--warn">!</View>
          <Text className="scan-login__title">请先登录</Text>
          <Text className="scan-login__text">在手机上登录后，才能确认电脑端登录</Text>
          <Button
            className="scan-login__button"
            type="primary"
            block
            onClick={() => void navigate('login', { redirect: currentUrl })}
          >
            去登录
          </Button>
        </View>
      )
    case 'error':
      return <Outcome icon="warn" title="无法登录" text={state.message} />
    case 'approved':
      return <Outcome icon="ok" title="已确认登录" text="电脑端将自动登录，请在电脑上继续操作" />
    case 'refused':
      return <Outcome icon="warn" title="已取消登录" text="电脑端不会登录您的账号" />
    case 'ready': {
      const { request, busy } = state
      return (
        <View className="scan-login">
          <View className="scan-login__screen">
            <View className="scan-login__monitor" />
            <View className="scan-login__stand" />
          </View>
          <Text className="scan-login__title">电脑端登录确认</Text>
          <Text className="scan-login__text">请确认是您本人在电脑上登录医影通</Text>
          <View className="scan-login__facts">
            <View className="scan-login__fact">
              <Text className="scan-login__label">浏览器</Text>
              <Text className="scan-login__value">{request.browser}</Text>
            </View>
            <View className="scan-login__fact">
              <Text className="scan-login__label">位置</Text>
              <Text className="scan-login__value">
                {[request.location, request.ipMasked].filter(Boolean).join(' · ')}
              </Text>
            </View>
            <View className="scan-login__fact">
              <Text className="scan-login__label">请求时间</Text>
              <Text className="scan-login__value">
                {timeFormat(request.createdAt, 'yyyy-mm-dd hh:MM:ss')}
              </Text>
            </View>
          </View>
          <Text className="scan-login__warning">如非本人操作，请点击取消，切勿确认</Text>
          <Button
            className="scan-login__button"
            type="primary"
            block
            disabled={busy}
            onClick={view.confirm}
          >
            确认登录
          </Button>
          <Button
            className="scan-login__button scan-login__button--cancel"
            fill="none"
            block
            disabled={busy}
            onClick={view.refuse}
          >
            取消登录
          </Button>
        </View>
      )
    }
  }
}
