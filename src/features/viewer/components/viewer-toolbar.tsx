import { Slider, Text, View } from '@tarojs/components'
import type { PropsWithChildren } from 'react'
import type { SeriesSummary } from '@/services/records'
import { THEME } from '@/theme'
import { presetsFor, type ImageInfo, type Preset } from '../core'
import { isGrey, type ViewAction, type ViewState } from '../view-state'
import { SeriesStrip } from './series-strip'

interface ToolButtonProps {
  label: string
  onClick: () => void
  active?: boolean
  testId?: string
}

function ToolButton({ label, onClick, active = false, testId }: ToolButtonProps) {
  return (
    <View
      className={`image-viewer__tool${active ? ' image-viewer__tool--active' : ''}`}
      onClick={onClick}
      data-testid={testId}
    >
      <Text>{label}</Text>
    </View>
  )
}

/** A group of tools; one that does not fit the width wraps onto a line of its own, never off-screen. */
function ToolRow({ children }: PropsWithChildren) {
  return <View className="image-viewer__row">{children}</View>
}

/** ‹ slider › under the image: the slice n of a stack (shown only for more than one). */
export function SliceSlider(props: {
  index: number
  total: number
  onGoTo: (index: number) => void
}) {
  const { index, total, onGoTo } = props
  return (
    <View className="image-viewer__slider">
      <ToolButton label="‹" onClick={() => onGoTo(index - 1)} testId="viewer-prev" />
      <Slider
        className="image-viewer__range"
        min={1}
        max={total}
        step={1}
        value={index + 1}
        activeColor={THEME.primary}
        blockSize={24}
        onChanging={(e) => onGoTo(Number(e.detail.value) - 1)}
        onChange={(e) => onGoTo(Number(e.detail.value) - 1)}
      />
      <ToolButton label="›" onClick={() => onGoTo(index + 1)} testId="viewer-next" />
    </View>
  )
}

export interface ViewerToolbarProps {
  state: Pick<ViewState, 'invert' | 'tool' | 'measurements' | 'showInfo'>
  info: ImageInfo
  /** Slices in the stack: a single image has no cine. */
  total: number
  playback: { playing: boolean; fps: number; toggle: () => void; nextRate: () => void }
  /** 书签 is offered (not through a grant). */
  bookmarks: boolean
  series: SeriesSummary[]
  currentSeriesUid: string
  onSwitchSeries: (seriesUid: string) => void
  onAction: (action: ViewAction) => void
  onPreset: (preset: Preset) => void
  onReset: () => void
  onFullscreen: () => void
  onBookmarks: () => void
}

const TOOL_HINTS: Record<Exclude<ViewState['tool'], 'none'>, string> = {
  distance: '在图像上拖动画线测量距离',
  angle: '依次点击三点（顶点在中间）测量角度',
  ellipse: '在图像上拖动画出椭圆，显示区域内的均值、标准差、最小最大值和面积',
}

/** The tools under the image (outside full screen): presets, view tools, cine, measuring (测距 测角 椭圆), series. */
export function ViewerToolbar(props: ViewerToolbarProps) {
  const { state, info, total, playback, onAction } = props
  const presets = presetsFor(info)
  const { tool } = state
  return (
    <View className="image-viewer__tools">
      {presets.length > 0 && (
        <ToolRow>
          {presets.map((preset) => (
            <ToolButton
              key={preset.label}
              label={preset.label}
              onClick={() => props.onPreset(preset)}
            />
          ))}
        </ToolRow>
      )}
      <ToolRow>
        {isGrey(info) && (
          <ToolButton
            label="反色"
            onClick={() => onAction({ type: 'invert' })}
            active={state.invert}
          />
        )}
        <ToolButton label="旋转" onClick={() => onAction({ type: 'rotate' })} />
        <ToolButton label="翻转" onClick={() => onAction({ type: 'flip' })} />
        <ToolButton label="复位" onClick={props.onReset} />
        {total > 1 && (
          <ToolButton
            label={playback.playing ? '暂停' : '播放'}
            onClick={playback.toggle}
            active={playback.playing}
          />
        )}
        {total > 1 && <ToolButton label={`${playback.fps}帧/秒`} onClick={playback.nextRate} />}
      </ToolRow>
      <ToolRow>
        <ToolButton
          label="测距"
          onClick={() => onAction({ type: 'tool', tool: 'distance' })}
          active={tool === 'distance'}
        />
        <ToolButton
          label="测角"
          onClick={() => onAction({ type: 'tool', tool: 'angle' })}
          active={tool === 'angle'}
        />
        <ToolButton
          label="椭圆"
          onClick={() => onAction({ type: 'tool', tool: 'ellipse' })}
          active={tool === 'ellipse'}
          testId="viewer-tool-ellipse"
        />
        {state.measurements.length > 0 && (
          <ToolButton label="清除测量" onClick={() => onAction({ type: 'clearMeasurements' })} />
        )}
        <ToolButton
          label={state.showInfo ? '隐藏信息' : '显示信息'}
          onClick={() => onAction({ type: 'toggleInfo' })}
        />
        {props.bookmarks && <ToolButton label="书签" onClick={props.onBookmarks} />}
        <ToolButton label="横屏全屏" onClick={props.onFullscreen} />
      </ToolRow>
      {tool !== 'none' && (
        <Text className="image-viewer__hint">
          {TOOL_HINTS[tool]}
          {info.pixelSpacing === null && tool !== 'angle'
            ? '（该图像没有像素间距，无法换算为毫米）'
            : ''}
        </Text>
      )}
      <SeriesStrip
        series={props.series}
        current={props.currentSeriesUid}
        onPick={props.onSwitchSeries}
      />
    </View>
  )
}
