import { Text, View } from '@tarojs/components'
import { useDidHide, useDidShow } from '@tarojs/taro'
import { useEffect, useRef } from 'react'
import { useParams } from '@/hooks/use-params'
import { PageState } from '@/components/page-state'
import { brightenScreen } from '@/platform/screen-brightness'
import { BarCode } from './bar-code-view'
import { canEncode } from './code128'
import './bar-code.scss'

/**
 * /components/bar-code/bar-code?value=CT2030000001&title=检查号: the number as a Code 128 bar code
 * for a hospital's scanner, on a screen made bright while the page shows (restored when it hides).
 */
export default function BarCodeBarCodePage() {
  const params = useParams()
  const value = (params.value ?? '').trim()
  const title = (params.title ?? '').trim() || '条形码'
  const restore = useRef<(() => void) | null>(null)
  const showing = useRef(false)

  const brighten = () => {
    showing.current = true
    void brightenScreen().then((undo) => {
      // The page may have hidden while the platform answered.
      if (showing.current) {
        restore.current?.()
        restore.current = undo
      } else undo()
    })
  }
  const dim = () => {
    showing.current = false
    restore.current?.()
    restore.current = null
  }
  useDidShow(brighten)
  useDidHide(dim)
  // Leaving by back unmounts without a hide on some platforms.
  useEffect(() => dim, [])

  if (!canEncode(value)) {
    return <PageState status="error" message="缺少或无法识别的编号，请从检查详情中打开条形码" />
  }
  return (
    <View className="bar-code-page">
      <View className="bar-code-page__card">
        <Text className="bar-code-page__title">{title}</Text>
        <BarCode value={value} />
        <Text className="bar-code-page__hint">请将条形码对准扫码枪；扫不出时请调高屏幕亮度</Text>
      </View>
    </View>
  )
}
