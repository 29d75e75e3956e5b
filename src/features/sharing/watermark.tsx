import { Text, View } from '@tarojs/components'
import dayjs from 'dayjs'
import { useEffect, useState } from 'react'
import './watermark.scss'

export interface WatermarkProps {
  /** The holder's masked name, or 分享访客 (ReceivedGrant.watermark). */
  text: string
  /** 'page': fixed over the whole screen; 'box': over its positioned parent (the viewer's image). */
  cover?: 'page' | 'box'
  /** Light text on dark images (the viewer), dark on the white report. Default dark. */
  tone?: 'dark' | 'light'
}

const TILES = 24
const MINUTE_MS = 60_000

export function watermarkLine(text: string, at: Date): string {
  return `${text} ${dayjs(at).format('YYYY-MM-DD HH:mm')}`
}

/**
 * Who is looking and when, repeated diagonally over shared images and reports (issue 9): a
 * screenshot carries it. It takes no touches (pointer-events: none), so scrolling, windowing and
 * taps go to what is underneath.
 */
export function Watermark({ text, cover = 'page', tone = 'dark' }: WatermarkProps) {
  const [now, setNow] = useState(() => new Date())
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), MINUTE_MS)
    return () => clearInterval(timer)
  }, [])
  const line = watermarkLine(text, now)
  return (
    <View
      className={`watermark watermark--${cover} watermark--${tone}`}
      aria-hidden
      data-testid="watermark"
    >
      {Array.from({ length: TILES }, (_, index) => (
        <Text key={index} className="watermark__tile">
          {line}
        </Text>
      ))}
    </View>
  )
}
