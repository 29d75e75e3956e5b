import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { LIVE_PREVIEW_ID, type ScannerView } from '../hooks/use-scanner'
import './scan-view.scss'

export interface ScanViewProps {
  scanner: ScannerView
}

/** The scan page: WeChat's scanner on weapp; camera preview, photo and album on H5. */
export function ScanView({ scanner }: ScanViewProps) {
  const { capabilities, live, message } = scanner
  return (
    <View className="scan-view">
      <Text className="scan-view__hint">扫描电脑网页上的登录二维码，在手机上确认登录</Text>
      {capabilities.nativeScanner ? (
        <View className="scan-view__frame scan-view__frame--idle" onClick={scanner.scanNative}>
          <View className="scan-view__corners" />
          <Text className="scan-view__frame-text">点击开始扫码</Text>
        </View>
      ) : (
        <View className="scan-view__frame">
          <View id={LIVE_PREVIEW_ID} className="scan-view__preview" />
          <View className="scan-view__corners" />
          {!live && (
            <View className="scan-view__placeholder">
              <Text className="scan-view__frame-text">
                {capabilities.liveCamera ? '摄像头未开启' : '当前浏览器无法在页面内打开摄像头'}
              </Text>
            </View>
          )}
          {live && <View className="scan-view__laser" />}
        </View>
      )}
      {message !== null && (
        <View className="scan-view__message" role="alert">
          <Text>{message}</Text>
        </View>
      )}
      <View className="scan-view__actions">
        {capabilities.nativeScanner && (
          <Button type="primary" block onClick={scanner.scanNative}>
            扫一扫
          </Button>
        )}
        {capabilities.liveCamera &&
          (live ? (
            <Button block fill="outline" onClick={scanner.stopLive}>
              关闭摄像头
            </Button>
          ) : (
            <Button type="primary" block onClick={scanner.startLive}>
              {message === null ? '开启摄像头扫码' : '重新扫描'}
            </Button>
          ))}
        {capabilities.photo && (
          <View className="scan-view__row">
            <Button
              className="scan-view__half"
              fill="outline"
              onClick={() => scanner.scanPhoto('camera')}
            >
              拍照
            </Button>
            <Button
              className="scan-view__half"
              fill="outline"
              onClick={() => scanner.scanPhoto('album')}
            >
              从相册选择
            </Button>
          </View>
        )}
      </View>
    </View>
  )
}
