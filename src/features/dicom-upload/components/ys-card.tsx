import { Text, View } from '@tarojs/components'
import type { YsReportItem } from '@/services/dicom-upload'
import './ys-card.scss'

export interface YsCardProps {
  item: YsReportItem
  onOpen: (item: YsReportItem) => void
  /** Removes a failed upload from the list. */
  onRemove: (item: YsReportItem) => void
}

function size(bytes: number): string {
  if (bytes <= 0) return ''
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

/** One upload of 我的报告 (ys): its state, and once ready what it holds. */
export function YsCard({ item, onOpen, onRemove }: YsCardProps) {
  const openable = item.examId !== null && item.status === 'ready'
  return (
    <View
      className={`ys-card ys-card--${item.status}`}
      onClick={() => {
        if (openable) onOpen(item)
      }}
    >
      <View className="ys-card__head">
        <Text className="ys-card__title">{item.title}</Text>
        <Text className={`ys-card__status ys-card__status--${item.status}`}>
          {item.statusLabel}
        </Text>
      </View>
      <View className="ys-card__meta">
        {item.modalities.length > 0 && <Text>{item.modalities.join(' / ')}</Text>}
        {item.instanceCount > 0 && (
          <Text>
            {item.seriesCount} 个序列 · {item.instanceCount} 张
          </Text>
        )}
        {item.photoCount > 0 && <Text>报告照片 {item.photoCount} 张</Text>}
        <Text>{size(item.sizeBytes)}</Text>
      </View>
      {(item.hospitalText || item.studyDate) && (
        <Text className="ys-card__where">
          {[item.hospitalText, item.studyDate].filter(Boolean).join(' · ')}
        </Text>
      )}
      {item.statusMessage && <Text className="ys-card__message">{item.statusMessage}</Text>}
      {item.status === 'failed' && item.uploadId && (
        <View className="ys-card__actions">
          <Text
            className="ys-card__remove"
            onClick={(event) => {
              event.stopPropagation()
              onRemove(item)
            }}
          >
            删除记录
          </Text>
        </View>
      )}
    </View>
  )
}
