import { Canvas, Text, View } from '@tarojs/components'
import { Button, Loading, Popup } from '@nutui/nutui-react-taro'
import { useEffect, useMemo } from 'react'
import { canvasSurface } from '@/platform/canvas'
import { brightenScreen } from '@/platform/screen-brightness'
import { formatCountdown, useExamQr } from '../hooks/use-exam-qr'
import { drawQr, qrMatrix } from '../qr-matrix'
import './qr-code-sheet.scss'

export interface QrCodeSheetProps {
  /** The exam whose code to show; the signed-in person must be able to see it. */
  examId: string
  /** Whether the sheet is open. A code is fetched only while open, and refreshed before it ends. */
  visible: boolean
  /** The sheet asks to close (mask tapped, 关闭 pressed). */
  onClose: () => void
  /** One line under the title saying which exam (胸部 CT 平扫 · 2030-05-20). Optional. */
  subtitle?: string
}

/** Side of the drawn code, CSS px. */
const QR_SIDE = 232
const CANVAS_ID = 'exam-qr-canvas'

/**
 * 二维码 of an exam, for a hospital terminal or a doctor to scan: a signed code that lasts 5
 * minutes, shown with the time left and replaced automatically before it ends. The screen is made
 * bright while the sheet is open (weapp) and restored when it closes.
 */
export function QrCodeSheet({ examId, visible, onClose, subtitle }: QrCodeSheetProps) {
  const { state, retry } = useExamQr(examId, visible)
  const content = state.status === 'ready' ? state.content : null
  const matrix = useMemo(() => (content ? qrMatrix(content) : null), [content])

  useEffect(() => {
    if (!matrix) return
    let cancelled = false
    void canvasSurface(CANVAS_ID, QR_SIDE, QR_SIDE).then((surface) => {
      if (surface && !cancelled) drawQr(surface.context, matrix, QR_SIDE)
    })
    return () => {
      cancelled = true
    }
  }, [matrix])

  useEffect(() => {
    if (!visible) return
    let undo: (() => void) | null = null
    let open = true
    void brightenScreen().then((restore) => {
      if (open) undo = restore
      else restore()
    })
    return () => {
      open = false
      undo?.()
    }
  }, [visible])

  return (
    <Popup visible={visible} position="bottom" round onClose={onClose}>
      <View className="qr-code-sheet">
        <Text className="qr-code-sheet__title">检查二维码</Text>
        {subtitle && <Text className="qr-code-sheet__subtitle">{subtitle}</Text>}
        <View className="qr-code-sheet__frame">
          {state.status === 'ready' && (
            <Canvas
              type="2d"
              id={CANVAS_ID}
              className="qr-code-sheet__canvas"
              style={{ width: `${QR_SIDE}px`, height: `${QR_SIDE}px` }}
              aria-label="检查二维码"
            />
          )}
          {(state.status === 'loading' || state.status === 'idle') && (
            <Loading type="circular">二维码生成中...</Loading>
          )}
          {state.status === 'error' && (
            <View className="qr-code-sheet__error" role="alert">
              <Text className="qr-code-sheet__error-text">{state.message}</Text>
              <Button type="primary" size="small" onClick={retry}>
                重试
              </Button>
            </View>
          )}
        </View>
        <View className="qr-code-sheet__timer" role="timer">
          {state.status === 'ready'
            ? `${formatCountdown(state.secondsLeft)} 后失效，到期自动刷新`
            : '二维码 5 分钟内有效'}
        </View>
        <Text className="qr-code-sheet__help">
          请出示给医院终端或医生扫码查看本次检查；截图转发后 5 分钟即失效
        </Text>
        <Button className="qr-code-sheet__close" block onClick={onClose}>
          关闭
        </Button>
      </View>
    </Popup>
  )
}
