import { ActionSheet } from '@nutui/nutui-react-taro'
import { canPickFolder, picksFromChat } from '@/platform/file-picker'
import type { UploadSource } from '../hooks/use-zip-upload'

interface SourceOption {
  [key: string]: string
  name: string
  description: string
  source: UploadSource
}

/**
 * What 上传DICOM can send on this platform. A mini-program only reaches files a chat received
 * (a zip, or up to 100 DICOM files); a browser picks a zip, several files, or a whole folder where
 * it supports that.
 */
export function uploadSourceOptions(): SourceOption[] {
  if (picksFromChat()) {
    return [
      { name: '从聊天选择压缩包', description: 'zip 格式', source: 'zip' },
      {
        name: '从聊天选择DICOM文件',
        description: '一次最多 100 个，无扩展名的文件也可以',
        source: 'files',
      },
    ]
  }
  return [
    { name: '上传压缩包', description: 'zip 格式', source: 'zip' },
    { name: '选择DICOM文件', description: '可多选，无扩展名的文件也可以', source: 'files' },
    ...(canPickFolder()
      ? [{ name: '选择文件夹', description: '如光盘中的 DICOM 文件夹', source: 'folder' as const }]
      : []),
  ]
}

/**
 * The choice behind 上传DICOM. `onChoose` runs inside the tap on an option, so a browser still
 * counts the file dialog it opens as the person's own gesture.
 */
export function UploadSourceSheet({
  visible,
  onClose,
  onChoose,
}: {
  visible: boolean
  onClose: () => void
  onChoose: (source: UploadSource) => void
}) {
  const options = uploadSourceOptions()
  return (
    <ActionSheet
      className="upload-source-sheet"
      visible={visible}
      title="上传DICOM"
      options={options}
      cancelText="取消"
      onCancel={onClose}
      onSelect={(_item, index) => {
        onClose()
        const chosen = options[index]
        if (chosen) onChoose(chosen.source)
      }}
    />
  )
}
