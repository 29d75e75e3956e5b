import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { useState } from 'react'
import { RefreshList } from '../../components/refresh-list'
import { RequireLogin } from '../../components/require-login'
import { UploadPanel } from '../../features/dicom-upload/components/upload-panel'
import { UploadSourceSheet } from '../../features/dicom-upload/components/upload-source-sheet'
import { YsCard } from '../../features/dicom-upload/components/ys-card'
import {
  removeFailedUpload,
  useStorageQuota,
  useYsReports,
} from '../../features/dicom-upload/hooks/use-ys-reports'
import { useZipUpload } from '../../features/dicom-upload/hooks/use-zip-upload'
import { useRefreshOnReturn } from '../../features/records/hooks/use-refresh-on-return'
import { navigate } from '../../services/navigate'
import './index-ys.scss'

function gigabytes(bytes: number): string {
  return bytes >= 1024 ** 3
    ? `${(bytes / 1024 ** 3).toFixed(1)} GB`
    : `${Math.round(bytes / 1024 ** 2)} MB`
}

function YsContent() {
  const list = useYsReports()
  const { quota, reload: reloadQuota } = useStorageQuota()
  const [choosing, setChoosing] = useState(false)
  const upload = useZipUpload(() => {
    void list.refresh()
    reloadQuota()
  })
  useRefreshOnReturn(list.refresh)

  return (
    <View className="ys-page">
      <View className="ys-page__head">
        <View className="ys-page__intro">
          <Text className="ys-page__hint">上传光盘或聊天中收到的 DICOM 影像（压缩包或文件）</Text>
          {quota && (
            <Text className="ys-page__quota">
              已用 {gigabytes(quota.usedBytes)} / 共 {gigabytes(quota.quotaBytes)}
            </Text>
          )}
        </View>
        <Button
          type="primary"
          className="ys-page__upload"
          disabled={upload.busy}
          onClick={() => setChoosing(true)}
        >
          上传DICOM
        </Button>
      </View>
      <UploadSourceSheet
        visible={choosing}
        onClose={() => setChoosing(false)}
        onChoose={(source) => void upload.pickAndUpload(source)}
      />
      <UploadPanel upload={upload} />
      <RefreshList
        list={list}
        keyOf={(item) => item.examId ?? item.uploadId ?? item.createdAt}
        renderItem={(item) => (
          <YsCard
            item={item}
            onOpen={(opened) => void navigate('uploadDetail', { id: opened.examId ?? '' })}
            onRemove={(failed) =>
              failed.uploadId && void removeFailedUpload(failed.uploadId, list.refresh)
            }
          />
        )}
        emptyText="还没有上传的影像，点击上方 上传DICOM"
      />
    </View>
  )
}

/** 我的报告 (ys): the patient's own DICOM uploads, with 上传DICOM and each upload's state. */
export default function PersonalReportIndexYsPage() {
  return (
    <RequireLogin text="登录后才能上传和查看影像">
      <YsContent />
    </RequireLogin>
  )
}
