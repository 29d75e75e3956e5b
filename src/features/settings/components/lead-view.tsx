import { Text, View, type ITouchEvent } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { useMemo, useRef, useState } from 'react'
import { COMING_SOON } from '@/components/under-construction'
import { statusBarHeight } from '@/platform/device'
import { isComingSoon } from '@/routes'
import { LEAD_SLIDES, finishLead } from '../lead'
import './lead-view.scss'

/** A horizontal swipe shorter than this (px) is a tap, not a page turn. */
const SWIPE_MIN = 50

/**
 * 欢迎: three slides, 跳过 at any time, 立即体验 on the last one. No navigation bar. The slides are a
 * CSS track moved by a swipe: a Swiper component would add the swiper library (~40 KB gzip) to the
 * chunk every page shares, for one page seen once.
 */
export function LeadView() {
  const top = useMemo(() => statusBarHeight(), [])
  const last = LEAD_SLIDES.length - 1
  const [index, setIndex] = useState(0)
  const startX = useRef<number | null>(null)
  const go = (next: number) => setIndex(Math.max(0, Math.min(last, next)))

  return (
    <View
      className="lead"
      // Taro types View's touch handlers loosely; the events are touch events.
      onTouchStart={(event) => {
        startX.current = (event as ITouchEvent).touches[0]?.clientX ?? null
      }}
      onTouchEnd={(event) => {
        const endX = (event as ITouchEvent).changedTouches[0]?.clientX
        if (startX.current === null || endX === undefined) return
        const dx = endX - startX.current
        startX.current = null
        if (dx <= -SWIPE_MIN) go(index + 1)
        else if (dx >= SWIPE_MIN) go(index - 1)
      }}
    >
      <View className="lead__skip" style={{ top: `${top + 12}px` }} onClick={finishLead}>
        跳过
      </View>
      <View className="lead__track" style={{ transform: `translateX(-${index * 100}%)` }}>
        {LEAD_SLIDES.map((slide, slideIndex) => (
          <View key={slide.key} className="lead__slide" aria-hidden={slideIndex !== index}>
            <View className="lead__mark">{slide.mark}</View>
            <Text className="lead__title">{slide.title}</Text>
            {isComingSoon(slide.route) && <Text className="lead__soon">{COMING_SOON}</Text>}
            <Text className="lead__text">{slide.text}</Text>
            {slideIndex === last ? (
              <Button className="lead__start" type="primary" onClick={finishLead}>
                立即体验
              </Button>
            ) : (
              <Button className="lead__start" fill="outline" onClick={() => go(slideIndex + 1)}>
                下一步
              </Button>
            )}
          </View>
        ))}
      </View>
      <View className="lead__dots">
        {LEAD_SLIDES.map((slide, slideIndex) => (
          <View
            key={slide.key}
            className={`lead__dot${slideIndex === index ? ' lead__dot--active' : ''}`}
            onClick={() => go(slideIndex)}
          />
        ))}
      </View>
    </View>
  )
}
