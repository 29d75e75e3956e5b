import { Text, View } from '@tarojs/components'
import { useState } from 'react'
import { useResource } from '@/hooks/use-resource'
import { showModal, showToast } from '@/platform/ui'
import { describeError } from '@/services/api'
import { deleteDicomInstance } from '@/services/dicom-upload'
import { listSeriesInstances, type SeriesInstance, type SeriesSummary } from '@/services/records'
import { modalityName } from '../filters'
import './series-files.scss'

export interface SeriesFilesProps {
  examId: string
  series: readonly SeriesSummary[]
  /** After a file is deleted: the page reloads the study (its counts and series change). */
  onDeleted: () => void
}

function fileSize(bytes: number): string {
  return bytes < 1024 * 1024
    ? `${Math.max(1, Math.round(bytes / 1024))} KB`
    : `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

function fileName(file: SeriesInstance, index: number): string {
  return `第 ${file.instanceNumber ?? index + 1} 张`
}

function SeriesRow({
  examId,
  series,
  onDeleted,
}: {
  examId: string
  series: SeriesSummary
  onDeleted: () => void
}) {
  // Closed asks nothing; each opening asks afresh.
  const [expanded, setExpanded] = useState(false)
  const files = useResource(
    expanded ? `${examId}:${series.id}` : null,
    () => listSeriesInstances(examId, series.id),
    { errorMessage: '文件列表加载失败，请重试' },
  )
  const [deleting, setDeleting] = useState<string | null>(null)

  const toggle = () => {
    if (files.status === 'ready' || files.status === 'loading') setExpanded(false)
    else if (files.status === 'error') void files.reload()
    else setExpanded(true)
  }

  const remove = async (file: SeriesInstance, index: number) => {
    if (deleting) return
    const last = files.status === 'ready' && files.data.length === 1
    const confirmed = await showModal({
      title: '删除文件',
      content: last
        ? `删除${fileName(file, index)}后该序列将没有文件，序列也会一并删除，无法恢复。确定删除？`
        : `确定删除${fileName(file, index)}（${fileSize(file.sizeBytes)}）？删除后无法恢复。`,
      confirmText: '删除',
    })
    if (!confirmed) return
    setDeleting(file.id)
    try {
      await deleteDicomInstance(examId, file.id)
      showToast('已删除')
      files.replace((current) => current.filter((item) => item.id !== file.id))
      onDeleted()
    } catch (error) {
      showToast(describeError(error))
    } finally {
      setDeleting(null)
    }
  }

  const open = files.status !== 'idle'
  const title = [
    `序列 ${series.seriesNumber ?? ''}`.trim(),
    series.description ?? (series.modality ? modalityName(series.modality) : null),
  ]
    .filter(Boolean)
    .join(' · ')
  return (
    <View className="series-files__series">
      <View className="series-files__head" onClick={toggle}>
        <Text className="series-files__title">{title}</Text>
        <Text className="series-files__toggle">
          {`${series.instanceCount} 个文件 ${open ? '收起' : '查看'}`}
        </Text>
      </View>
      {files.status === 'loading' && <Text className="series-files__note">加载中 ...</Text>}
      {files.status === 'error' && (
        <Text className="series-files__note" onClick={() => void files.reload()}>
          {`${files.message}（点此重试）`}
        </Text>
      )}
      {files.status === 'ready' &&
        files.data.map((file, index) => (
          <View key={file.id} className="series-files__file">
            <Text className="series-files__name">{fileName(file, index)}</Text>
            <Text className="series-files__meta">
              {[
                file.rows && file.columns ? `${file.columns}×${file.rows}` : null,
                file.frameCount > 1 ? `${file.frameCount} 帧` : null,
                fileSize(file.sizeBytes),
              ]
                .filter(Boolean)
                .join(' · ')}
            </Text>
            <Text
              className={`series-files__delete${deleting === file.id ? ' series-files__delete--busy' : ''}`}
              onClick={() => void remove(file, index)}
            >
              {deleting === file.id ? '删除中' : '删除'}
            </Text>
          </View>
        ))}
    </View>
  )
}

/** An uploaded study's files by series, each deletable (the study's counts follow). */
export function SeriesFiles({ examId, series, onDeleted }: SeriesFilesProps) {
  if (series.length === 0) return <Text className="series-files__note">暂无文件</Text>
  return (
    <View className="series-files">
      {series.map((item) => (
        <SeriesRow key={item.id} examId={examId} series={item} onDeleted={onDeleted} />
      ))}
    </View>
  )
}
