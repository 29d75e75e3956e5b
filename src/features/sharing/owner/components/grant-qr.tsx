import { Canvas, Image, Text, View } from '@tarojs/components'
import { useEffect, useMemo, useState } from 'react'
import { canvasSurface } from '@/platform/canvas'
import { drawQr, qrMatrix } from '@/components/qr-code/qr-matrix'
import { canvasImageUrl } from '@/platform/canvas-image'

const QR_SIDE = 200
const CANVAS_ID = 'grant-link-qr'

/**
 * The link as a QR code, drawn with the same encoder as the exam code. On H5 the drawing is also
 * turned into an image laid over the canvas, so a long press saves it (phones' browsers and WeChat
 * offer 保存图片 on images, never on a canvas).
 */
export function GrantQr({ url }: { url: string }) {
  const matrix = useMemo(() => qrMatrix(url), [url])
  const [image, setImage] = useState<string | null>(null)

  useEffect(() => {
    let cancelled = false
    void canvasSurface(CANVAS_ID, QR_SIDE, QR_SIDE).then((surface) => {
      if (!surface || cancelled) return
      drawQr(surface.context, matrix, QR_SIDE)
      const saved = canvasImageUrl(CANVAS_ID)
      if (saved && !cancelled) setImage(saved)
    })
    return () => {
      cancelled = true
    }
  }, [matrix])

  return (
    <View className="grant-qr">
      <View className="grant-qr__frame" style={{ width: `${QR_SIDE}px`, height: `${QR_SIDE}px` }}>
        <Canvas
          type="2d"
          id={CANVAS_ID}
          className="grant-qr__canvas"
          style={{ width: `${QR_SIDE}px`, height: `${QR_SIDE}px` }}
          aria-label="分享链接二维码"
        />
        {image && (
          <Image
            className="grant-qr__image"
            src={image}
            style={{ width: `${QR_SIDE}px`, height: `${QR_SIDE}px` }}
            showMenuByLongpress
            aria-label="分享链接二维码图片"
          />
        )}
      </View>
      <Text className="grant-qr__hint">
        {image ? '长按二维码保存图片，对方用微信或手机相机扫码打开' : '对方用微信扫码打开'}
      </Text>
    </View>
  )
}
