import { Image, ScrollView, Text, View } from '@tarojs/components'
import { memo } from 'react'
import type { SeriesSummary } from '@/services/records'
import { useAuthorisedImageSrc } from '../hooks/use-viewer-data'

function Tile({
  item,
  current,
  onPick,
}: {
  item: SeriesSummary
  current: boolean
  onPick: () => void
}) {
  const src = useAuthorisedImageSrc(item.thumbnailPath)
  return (
    <View
      className={`series-strip__tile${current ? ' series-strip__tile--current' : ''}`}
      onClick={onPick}
    >
      {src ? (
        <Image className="series-strip__thumb" src={src} mode="aspectFill" />
      ) : (
        <View className="series-strip__thumb series-strip__thumb--empty">
          <Text>{item.modality ?? '影像'}</Text>
        </View>
      )}
      <Text className="series-strip__label">
        {item.seriesNumber !== null ? `序列 ${item.seriesNumber}` : '序列'} · {item.instanceCount}张
      </Text>
    </View>
  )
}

/**
 * The exam's series as thumbnails; tapping one switches the viewer to it. Memoised: a slice step
 * or a W/L drag re-renders the viewer, and the strip's thumbnails need not follow.
 */
export const SeriesStrip = memo(function SeriesStrip({
  series,
  current,
  onPick,
}: {
  series: SeriesSummary[]
  current: string
  onPick: (seriesUid: string) => void
}) {
  if (series.length < 2) return null
  return (
    <ScrollView className="series-strip" scrollX enhanced showScrollbar={false}>
      <View className="series-strip__inner">
        {series.map((item) => (
          <Tile
            key={item.id}
            item={item}
            current={item.seriesUid === current}
            onPick={() => item.seriesUid !== current && onPick(item.seriesUid)}
          />
        ))}
      </View>
    </ScrollView>
  )
})
