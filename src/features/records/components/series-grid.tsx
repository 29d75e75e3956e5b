import { Image, Text, View } from '@tarojs/components'
import type { SeriesSummary } from '@/services/records'
import { useAuthorisedImage } from '@/components/authorised-image/use-authorised-image'
import { modalityName } from '../filters'
import './series-grid.scss'

export interface SeriesGridProps {
  series: readonly SeriesSummary[]
  onOpen: (series: SeriesSummary) => void
}

const PREVIEW_FAILED = '缩略图加载失败'

function Thumbnail({ series }: { series: SeriesSummary }) {
  const image = useAuthorisedImage(series.thumbnailPath)
  if (image.status === 'ready') {
    return (
      <Image
        className="series-grid__image"
        src={image.src}
        mode="aspectFit"
        ariaLabel={`序列 ${series.seriesNumber ?? ''} 缩略图`}
      />
    )
  }
  const text =
    image.status === 'loading'
      ? '加载中 ...'
      : image.status === 'failed'
        ? PREVIEW_FAILED
        : (series.previewMessage ?? '该序列没有图像')
  return (
    <View className={`series-grid__placeholder series-grid__placeholder--${image.status}`}>
      <Text>{text}</Text>
    </View>
  )
}

/** The series of an exam as thumbnails (fetched with the session's token), tap to view. */
export function SeriesGrid({ series, onOpen }: SeriesGridProps) {
  if (series.length === 0) {
    return <Text className="series-grid__empty">该检查暂无可查看的图像</Text>
  }
  return (
    <View className="series-grid">
      {series.map((item) => (
        <View key={item.id} className="series-grid__tile" onClick={() => onOpen(item)}>
          <View className="series-grid__frame">
            <Thumbnail series={item} />
            <Text className="series-grid__count">{item.instanceCount} 张</Text>
          </View>
          <Text className="series-grid__name">
            {[
              item.seriesNumber !== null ? `#${item.seriesNumber}` : null,
              item.modality ? modalityName(item.modality) : null,
            ]
              .filter(Boolean)
              .join(' ')}
          </Text>
          <Text className="series-grid__desc">{item.description || '未命名序列'}</Text>
        </View>
      ))}
    </View>
  )
}
