import { Canvas, Text, View } from '@tarojs/components'
import { useEffect, useMemo } from 'react'
import { canvasSurface } from '@/platform/canvas'
import { barsOf, code128Modules } from './code128'
import './bar-code-view.scss'

export interface BarCodeProps {
  /** What the bars encode (an exam number, a hospital card number): printable ASCII. */
  value: string
  /** Canvas id, unique on the page. Default `bar-code-canvas`. */
  canvasId?: string
  /** Widest the bars may be, CSS px (quiet zones included). Default 320. */
  maxWidth?: number
  /** Height of the bars, CSS px. Default 96. */
  height?: number
  /** The value in digits under the bars. Default true. */
  showText?: boolean
}

export const BAR_CODE_INVALID = '该编号无法生成条形码'

/**
 * A Code 128 bar code drawn as whole-pixel modules on a canvas (weapp and H5 alike), with the number
 * written under it so a person can type it when no scanner is at hand.
 */
export function BarCode({
  value,
  canvasId = 'bar-code-canvas',
  maxWidth = 320,
  height = 96,
  showText = true,
}: BarCodeProps) {
  const modules = useMemo(() => code128Modules(value), [value])
  // Whole CSS pixels per module: a scanner reads sharp edges, not anti-aliased ones.
  const moduleWidth = modules ? Math.max(1, Math.floor(maxWidth / modules.length)) : 1
  const width = modules ? modules.length * moduleWidth : 0

  useEffect(() => {
    if (!modules) return
    let cancelled = false
    void canvasSurface(canvasId, width, height).then((surface) => {
      if (!surface || cancelled) return
      const { context } = surface
      context.fillStyle = '#ffffff'
      context.fillRect(0, 0, width, height)
      context.fillStyle = '#000000'
      for (const [start, run] of barsOf(modules)) {
        context.fillRect(start * moduleWidth, 0, run * moduleWidth, height)
      }
    })
    return () => {
      cancelled = true
    }
  }, [canvasId, height, moduleWidth, modules, width])

  if (!modules) {
    return (
      <View className="bar-code bar-code--invalid" role="alert">
        {BAR_CODE_INVALID}
      </View>
    )
  }
  return (
    <View className="bar-code">
      <Canvas
        type="2d"
        id={canvasId}
        className="bar-code__canvas"
        style={{ width: `${width}px`, height: `${height}px` }}
        aria-label={`条形码 ${value}`}
      />
      {showText && <Text className="bar-code__text">{value}</Text>}
    </View>
  )
}
