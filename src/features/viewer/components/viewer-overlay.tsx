import { Text, View } from '@tarojs/components'
import type { ExamDetail, SeriesSummary } from '@/services/records'
import type { ImageInfo, WindowLevel } from '../core'
import { isGrey, type Probe } from '../view-state'
import { scaleBar, type Size, type Viewport } from '../viewport'
import type { ScreenShape } from './painter'

export function windowText(window: WindowLevel): string {
  return `窗宽 ${Math.round(window.width)} 窗位 ${Math.round(window.center)}`
}

function dicomDate(date: string | null): string | null {
  if (!date) return null
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(date)
  return m ? `${m[1]}-${m[2]}-${m[3]}` : date
}

function personName(name: string | null): string | null {
  return name ? name.replace(/\^+/g, ' ').trim() || null : null
}

export interface OverlayFacts {
  info: ImageInfo
  exam: Pick<ExamDetail, 'patientNameMasked' | 'studyDate'>
  series: Pick<SeriesSummary, 'description'>
  index: number
  total: number
  window: WindowLevel | null
  viewport: Viewport | null
}

/**
 * The corner texts: top left who and what (the file's own name, date and series, else the exam's),
 * bottom left where (图像 n/N, 层位) and how (窗宽/窗位 for grey images, 缩放).
 */
export function overlayLines(facts: OverlayFacts): { topLeft: string[]; bottomLeft: string[] } {
  const { info, exam, series, index, total, window, viewport } = facts
  const present = (line: string | null): line is string => Boolean(line)
  return {
    topLeft: [
      personName(info.patientName) ?? exam.patientNameMasked,
      dicomDate(info.studyDate) ?? exam.studyDate,
      [
        info.seriesNumber !== null ? `序列 ${info.seriesNumber}` : null,
        info.seriesDescription ?? series.description,
      ]
        .filter(Boolean)
        .join(' '),
    ].filter(present),
    bottomLeft: [
      `图像 ${index + 1}/${total}`,
      info.sliceLocation !== null ? `层位 ${info.sliceLocation.toFixed(1)} mm` : null,
      window && isGrey(info) ? windowText(window) : null,
      viewport ? `缩放 ${Math.round(viewport.scale * 100)}%` : null,
    ].filter(present),
  }
}

export interface ViewerOverlayProps extends OverlayFacts {
  view: Size | null
  /** 隐藏信息 hides the corner texts and the scale bar (not the measurements). */
  showInfo: boolean
  shapes: ScreenShape[]
  probe: Probe | null
}

/** What the stage shows above the image besides the drawn lines: texts, scale bar, labels, probe. */
export function ViewerOverlay(props: ViewerOverlayProps) {
  const { info, viewport, view, showInfo, shapes, probe } = props
  const spacing = info.pixelSpacing
  const bar =
    viewport && view ? scaleBar(spacing?.column ?? null, viewport.scale, view.width / 4) : null
  const lines = overlayLines(props)
  return (
    <>
      {showInfo && (
        <>
          <View className="image-viewer__info image-viewer__info--top">
            {lines.topLeft.map((line) => (
              <Text key={line} className="image-viewer__line">
                {line}
              </Text>
            ))}
          </View>
          <View
            className="image-viewer__info image-viewer__info--bottom"
            data-testid="viewer-overlay"
          >
            {lines.bottomLeft.map((line) => (
              <Text key={line} className="image-viewer__line">
                {line}
              </Text>
            ))}
          </View>
          {bar && (
            <View className="image-viewer__scale" style={{ width: `${bar.px}px` }}>
              <Text className="image-viewer__scale-text">
                {spacing?.source === 'imager' ? '约 ' : ''}
                {bar.mm} mm
              </Text>
            </View>
          )}
        </>
      )}
      {shapes.some((shape) => shape.label) && (
        <View
          className={`image-viewer__measures${showInfo ? ' image-viewer__measures--below-info' : ''}`}
        >
          {shapes.map((shape, i) =>
            shape.label ? (
              <View key={i} className="image-viewer__measure" data-testid="viewer-measure">
                {shape.label.split('\n').map((line) => (
                  <Text key={line} className="image-viewer__measure-line">
                    {line}
                  </Text>
                ))}
              </View>
            ) : null,
          )}
        </View>
      )}
      {probe && (
        <View
          className="image-viewer__probe"
          style={{ left: `${probe.x}px`, top: `${Math.max(0, probe.y - 48)}px` }}
        >
          <Text>{probe.text}</Text>
        </View>
      )}
    </>
  )
}
