import { Text, View } from '@tarojs/components'
import Taro from '@tarojs/taro'
import { useMemo } from 'react'
import './title-bar.scss'

/** Height of the phone's status bar in px (0 in a browser, whose own bar is outside the page). */
export function statusBarHeight(): number {
  try {
    const info = typeof Taro.getWindowInfo === 'function' ? Taro.getWindowInfo() : null
    return info?.statusBarHeight ?? 0
  } catch {
    return 0
  }
}

/**
 * Where WeChat's capsule (··· and close) sits, so the title lines up with it and nothing is drawn
 * under it. Null where there is no capsule (H5).
 */
function capsule(): { top: number; height: number } | null {
  try {
    if (typeof Taro.getMenuButtonBoundingClientRect !== 'function') return null
    const rect = Taro.getMenuButtonBoundingClientRect()
    return rect && rect.height > 0 ? { top: rect.top, height: rect.height } : null
  } catch {
    return null
  }
}

const DEFAULT_BAR_HEIGHT = 44

/** The page's own navigation bar for `navigationStyle: custom` pages: status bar, then a title. */
export function TitleBar({ title }: { title: string }) {
  const layout = useMemo(() => {
    const status = statusBarHeight()
    const button = capsule()
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
