import { Text, View } from '@tarojs/components'
import { useMemo } from 'react'
import { menuButtonRect, statusBarHeight } from '@/platform/device'
import './title-bar.scss'

const DEFAULT_BAR_HEIGHT = 44

/** The page's own navigation bar for `navigationStyle: custom` pages: status bar, then a title. */
export function TitleBar({ title }: { title: string }) {
  const layout = useMemo(() => {
    const status = statusBarHeight()
    const button = menuButtonRect()
    // WeChat centres its capsule in the bar: the bar is as tall as the gap above it, twice, plus it.
    const bar = button ? (button.top - status) * 2 + button.height : DEFAULT_BAR_HEIGHT
    return { status, bar: bar > 0 ? bar : DEFAULT_BAR_HEIGHT }
  }, [])
  return (
    <View className="title-bar" style={{ paddingTop: `${layout.status}px` }}>
      <View className="title-bar__bar" style={{ height: `${layout.bar}px` }}>
        <Text className="title-bar__title">{title}</Text>
      </View>
    </View>
  )
}
