import { Canvas, Image, Slider, Text, View } from '@tarojs/components'
import type { PropsWithChildren } from 'react'
import Taro from '@tarojs/taro'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import type { ExamDetail, SeriesSummary } from '@/services/records'
import { fetchFrame } from '@/services/viewer'
import { isBrowser } from '@/platform/runtime'
import { showToast } from '@/platform/ui'
import { THEME } from '@/theme'
import {
  defaultWindow,
  FRAME_CACHE_BYTES,
  FrameCache,
  measureAngle,
  measureDistance,
  presetsFor,
  presetWindow,
  RendererPool,
  valueAt,
  type ImageInfo,
  type PixelData,
  type Point,
  type Preset,
  type Renderer,
  type WindowLevel,
} from '../core'
import { createFrameLoader, sliceKey, type FrameLoader, type Slice } from '../hooks/frame-loader'
import {
  createGestureRecognizer,
  LONG_PRESS_MS,
  type GestureAction,
  type TouchPoint,
} from '../hooks/gestures'
import { recordFirstPixels, recordRender, timelineNow } from '../hooks/timing'
import {
  clientToStage,
  fit,
  flipHorizontal,
  imageToScreen,
  initialViewport,
  pan,
  pixelAt,
  rotateClockwise,
  scaleBar,
  screenToImage,
  zoomAt,
  type Size,
  type StageBox,
  type Viewport,
} from '../viewport'
import { BookmarkPanel } from './bookmark-panel'
import { enterFullscreen, exitFullscreen } from './fullscreen'
import { createPainter, imageStyle, type Painter, type ScreenShape } from './painter'
import { SeriesStrip } from './series-strip'
import './image-viewer.scss'

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
}

type Tool = 'none' | 'distance' | 'angle'

interface Measurement {
  sliceKey: string
  kind: 'distance' | 'angle'
  points: Point[]
}

const STAGE_ID = 'image-viewer-stage'
/** The image at its own size (CSS-transformed); the measurements on the overlay above it. */
const CANVAS_ID = 'image-viewer-canvas'
const OVERLAY_ID = 'image-viewer-overlay'
/** On the body while the viewer is full screen in a browser (image-viewer.scss). */
const FULL_PAGE_CLASS = 'image-viewer-full-page'
const FRAME_RATES = [5, 10, 15, 25]
/** Window change per screen pixel dragged, as a share of the current width: same feel at any depth. */
const WL_SENSITIVITY = 1 / 300

/**
 * The page's frame cache: one for every series the page shows, so the memory bound holds overall,
 * and dropped with the page (a module-level cache would keep its 96 MB after the viewer closed).
 */
export function createFrameCache(): FrameCache<PixelData> {
  return new FrameCache<PixelData>(FRAME_CACHE_BYTES)
}

function round(value: number): string {
  return String(Math.round(value))
}

export function windowText(window: WindowLevel): string {
  return `窗宽 ${round(window.width)} 窗位 ${round(window.center)}`
}

function dicomDate(date: string | null): string | null {
  if (!date) return null
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(date)
  return m ? `${m[1]}-${m[2]}-${m[3]}` : date
}

function personName(name: string | null): string | null {
  return name ? name.replace(/\^+/g, ' ').trim() || null : null
}

function isGrey(info: ImageInfo): boolean {
  return info.samplesPerPixel === 1 && info.photometric !== 'PALETTE COLOR'
}

function distanceLabel(info: ImageInfo, points: Point[]): string | null {
  if (points.length < 2) return null
  const result = measureDistance(info, points[0]!, points[1]!)
  if (result.mm === null) return result.reason
  return `${result.approximate ? '约 ' : ''}${result.mm.toFixed(1)} mm`
}

function angleLabel(points: Point[]): string | null {
  if (points.length < 3) return null
  return `${measureAngle(points[0]!, points[1]!, points[2]!).toFixed(1)}°`
}

function touchesOf(
  event: { touches?: ArrayLike<unknown> },
  stage: StageBox,
  turned: boolean,
): TouchPoint[] {
  const list = event.touches ?? []
  const out: TouchPoint[] = []
  for (let i = 0; i < list.length; i += 1) {
    const t = list[i] as {
      identifier?: number
      clientX?: number
      clientY?: number
      x?: number
      y?: number
    }
    const x = t.clientX ?? t.x ?? 0
    const y = t.clientY ?? t.y ?? 0
    out.push({ id: t.identifier ?? i, ...clientToStage({ x, y }, stage, turned) })
  }
  return out
}

/**
 * The stage as a real DOM element (H5), else null: the mini-program's runtime has a `document`
 * too, whose elements have no layout (no getBoundingClientRect) and no mouse.
 */
function domStage(): HTMLElement | null {
  if (typeof document === 'undefined') return null
  const element = document.getElementById(STAGE_ID) as HTMLElement | null
  return element && typeof element.getBoundingClientRect === 'function' ? element : null
}

/**
 * Whether the browser window is taller than wide (H5), where 横屏全屏 turns the viewer with CSS
 * when the browser cannot turn itself; the mini-program turns the page (pageOrientation: 'auto').
 */
function portraitWindow(): { width: number; height: number } | null {
  if (!isBrowser() || typeof globalThis.innerWidth !== 'number') return null
  const { innerWidth: width, innerHeight: height } = globalThis
  return width > 0 && height > width ? { width, height } : null
}

/** What was last drawn on the image canvas: the same again is not drawn twice. */
interface Drawn {
  painter: Painter
  pixels: PixelData
  window: WindowLevel | null
  invert: boolean
  renderer: Renderer
}

/** One line of tools, scrolled sideways when it does not fit (the image keeps the height). */
/** A group of tools; one that does not fit the width wraps onto a line of its own, never off-screen. */
function ToolRow({ children }: PropsWithChildren) {
  return <View className="image-viewer__row">{children}</View>
}

/** The viewer's stage, tools and overlay for one series. */
export function ImageViewer(props: ImageViewerProps) {
  const {
    exam,
    series,
    studyUid,
    slices,
    startIndex,
    previewSrc,
    firstPixelsFrom,
    onSwitchSeries,
    cache,
    bookmarks = true,
  } = props
  const [index, setIndex] = useState(startIndex)
  const [window, setWindow] = useState<WindowLevel | null>(null)
  const [invert, setInvert] = useState(false)
  const [viewport, setViewport] = useState<Viewport | null>(null)
  /** The last frame that arrived, with the slice it belongs to. */
  const [loaded, setLoaded] = useState<{ key: string; pixels: PixelData } | null>(null)
  const [frameError, setFrameError] = useState<string | null>(null)
  const [tool, setTool] = useState<Tool>('none')
  const [measurements, setMeasurements] = useState<Measurement[]>([])
  const [draft, setDraft] = useState<Measurement | null>(null)
  const [showInfo, setShowInfo] = useState(true)
  const [playing, setPlaying] = useState(false)
  const [fps, setFps] = useState(10)
  const [probe, setProbe] = useState<{ x: number; y: number; text: string } | null>(null)
  const [full, setFull] = useState(false)
  /** 横屏全屏 where the browser could not turn: the viewer is turned 90° with CSS instead. */
  const [turnWanted, setTurnWanted] = useState(false)
  const [bookmarksOpen, setBookmarksOpen] = useState(false)
  const [painted, setPainted] = useState(false)
  /** Bumped when a painter is made, so the frame is drawn on it. */
  const [painterVersion, setPainterVersion] = useState(0)
  const [resized, setResized] = useState(0)

  const slice = slices[Math.min(index, slices.length - 1)]!
  const info = slice.info
  const image: Size = useMemo(
    () => ({ width: info.columns, height: info.rows }),
    [info.columns, info.rows],
  )
  const painter = useRef<Painter | null>(null)
  const viewportRef = useRef(viewport)
  viewportRef.current = viewport
  const renderers = useRef(new RendererPool())
  const loader = useRef<FrameLoader | null>(null)
  // Only the shown slice's own pixels: while the next one loads, the last frame must not be
  // rendered, probed or measured as if it were that slice (with its renderer, size and values).
  // A slice already in the cache is read here, so a slice change paints in the same commit
  // instead of after one more render.
  const pixels =
    loaded && loaded.key === sliceKey(slice)
      ? loaded.pixels
      : (loader.current?.peek(Math.min(index, slices.length - 1)) ?? null)
  const firstPixels = useRef(false)
  const touchAt = useRef(0)
  const stageBox = useRef<StageBox>({ left: 0, top: 0, width: 0, height: 0 })
  const drawn = useRef<Drawn | null>(null)
  const portrait = full && turnWanted ? portraitWindow() : null
  const turned = portrait !== null
  const turnedRef = useRef(turned)
  turnedRef.current = turned

  const markFirstPixels = useCallback(() => {
    if (firstPixels.current) return
    firstPixels.current = true
    recordFirstPixels(firstPixelsFrom)
  }, [firstPixelsFrom])

  // ---------------------------------------------------------------- frames of this series
  useEffect(() => {
    const created = createFrameLoader(slices, cache, (sliceInfo, frame) =>
      fetchFrame(studyUid, sliceInfo.seriesUid, sliceInfo.sopInstanceUid, frame),
    )
    loader.current = created
    setIndex(startIndex)
    setWindow(null)
    setMeasurements([])
    setDraft(null)
    setPlaying(false)
    return () => created.dispose()
  }, [slices, startIndex, studyUid, cache])

  useEffect(() => {
    const current = loader.current
    if (!current) return undefined
    let live = true
    setFrameError(null)
    const wanted = slices[index]
    const key = wanted ? sliceKey(wanted) : ''
    const cached = current.peek(index)
    if (cached) setLoaded({ key, pixels: cached })
    else {
      current.load(index).then(
        (arrived) => {
          if (live) setLoaded({ key, pixels: arrived })
        },
        (error: unknown) => {
          if (!live) return
          setFrameError(
            error instanceof Error && /[\u4e00-\u9fa5]/.test(error.message)
              ? error.message
              : '图像加载失败，请稍后重试',
          )
        },
      )
    }
    current.prefetch(index)
    return () => {
      live = false
    }
  }, [index, slices])

  // ---------------------------------------------------------------- the canvas
  // Full screen in a browser: H5's navigation bar would cover the viewer's top (Taro's page is
  // transformed, so a fixed viewer cannot rise above it). Hidden before the painter measures.
  useEffect(() => {
    if (!full || !domStage()) return undefined
    document.body.classList.add(FULL_PAGE_CLASS)
    return () => document.body.classList.remove(FULL_PAGE_CLASS)
  }, [full])

  useEffect(() => {
    let live = true
    painter.current = null
    drawn.current = null
    void createPainter(CANVAS_ID, OVERLAY_ID, image).then((created) => {
      if (!live || !created) return
      painter.current = created
      // A new stage (full screen, a turned phone) refits the image but keeps its turn and flip.
      setViewport((v) => (v ? fit(created.view, image, v) : initialViewport(created.view, image)))
      measureStage()
      setPainterVersion((n) => n + 1)
    })
    return () => {
      live = false
    }
    // The painter is made again when the image size or the stage's size (full screen, turned)
    // changes.
  }, [image, full, turned, resized])

  // A turned phone or a resized window changes the stage: the painter is made again for it.
  useEffect(() => {
    const onResize = () => setResized((n) => n + 1)
    Taro.onWindowResize(onResize)
    return () => Taro.offWindowResize(onResize)
  }, [])

  function measureStage(): void {
    const element = domStage()
    if (element) {
      const rect = element.getBoundingClientRect()
      stageBox.current = { left: rect.left, top: rect.top, width: rect.width, height: rect.height }
      return
    }
    Taro.createSelectorQuery()
      .select(`#${STAGE_ID}`)
      .boundingClientRect((rect) => {
        const box = (Array.isArray(rect) ? rect[0] : rect) as { left?: number; top?: number } | null
        if (box) stageBox.current = { left: box.left ?? 0, top: box.top ?? 0, width: 0, height: 0 }
      })
      .exec()
  }

  const view = painter.current?.view ?? null

  // The frame's own window the first time a series shows a frame (then the person's choice stays).
  useEffect(() => {
    if (pixels && window === null && isGrey(info)) setWindow(defaultWindow(info, pixels))
  }, [pixels, window, info])

  // Shared by the slices that render alike (one per stack), not one per instance shown.
  const renderer = useMemo(() => renderers.current.get(info), [info])

  useEffect(() => {
    const current = painter.current
    const at = viewportRef.current
    if (!current || !pixels || !at) return
    // A frame of another size (mixed series) waits for its painter.
    if (pixels.length < info.rows * info.columns * info.samplesPerPixel) return
    // Grey images wait for their window (set from the frame just below); colour needs none.
    if (window === null && isGrey(info)) return
    const last = drawn.current
    // Already drawn by the slice step itself (stepTo): not again.
    const same =
      last &&
      last.painter === current &&
      last.pixels === pixels &&
      last.window === window &&
      last.invert === invert &&
      last.renderer === renderer
    if (!same) {
      const started = timelineNow()
      current.renderFrame(renderer, pixels, window ?? { center: 128, width: 256 }, invert)
      recordRender(started)
      drawn.current = { painter: current, pixels, window, invert, renderer }
    }
    setPainted(true)
    markFirstPixels()
  }, [pixels, window, invert, renderer, painterVersion, info, markFirstPixels])

  const shapes: ScreenShape[] = useMemo(() => {
    if (!viewport || !view) return []
    const key = sliceKey(slice)
    const all = [...measurements.filter((m) => m.sliceKey === key), ...(draft ? [draft] : [])]
    return all.map((m) => ({
      points: m.points.map((p) => imageToScreen(viewport, view, image, p)),
      label: m.kind === 'distance' ? distanceLabel(info, m.points) : angleLabel(m.points),
      active: m === draft,
    }))
  }, [measurements, draft, viewport, view, image, slice, info])

  useEffect(() => {
    painter.current?.drawShapes(shapes)
  }, [shapes, painterVersion])

  // ---------------------------------------------------------------- cine
  useEffect(() => {
    if (!playing || slices.length < 2) return undefined
    // Advance only onto a frame already here: faster than the network, the cine waits for the
    // prefetch instead of cancelling every load and showing nothing.
    const timer = setInterval(() => {
      setIndex((i) => {
        const next = (i + 1) % slices.length
        if (loader.current?.peek(next)) return next
        void loader.current?.load(next).catch(() => undefined)
        return i
      })
    }, 1000 / fps)
    return () => clearInterval(timer)
  }, [playing, fps, slices.length])

  // ---------------------------------------------------------------- actions
  /**
   * Shows slice `next`: a frame already in the cache is drawn right here, in the wheel, swipe or
   * slider event, and React then only updates the overlay text (a render of this component costs
   * more than the drawing). A frame not here yet is loaded and drawn by the effects.
   */
  /**
   * Draws a frame at once, outside React (a wheel step, a W/L drag): the overlay text follows with
   * React's next render, whose effect then finds it drawn. Answers whether it could: a frame of
   * another size waits for its painter, a grey one for its window.
   */
  const drawNow = useCallback(
    (frame: PixelData, frameInfo: ImageInfo, at: WindowLevel | null, inverted: boolean) => {
      const current = painter.current
      if (
        !current ||
        !state.current.viewport ||
        frameInfo.columns !== current.image.width ||
        frameInfo.rows !== current.image.height ||
        frame.length < frameInfo.rows * frameInfo.columns * frameInfo.samplesPerPixel ||
        (at === null && isGrey(frameInfo))
      )
        return false
      const started = timelineNow()
      const renderer = renderers.current.get(frameInfo)
      current.renderFrame(renderer, frame, at ?? { center: 128, width: 256 }, inverted)
      recordRender(started)
      drawn.current = { painter: current, pixels: frame, window: at, invert: inverted, renderer }
      return true
    },
    [],
  )

  /**
   * Shows slice `next`: a frame already in the cache is drawn right here, in the wheel, swipe or
   * slider event, and React then only updates the overlay text (a render of this component costs
   * more than the drawing). A frame not here yet is loaded and drawn by the effects.
   */
  const stepTo = useCallback(
    (next: number) => {
      const s = state.current
      const to = Math.max(0, Math.min(slices.length - 1, Math.round(next)))
      if (to === s.index) return
      const target = slices[to]
      const cached = loader.current?.peek(to)
      if (target && cached) drawNow(cached, target.info, s.window, s.invert)
      // The next step of a fast wheel, or a drag, starts from here, before React has rendered this
      // one (a drag must not draw the last slice's pixels under this one's name).
      s.index = to
      s.pixels = cached ?? null
      if (target) s.info = target.info
      setIndex(to)
    },
    [slices, drawNow],
  )
  const goTo = stepTo

  const applyPreset = (preset: Preset) => {
    if (!pixels) return
    setWindow(presetWindow(preset, info, pixels))
  }

  const reset = () => {
    if (view) setViewport(initialViewport(view, image))
    setInvert(false)
    setWindow(pixels && isGrey(info) ? defaultWindow(info, pixels) : null)
    setMeasurements([])
    setDraft(null)
  }

  const toggleFull = () => {
    const next = !full
    setFull(next)
    setTurnWanted(false)
    if (!next) {
      void exitFullscreen()
      return
    }
    void enterFullscreen().then((landscape) => {
      if (landscape) return
      // The browser could not turn (iOS Safari, WeChat's browser): a browser page is turned
      // with CSS; the mini-program turns with the phone (pageOrientation: 'auto').
      if (portraitWindow()) setTurnWanted(true)
      else {
        const stage = painter.current?.view
        if (stage && stage.width < stage.height) showToast('请将手机横过来查看')
      }
    })
  }

  // ---------------------------------------------------------------- gestures
  const recognizer = useMemo(
    () => createGestureRecognizer(() => painter.current?.view.width ?? 0),
    [],
  )
  const longPressTimer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const state = useRef({ viewport, window, invert, pixels, info, tool, draft, view, image, index })
  state.current = { viewport, window, invert, pixels, info, tool, draft, view, image, index }

  const act = useCallback(
    (actions: GestureAction[]) => {
      const s = state.current
      if (!s.viewport || !s.view) return
      const currentKey = () => {
        const shown = slices[s.index]
        return shown ? sliceKey(shown) : ''
      }
      for (const action of actions) {
        switch (action.type) {
          case 'drag': {
            if (s.tool === 'distance' && s.draft) {
              const p = screenToImage(s.viewport, s.view, s.image, action)
              setDraft({ ...s.draft, points: [s.draft.points[0]!, p] })
              break
            }
            if (s.tool !== 'none') break
            if (s.window) {
              const k = Math.max(s.window.width, 1) * WL_SENSITIVITY
              const next = {
                width: Math.max(1, s.window.width + action.dx * k),
                center: s.window.center + action.dy * k,
              }
              s.window = next
              // Drawn in the move event itself; React follows with the 窗宽/窗位 text.
              if (s.pixels) drawNow(s.pixels, s.info, next, s.invert)
              setWindow(next)
            }
            break
          }
          case 'dragStart':
            if (s.tool === 'distance') {
              const p = screenToImage(s.viewport, s.view, s.image, action)
              const started: Measurement = { sliceKey: '', kind: 'distance', points: [p, p] }
              s.draft = started
              setDraft(started)
            }
            break
          case 'dragEnd':
            if (s.tool === 'distance' && s.draft) {
              const done = s.draft
              setMeasurements((list) => [...list, { ...done, sliceKey: currentKey() }])
              setDraft(null)
            }
            break
          case 'tap':
            if (s.tool === 'angle') {
              const p = screenToImage(s.viewport, s.view, s.image, action)
              const points = [...(s.draft?.points ?? []), p]
              if (points.length === 3) {
                setMeasurements((list) => [
                  ...list,
                  { sliceKey: currentKey(), kind: 'angle', points },
                ])
                setDraft(null)
              } else setDraft({ sliceKey: '', kind: 'angle', points })
            }
            break
          case 'slices':
            stepTo(s.index + action.delta)
            break
          case 'pinch':
            setViewport((v) => (v ? zoomAt(v, s.view!, s.image, action.factor, action) : v))
            break
          case 'pan':
            setViewport((v) => (v ? pan(v, action.dx, action.dy) : v))
            break
          case 'doubleTap':
            setViewport((v) => (v ? fit(s.view!, s.image, v) : v))
            break
          case 'probe': {
            const at = s.pixels ? pixelAt(s.viewport, s.view, s.image, action) : null
            const value = at && s.pixels ? valueAt(s.info, s.pixels, at.x, at.y) : null
            setProbe(
              value
                ? {
                    x: action.x,
                    y: action.y,
                    text: `${round(value.value)}${value.unit ? ` ${value.unit}` : ''}`,
                  }
                : null,
            )
            break
          }
          case 'probeEnd':
            setProbe(null)
            break
        }
      }
    },
    [slices, stepTo, drawNow],
  )

  const clearLongPress = () => {
    if (longPressTimer.current) clearTimeout(longPressTimer.current)
    longPressTimer.current = null
  }

  const onStart = (points: TouchPoint[]) => {
    act(recognizer.start(points, Date.now()))
    clearLongPress()
    if (points.length === 1 && state.current.tool === 'none') {
      longPressTimer.current = setTimeout(
        () => act(recognizer.longPressDue(Date.now())),
        LONG_PRESS_MS,
      )
    }
  }
  const onMove = (points: TouchPoint[]) => {
    const actions = recognizer.move(points, Date.now())
    if (actions.length > 0 && actions[0]!.type !== 'probe') clearLongPress()
    act(actions)
  }
  const onEnd = (points: TouchPoint[]) => {
    clearLongPress()
    act(recognizer.end(points, Date.now()))
  }

  const touch = (handler: (points: TouchPoint[]) => void) => (event: unknown) => {
    touchAt.current = Date.now()
    // A browser's layout can move (the address bar); the mini-program's is measured once.
    if (domStage()) measureStage()
    handler(
      touchesOf(event as { touches?: ArrayLike<unknown> }, stageBox.current, turnedRef.current),
    )
  }

  // Desktop H5: drag = W/L (the same path as one finger), wheel = slices, ctrl+wheel = zoom.
  useEffect(() => {
    const element = domStage()
    if (!element) return undefined
    let down = false
    // A touch screen also sends mouse events after a touch: those are not a mouse.
    const fromTouch = () => Date.now() - touchAt.current < 1000
    const local = (event: MouseEvent) =>
      clientToStage(
        { x: event.clientX, y: event.clientY },
        element.getBoundingClientRect(),
        turnedRef.current,
      )
    const point = (event: MouseEvent): TouchPoint[] => [{ id: -1, ...local(event) }]
    const onDown = (event: MouseEvent) => {
      if (fromTouch() || event.button !== 0) return
      down = true
      onStartRef.current(point(event))
    }
    const onMoveMouse = (event: MouseEvent) => {
      if (down) onMoveRef.current(point(event))
    }
    const onUp = () => {
      if (!down) return
      down = false
      onEndRef.current([])
    }
    const onWheel = (event: WheelEvent) => {
      event.preventDefault()
      const s = state.current
      if (event.ctrlKey || event.metaKey) {
        const at = local(event)
        setViewport((v) =>
          v && s.view ? zoomAt(v, s.view, s.image, Math.exp(-event.deltaY / 300), at) : v,
        )
      } else if (event.deltaY !== 0) {
        stepToRef.current(s.index + Math.sign(event.deltaY))
      }
    }
    element.addEventListener('mousedown', onDown)
    document.addEventListener('mousemove', onMoveMouse)
    document.addEventListener('mouseup', onUp)
    element.addEventListener('wheel', onWheel, { passive: false })
    return () => {
      element.removeEventListener('mousedown', onDown)
      document.removeEventListener('mousemove', onMoveMouse)
      document.removeEventListener('mouseup', onUp)
      element.removeEventListener('wheel', onWheel)
    }
  }, [slices.length])
  const stepToRef = useRef(stepTo)
  stepToRef.current = stepTo
  const onStartRef = useRef(onStart)
  onStartRef.current = onStart
  const onMoveRef = useRef(onMove)
  onMoveRef.current = onMove
  const onEndRef = useRef(onEnd)
  onEndRef.current = onEnd

  useEffect(() => () => clearLongPress(), [])

  // ---------------------------------------------------------------- overlay
  const presets = presetsFor(info)
  const spacing = info.pixelSpacing
  const bar =
    viewport && view ? scaleBar(spacing?.column ?? null, viewport.scale, view.width / 4) : null
  const total = slices.length
  const lines = {
    topLeft: [
      personName(info.patientName) ?? exam.patientNameMasked,
      dicomDate(info.studyDate) ?? exam.studyDate,
      [
        info.seriesNumber !== null ? `序列 ${info.seriesNumber}` : null,
        info.seriesDescription ?? series.description,
      ]
        .filter(Boolean)
        .join(' '),
    ].filter((line): line is string => Boolean(line)),
    bottomLeft: [
      `图像 ${index + 1}/${total}`,
      info.sliceLocation !== null ? `层位 ${info.sliceLocation.toFixed(1)} mm` : null,
      window && isGrey(info) ? windowText(window) : null,
      viewport ? `缩放 ${Math.round(viewport.scale * 100)}%` : null,
    ].filter((line): line is string => Boolean(line)),
  }

  const toolButton = (label: string, onClick: () => void, active = false, testId?: string) => (
    <View
      key={label}
      className={`image-viewer__tool${active ? ' image-viewer__tool--active' : ''}`}
      onClick={onClick}
      data-testid={testId}
    >
      <Text>{label}</Text>
    </View>
  )

  return (
    <View
      className={`image-viewer${full ? ' image-viewer--full' : ''}${turned ? ' image-viewer--turned' : ''}`}
      style={
        portrait
          ? {
              // The window's height becomes the viewer's width: turned a quarter clockwise about
              // its top left corner, then moved right by the window's width (viewport.ts
              // clientToStage maps touches and the mouse back).
              width: `${portrait.height}px`,
              height: `${portrait.width}px`,
              transform: `translateX(${portrait.width}px) rotate(90deg)`,
              transformOrigin: '0 0',
            }
          : undefined
      }
    >
      <View
        id={STAGE_ID}
        className="image-viewer__stage"
        catchMove
        onTouchStart={touch(onStart)}
        onTouchMove={touch(onMove)}
        onTouchEnd={touch(onEnd)}
        onTouchCancel={touch(onEnd)}
      >
        {previewSrc && !painted && (
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
          <View className="image-viewer__measures">
            {shapes.map((shape, i) =>
              shape.label ? (
                <Text key={i} className="image-viewer__measure" data-testid="viewer-measure">
                  {shape.label}
                </Text>
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
        {frameError && !pixels && (
          <View className="image-viewer__message">
            <Text>{frameError}</Text>
          </View>
        )}
        {total > 1 && <View className="image-viewer__strip-hint" />}
      </View>

      {total > 1 && (
        <View className="image-viewer__slider">
          {toolButton('‹', () => goTo(index - 1), false, 'viewer-prev')}
          <Slider
            className="image-viewer__range"
            min={1}
            max={total}
            step={1}
            value={index + 1}
            activeColor={THEME.primary}
            blockSize={24}
            onChanging={(e) => goTo(Number(e.detail.value) - 1)}
            onChange={(e) => goTo(Number(e.detail.value) - 1)}
          />
          {toolButton('›', () => goTo(index + 1), false, 'viewer-next')}
        </View>
      )}

      {!full && (
        <View className="image-viewer__tools">
          {presets.length > 0 && (
            <ToolRow>
              {presets.map((preset) => toolButton(preset.label, () => applyPreset(preset)))}
            </ToolRow>
          )}
          <ToolRow>
            {isGrey(info) && toolButton('反色', () => setInvert((v) => !v), invert)}
            {toolButton('旋转', () => setViewport((v) => (v ? rotateClockwise(v) : v)))}
            {toolButton('翻转', () => setViewport((v) => (v ? flipHorizontal(v) : v)))}
            {toolButton('复位', reset)}
            {total > 1 &&
              toolButton(playing ? '暂停' : '播放', () => setPlaying((p) => !p), playing)}
            {total > 1 &&
              toolButton(`${fps}帧/秒`, () =>
                setFps(FRAME_RATES[(FRAME_RATES.indexOf(fps) + 1) % FRAME_RATES.length]!),
              )}
          </ToolRow>
          <ToolRow>
            {toolButton(
              '测距',
              () => {
                setDraft(null)
                setTool((t) => (t === 'distance' ? 'none' : 'distance'))
              },
              tool === 'distance',
            )}
            {toolButton(
              '测角',
              () => {
                setDraft(null)
                setTool((t) => (t === 'angle' ? 'none' : 'angle'))
              },
              tool === 'angle',
            )}
            {measurements.length > 0 && toolButton('清除测量', () => setMeasurements([]))}
            {toolButton(showInfo ? '隐藏信息' : '显示信息', () => setShowInfo((v) => !v))}
            {bookmarks && toolButton('书签', () => setBookmarksOpen(true))}
            {toolButton('横屏全屏', toggleFull)}
          </ToolRow>
          {tool !== 'none' && (
            <Text className="image-viewer__hint">
              {tool === 'distance'
                ? '在图像上拖动画线测量距离'
                : '依次点击三点（顶点在中间）测量角度'}
              {spacing === null && tool === 'distance'
                ? '（该图像没有像素间距，无法换算为毫米）'
                : ''}
            </Text>
          )}
          <SeriesStrip series={exam.series} current={series.seriesUid} onPick={onSwitchSeries} />
        </View>
      )}
      {full && (
        <View className="image-viewer__exit" onClick={toggleFull}>
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
