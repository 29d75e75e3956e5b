import Taro from '@tarojs/taro'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import {
  RendererPool,
  type ImageInfo,
  type PixelData,
  type Renderer,
  type WindowLevel,
} from '../core'
import { createPainter, type Painter, type ScreenShape } from '../components/painter'
import { CANVAS_ID, measureStage, OVERLAY_ID } from '../components/stage'
import { isGrey } from '../view-state'
import type { Size, StageBox, Viewport } from '../viewport'
import { recordRender, timelineNow } from './timing'

/** A colour image's window: the stored values unchanged. */
const COLOUR_WINDOW: WindowLevel = { center: 128, width: 256 }

/** What was last drawn on the image canvas: the same again is not drawn twice. */
interface Drawn {
  painter: Painter
  pixels: PixelData
  window: WindowLevel | null
  invert: boolean
  renderer: Renderer
}

export interface FramePainterInput {
  /** The shown slice's size (memoised: a new painter is made when it changes). */
  image: Size
  info: ImageInfo
  /** The shown slice's own pixels, null while they load. */
  pixels: PixelData | null
  window: WindowLevel | null
  invert: boolean
  viewport: Viewport | null
  shapes: ScreenShape[]
  /** The stage changes size with these: a painter is made again for it. */
  full: boolean
  turned: boolean
  /** A painter was made for a stage of this size (the view state fits the image to it). */
  onStage: (view: Size) => void
  onPainted: () => void
}

export interface FramePainter {
  /** Whether a raw frame has been drawn (the preview image then goes). */
  painted: boolean
  /** The stage's box on screen, for mapping touches. */
  stageBox: { current: StageBox }
  /**
   * Draws a frame at once, outside React (a wheel step, a W/L drag): the overlay text follows with
   * React's next render, whose effect then finds it drawn. Answers whether it could: a frame of
   * another size waits for its painter, a grey one for its window.
   */
  drawNow(
    frame: PixelData,
    frameInfo: ImageInfo,
    at: WindowLevel | null,
    inverted: boolean,
  ): boolean
}

/**
 * The stage's two canvases (components/painter.ts) kept in step with the view: a painter made for
 * each stage size, the frame drawn when the pixels, window or inversion change (once: what an input
 * event already drew is not drawn again), and the measurements drawn when they change.
 */
export function useFramePainter(input: FramePainterInput): FramePainter {
  const { image, info, pixels, window, invert, viewport, shapes, full, turned } = input
  const painter = useRef<Painter | null>(null)
  const drawn = useRef<Drawn | null>(null)
  const renderers = useRef(new RendererPool())
  const stageBox = useRef<StageBox>({ left: 0, top: 0, width: 0, height: 0 })
  const viewportRef = useRef(viewport)
  viewportRef.current = viewport
  const callbacks = useRef(input)
  callbacks.current = input
  const [painted, setPainted] = useState(false)
  /** Bumped when a painter is made, so the frame is drawn on it. */
  const [painterVersion, setPainterVersion] = useState(0)
  const [resized, setResized] = useState(0)

  useEffect(() => {
    let live = true
    painter.current = null
    drawn.current = null
    void createPainter(CANVAS_ID, OVERLAY_ID, image).then((created) => {
      if (!live || !created) return
      painter.current = created
      // A new stage (full screen, a turned phone) refits the image but keeps its turn and flip.
      callbacks.current.onStage(created.view)
      measureStage(stageBox)
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

  // Shared by the slices that render alike (one per stack), not one per instance shown.
  const renderer = useMemo(() => renderers.current.get(info), [info])

  useEffect(() => {
    const current = painter.current
    if (!current || !pixels || !viewportRef.current) return
    // A frame of another size (mixed series) waits for its painter.
    if (pixels.length < info.rows * info.columns * info.samplesPerPixel) return
    // Grey images wait for their window (set from the frame just below); colour needs none.
    if (window === null && isGrey(info)) return
    const last = drawn.current
    // Already drawn by an input event itself (drawNow): not again.
    const same =
      last &&
      last.painter === current &&
      last.pixels === pixels &&
      last.window === window &&
      last.invert === invert &&
      last.renderer === renderer
    if (!same) {
      const started = timelineNow()
      current.renderFrame(renderer, pixels, window ?? COLOUR_WINDOW, invert)
      recordRender(started)
      drawn.current = { painter: current, pixels, window, invert, renderer }
    }
    setPainted(true)
    callbacks.current.onPainted()
  }, [pixels, window, invert, renderer, painterVersion, info])

  useEffect(() => {
    painter.current?.drawShapes(shapes)
  }, [shapes, painterVersion])

  const drawNow = useCallback(
    (frame: PixelData, frameInfo: ImageInfo, at: WindowLevel | null, inverted: boolean) => {
      const current = painter.current
      if (
        !current ||
        !viewportRef.current ||
        frameInfo.columns !== current.image.width ||
        frameInfo.rows !== current.image.height ||
        frame.length < frameInfo.rows * frameInfo.columns * frameInfo.samplesPerPixel ||
        (at === null && isGrey(frameInfo))
      )
        return false
      const started = timelineNow()
      const frameRenderer = renderers.current.get(frameInfo)
      current.renderFrame(frameRenderer, frame, at ?? COLOUR_WINDOW, inverted)
      recordRender(started)
      drawn.current = {
        painter: current,
        pixels: frame,
        window: at,
        invert: inverted,
        renderer: frameRenderer,
      }
      return true
    },
    [],
  )

  return { painted, stageBox, drawNow }
}
