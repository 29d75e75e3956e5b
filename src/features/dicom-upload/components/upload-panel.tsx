import { Text, View } from '@tarojs/components'
import { Button, Progress } from '@nutui/nutui-react-taro'
import { THEME } from '@/theme'
import type { ZipUpload } from '../hooks/use-zip-upload'
import './upload-panel.scss'

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

/**
 * The upload in progress: 上传中 with a progress bar and 取消, then 解析中, then 可查看 or
 * 失败 with the server's reason. Nothing is shown before the first upload.
 */
export function UploadPanel({ upload }: { upload: ZipUpload }) {
  const { progress, fileName } = upload
  if (!progress || progress.phase === 'cancelled') return null
  let percent = 0
  let status: string
  let detail: string | null = null
  let tone = 'active'
  switch (progress.phase) {
    case 'starting':
      status = '上传中'
      detail = '正在准备…'
      break
    case 'uploading':
      percent = progress.total > 0 ? Math.floor((progress.sent / progress.total) * 100) : 0
      status = '上传中'
      detail = progress.retrying
        ? '网络中断，正在重新连接…'
        : `${megabytes(progress.sent)} / ${megabytes(progress.total)}`
      break
    case 'processing':
      percent = 100
      status = '解析中'
      detail = '正在解析影像，请稍候'
      break
    case 'ready':
      percent = 100
      status = '可查看'
      tone = 'ready'
      detail = progress.state.message ?? `已保存 ${progress.state.storedCount} 个影像文件`
      break
    case 'failed':
      status = '失败'
      tone = 'failed'
      detail = progress.message
      break
  }
  const sending = progress.phase === 'starting' || progress.phase === 'uploading'
  const finished = progress.phase === 'ready' || progress.phase === 'failed'
  return (
    <View className={`upload-panel upload-panel--${tone}`} role="status">
      <View className="upload-panel__head">
        <Text className="upload-panel__name">{fileName ?? ''}</Text>
        <Text className={`upload-panel__status upload-panel__status--${tone}`}>{status}</Text>
      </View>
      {progress.phase !== 'failed' && (
        <Progress
          className="upload-panel__bar"
          percent={percent}
          showText
          color={THEME.primary}
          strokeWidth="6"
          animated={progress.phase === 'processing'}
        />
      )}
      {detail && <Text className="upload-panel__detail">{detail}</Text>}
      <View className="upload-panel__actions">
        {sending && (
          <Button size="small" onClick={upload.cancel}>
            取消上传
          </Button>
        )}
        {finished && (
          <Button size="small" onClick={upload.dismiss}>
            知道了
          </Button>
        )}
      </View>
    </View>
  )
}
