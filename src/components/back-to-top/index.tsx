import { useState } from 'react'
import { View, Text } from '@tarojs/components'
import Taro, { usePageScroll } from '@tarojs/taro'
import './index.scss'

/** SPEC section 9: the button appears after 1000 px of scroll. */
export const BACK_TO_TOP_AFTER = 1000

export interface BackToTopProps {
  /** Scroll distance in CSS px after which the button shows. Default 1000. */
  after?: number
}

/** Floating 回到顶部 button (right 20, bottom 120, width 72 on the 750 design). */
export function BackToTop({ after = BACK_TO_TOP_AFTER }: BackToTopProps) {
  const [visible, setVisible] = useState(false)
  usePageScroll(({ scrollTop }) => setVisible(scrollTop > after))
  if (!visible) return null
  return (
    <View
      className="back-to-top"
      aria-label="回到顶部"
      onClick={() => Taro.pageScrollTo({ scrollTop: 0, duration: 300 })}
    >
      <Text className="back-to-top__arrow">↑</Text>
      <Text className="back-to-top__text">顶部</Text>
    </View>
  )
}
