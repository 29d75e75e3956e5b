import { Text, View } from '@tarojs/components'
import { Button, Swiper } from '@nutui/nutui-react-taro'
import { useMemo } from 'react'
import { LEAD_SLIDES, finishLead, statusBarHeight } from '../lead'
import './lead-view.scss'

/** 欢迎: three slides, 跳过 at any time, 立即体验 on the last one. No navigation bar. */
export function LeadView() {
  const top = useMemo(() => statusBarHeight(), [])
  const last = LEAD_SLIDES.length - 1
  return (
    <View className="lead">
      <View className="lead__skip" style={{ top: `${top + 12}px` }} onClick={finishLead}>
        跳过
      </View>
      <Swiper className="lead__swiper" height="100%" indicator loop={false} defaultValue={0}>
        {LEAD_SLIDES.map((slide, index) => (
          <Swiper.Item key={slide.key}>
            <View className="lead__slide">
              <View className="lead__mark">{slide.mark}</View>
              <Text className="lead__title">{slide.title}</Text>
              <Text className="lead__text">{slide.text}</Text>
              {index === last && (
                <Button className="lead__start" type="primary" onClick={finishLead}>
                  立即体验
                </Button>
              )}
            </View>
          </Swiper.Item>
        ))}
      </Swiper>
    </View>
  )
}
