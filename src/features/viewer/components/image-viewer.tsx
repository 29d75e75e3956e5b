import { Canvas, Image, Text, View } from '@tarojs/components'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import type { ExamDetail, SeriesSummary } from '@/services/records'
import { defaultWindow, type FrameCache, presetWindow, type PixelData, type Preset } from '../core'
import type { Slice } from '../hooks/frame-loader'
import type { GestureAction } from '../hooks/gestures'
import { useFramePainter } from '../hooks/use-frame-painter'
import { useFrames } from '../hooks/use-frames'
import { useFullscreen } from '../hooks/use-fullscreen'
import { usePlayback } from '../hooks/use-playback'
import { useStageInput } from '../hooks/use-stage-input'
import { useViewState } from '../hooks/use-view-state'
import { recordFirstPixels } from '../hooks/timing'
import { gestureActions, wheelActions } from '../input'
import { measurementShapes } from '../measurements'
import { measurementOf, type MeasureParam } from '../pin'
import { isGrey, shownSlice, type Measurement, type ViewAction } from '../view-state'
import { BookmarkPanel } from './bookmark-panel'
import { imageStyle } from './painter'
import { CANVAS_ID, OVERLAY_ID, STAGE_ID } from './stage'
import { ViewerOverlay } from './viewer-overlay'
import { SliceSlider, ViewerToolbar } from './viewer-toolbar'
import './image-viewer.scss'

export { createFrameCache } from '../hooks/use-frames'

export interface ImageViewerProps {
  exam: ExamDetail
  series: SeriesSummary
  studyUid: string
  slices: Slice[]
  startIndex: number
  /** The server-rendered preview shown until the first raw frame is painted. */
  previewSrc: string | null
  /** Where `viewer-first-pixels` starts on the page's timeline. */
  firstPixelsFrom: number
  /** Another series of the exam (a bookmark may name its slice). */
  onSwitchSeries: (seriesUid: string, sop?: string, frame?: number) => void
  /** From createFrameCache(), kept by the page. */
  cache: FrameCache<PixelData>
  /** false through a grant (issue 9): bookmarks are the owner's, and a link visitor has no login. */
  bookmarks?: boolean
  /** Show mode (issue 23): a pinned measurement, drawn on the start slice. */
  shown?: MeasureParam | null
  /** Pin mode (issue 23): 附到意见 is offered and hands over what is shown. */
  onAttach?: (shown: ShownView) => void
}

/** What 附到意见 pins: the shown slice, its pixels and the measurements (pin.ts buildPin). */
export interface ShownView {
  slice: Slice
  index: number
  pixels: PixelData | null
  measurements: Measurement[]
}

/**
 * The viewer's stage, tools and overlay for one series: it only composes the parts. The view
 * state (view-state.ts) is changed by actions from the input (input.ts, use-stage-input), the
 * tools and the cine (use-playback); use-frames loads the pixels, use-frame-painter draws them.
 */
export function ImageViewer(props: ImageViewerProps) {
  const { exam, series, studyUid, slices, startIndex, previewSrc, cache, bookmarks = true } = props
  const { onSwitchSeries, firstPixelsFrom, shown, onAttach } = props
  // Memoised: the series action keeps it only when it is the same list (view-state.ts).
  const startMeasurements = useMemo(
    () => (shown ? [measurementOf(shown, slices[startIndex]!)] : []),
    [shown, slices, startIndex],
  )
  const { state, latest, dispatch } = useViewState(slices, startIndex, startMeasurements)
  const { index, window, invert, viewport, view } = state
  const slice = slices[Math.min(index, slices.length - 1)]!
  const info = slice.info
  const image = useMemo(
    () => ({ width: info.columns, height: info.rows }),
    [info.columns, info.rows],
  )
  const [bookmarksOpen, setBookmarksOpen] = useState(false)
  // Once per opening (timing.ts): the page's handed-over thumbnail may have been first.
  const markFirstPixels = useCallback(() => recordFirstPixels(firstPixelsFrom), [firstPixelsFrom])

  const frames = useFrames({
    studyUid,
    slices,
    startIndex,
    cache,
    index,
    onSeries: () =>
      dispatch([{ type: 'series', slices, startIndex, measurements: startMeasurements }]),
  })
  const { pixels, loader } = frames
  const fullscreen = useFullscreen(() => latest.current.view)
  const { measurements, draft } = state
  const shapes = useMemo(
    () => measurementShapes({ measurements, draft, viewport, view }, slice, pixels),
    [measurements, draft, viewport, view, slice, pixels],
  )
  const painter = useFramePainter({
    image,
    info,
    pixels,
    window,
    invert,
    viewport,
    shapes,
    full: fullscreen.full,
    turned: fullscreen.turned,
    onStage: (stage) => dispatch([{ type: 'stage', view: stage }]),
    onPainted: markFirstPixels,
  })

  // The pixels an input event reads: the rendered slice's, or the cache's for a slice stepped to
  // since (null while it loads: it must not be drawn, probed or measured under another's name).
  const rendered = useRef({ index, pixels })
  rendered.current = { index, pixels }
  const pixelsNow = useCallback((): PixelData | null => {
    const at = latest.current.index
    return at === rendered.current.index
      ? rendered.current.pixels
      : (loader.current?.peek(at) ?? null)
  }, [latest, loader])

  /**
   * Changes the view; a new slice from the cache, window or inversion is drawn right here, in the
   * input event, and React then only updates the overlay text (a render of this component costs
   * more than the drawing). A frame not here yet is loaded and drawn by the effects.
   */
  const { drawNow } = painter
  const apply = useCallback(
    (actions: ViewAction[]) =>
      dispatch(actions, (before, after) => {
        const redraw =
          after.index !== before.index ||
          after.window !== before.window ||
          after.invert !== before.invert
        const frame = redraw ? pixelsNow() : null
        if (frame) drawNow(frame, shownSlice(after).info, after.window, after.invert)
      }),
    [dispatch, pixelsNow, drawNow],
  )
  const goTo = (to: number) => apply([{ type: 'goTo', index: to }])

  const playback = usePlayback({
    stack: slices,
    count: slices.length,
    current: () => latest.current.index,
    isHere: (at) => Boolean(loader.current?.peek(at)),
    load: (at) => void loader.current?.load(at).catch(() => undefined),
    show: (at) => dispatch([{ type: 'goTo', index: at }]),
  })

  const touch = useStageInput({
    viewWidth: () => latest.current.view?.width ?? 0,
    stageBox: painter.stageBox,
    turned: fullscreen.turned,
    canProbe: () => latest.current.tool === 'none',
    onGestures: (actions: GestureAction[]) => {
      for (const action of actions) apply(gestureActions(action, latest.current, pixelsNow()))
    },
    onWheel: (wheel) => apply(wheelActions(wheel, latest.current)),
  })

  // The frame's own window the first time a series shows a frame (then the person's choice stays).
  useEffect(() => {
    if (pixels && window === null && isGrey(info))
      apply([{ type: 'window', window: defaultWindow(info, pixels) }])
  }, [pixels, window, info, apply])

  const applyPreset = (preset: Preset) => {
    if (pixels) apply([{ type: 'window', window: presetWindow(preset, info, pixels) }])
  }
  const reset = () =>
    apply([{ type: 'reset', window: pixels && isGrey(info) ? defaultWindow(info, pixels) : null }])

  const { full, turned } = fullscreen
  const total = slices.length
  return (
    <View
      className={`image-viewer${full ? ' image-viewer--full' : ''}${turned ? ' image-viewer--turned' : ''}`}
      style={fullscreen.style}
    >
      <View id={STAGE_ID} className="image-viewer__stage" catchMove {...touch}>
        {previewSrc && !painter.painted && (
          <Image
            className="image-viewer__preview"
            src={previewSrc}
            mode="aspectFit"
            onLoad={markFirstPixels}
          />
        )}
        <Canvas
          type="2d"
          id={CANVAS_ID}
          className="image-viewer__image"
          style={imageStyle(viewport, view, image)}
        />
        <Canvas type="2d" id={OVERLAY_ID} className="image-viewer__canvas" />
        <ViewerOverlay
          info={info}
          exam={exam}
          series={series}
          index={index}
          total={total}
          window={window}
          viewport={viewport}
          view={view}
          showInfo={state.showInfo}
          shapes={shapes}
          probe={state.probe}
        />
        {frames.error && !pixels && (
          <View className="image-viewer__message">
            <Text>{frames.error}</Text>
          </View>
        )}
        {total > 1 && <View className="image-viewer__strip-hint" />}
      </View>

      {total > 1 && <SliceSlider index={index} total={total} onGoTo={goTo} />}

      {!full && onAttach && (
        <View
          className="image-viewer__attach"
          data-testid="viewer-attach"
          onClick={() => {
            const now = latest.current
            onAttach({
              slice: shownSlice(now),
              index: now.index,
              pixels: pixelsNow(),
              measurements: now.measurements,
            })
          }}
        >
          <Text>附到意见</Text>
        </View>
      )}
      {!full && (
        <ViewerToolbar
          state={state}
          info={info}
          total={total}
          playback={playback}
          bookmarks={bookmarks}
          series={exam.series}
          currentSeriesUid={series.seriesUid}
          onSwitchSeries={onSwitchSeries}
          onAction={(action) => apply([action])}
          onPreset={applyPreset}
          onReset={reset}
          onFullscreen={fullscreen.toggle}
          onBookmarks={() => setBookmarksOpen(true)}
        />
      )}
      {full && (
        <View className="image-viewer__exit" onClick={fullscreen.toggle}>
          <Text>退出全屏</Text>
        </View>
      )}

      {bookmarksOpen && (
        <BookmarkPanel
          examId={exam.id}
          seriesUid={series.seriesUid}
          sopInstanceUid={info.sopInstanceUid}
          frame={slice.frame}
          onClose={() => setBookmarksOpen(false)}
          onOpen={(mark) => {
            setBookmarksOpen(false)
            if (mark.seriesUid !== series.seriesUid) {
              onSwitchSeries(mark.seriesUid, mark.sopInstanceUid, mark.frame)
              return
            }
            const at = slices.findIndex(
              (s) => s.info.sopInstanceUid === mark.sopInstanceUid && s.frame === mark.frame,
            )
            if (at >= 0) goTo(at)
          }}
        />
      )}
    </View>
  )
}
