import type { MeasurementKind } from '@contract/main/opinions'
import type { ImageInfo, Point, WindowLevel } from './core'
import { sliceKey, type Slice } from './hooks/frame-loader'
import {
  fit,
  flipHorizontal,
  initialViewport,
  pan,
  rotateClockwise,
  screenToImage,
  zoomAt,
  type ScreenPoint,
  type Size,
  type Viewport,
} from './viewport'

/**
 * What the viewer shows, as one value changed only by `reduceView`: the slice, the window, the
 * transform, the measuring tool and its lines. Pure (no React, no canvas), so every step a tool
 * button or a gesture takes can be tested on its own; the component keeps the latest value in a ref
 * as well, so a second input event before React renders starts from the first one's result.
 */

export type Tool = 'none' | MeasurementKind

/** The tools drawn by one finger's drag (测距, 椭圆); 测角 is three taps. */
export function isDragTool(tool: Tool): tool is 'distance' | 'ellipse' {
  return tool === 'distance' || tool === 'ellipse'
}

export interface Measurement {
  /** The slice it was drawn on (sliceKey); '' while it is being drawn. */
  sliceKey: string
  kind: MeasurementKind
  /**
   * Image coordinates (column, row): a line's two ends, an angle's three points (vertex in the
   * middle), an ellipse's two opposite bounding-box corners.
   */
  points: Point[]
}

/** The value under a held finger, shown above it. */
export interface Probe {
  x: number
  y: number
  text: string
}

export interface ViewState {
  slices: Slice[]
  index: number
  /** null until a grey series' first frame gives its own window (colour needs none). */
  window: WindowLevel | null
  invert: boolean
  /** The stage's size (CSS pixels) once its painter is made. */
  view: Size | null
  viewport: Viewport | null
  tool: Tool
  measurements: Measurement[]
  /** The line or angle being drawn. */
  draft: Measurement | null
  probe: Probe | null
  showInfo: boolean
}

export type ViewAction =
  /**
   * Another stack (or the same again): back to its start slice, its own window, no lines but
   * `measurements` (a pinned finding shown on its slice).
   */
  | { type: 'series'; slices: Slice[]; startIndex: number; measurements?: Measurement[] }
  /** A painter was made for a stage of this size: the image is fitted, keeping turn and flip. */
  | { type: 'stage'; view: Size }
  | { type: 'goTo'; index: number }
  | { type: 'window'; window: WindowLevel | null }
  /** One finger dragged by dx, dy screen pixels: horizontal = width, vertical = centre. */
  | { type: 'windowDrag'; dx: number; dy: number }
  | { type: 'invert' }
  | { type: 'rotate' }
  | { type: 'flip' }
  | { type: 'zoom'; factor: number; at: ScreenPoint }
  | { type: 'pan'; dx: number; dy: number }
  | { type: 'fit' }
  /** 复位: upright and fitted, not inverted, `window` (the frame's own), no lines. */
  | { type: 'reset'; window: WindowLevel | null }
  /** A measuring tool's button: on, or off when it is the one on. */
  | { type: 'tool'; tool: Exclude<Tool, 'none'> }
  | { type: 'measureStart'; at: ScreenPoint }
  | { type: 'measureMove'; at: ScreenPoint }
  | { type: 'measureEnd' }
  | { type: 'anglePoint'; at: ScreenPoint }
  | { type: 'clearMeasurements' }
  | { type: 'probe'; probe: Probe | null }
  | { type: 'toggleInfo' }

/** Window change per screen pixel dragged, as a share of the current width: same feel at any depth. */
export const WL_SENSITIVITY = 1 / 300

export function initialViewState(
  slices: Slice[],
  startIndex: number,
  measurements: Measurement[] = [],
): ViewState {
  return {
    slices,
    index: startIndex,
    window: null,
    invert: false,
    view: null,
    viewport: null,
    tool: 'none',
    measurements,
    draft: null,
    probe: null,
    showInfo: true,
  }
}

/** The slice shown (the last one if the index ran past a shorter stack). */
export function shownSlice(state: ViewState): Slice {
  return state.slices[Math.min(state.index, state.slices.length - 1)]!
}

/** Grey images have a window (and 反色); colour and palette images are shown as they are. */
export function isGrey(info: ImageInfo): boolean {
  return info.samplesPerPixel === 1 && info.photometric !== 'PALETTE COLOR'
}

export function imageSize(slice: Slice): Size {
  return { width: slice.info.columns, height: slice.info.rows }
}

/** An image point under a screen point, when the stage is there to map it. */
function toImage(state: ViewState, at: ScreenPoint): Point | null {
  if (!state.viewport || !state.view) return null
  return screenToImage(state.viewport, state.view, imageSize(shownSlice(state)), at)
}

function withViewport(state: ViewState, change: (viewport: Viewport, view: Size) => Viewport) {
  if (!state.viewport || !state.view) return state
  return { ...state, viewport: change(state.viewport, state.view) }
}

function sameMeasurements(a: Measurement[], b: Measurement[]): boolean {
  return a.length === b.length && a.every((m, i) => m === b[i])
}

/** 0.1 image pixel: what a pin stores and a link carries (pin.ts), so all three read the same. */
const tenth = (n: number) => Math.round(n * 10) / 10

function commit(state: ViewState, measurement: Measurement): ViewState {
  const points = measurement.points.map((p) => ({ x: tenth(p.x), y: tenth(p.y) }))
  return {
    ...state,
    measurements: [
      ...state.measurements,
      { ...measurement, points, sliceKey: sliceKey(shownSlice(state)) },
    ],
    draft: null,
  }
}

export function reduceView(state: ViewState, action: ViewAction): ViewState {
  switch (action.type) {
    case 'series': {
      const measurements = action.measurements ?? []
      if (
        state.slices === action.slices &&
        state.index === action.startIndex &&
        state.window === null &&
        sameMeasurements(state.measurements, measurements) &&
        state.draft === null
      )
        return state
      return {
        ...state,
        slices: action.slices,
        index: action.startIndex,
        window: null,
        measurements,
        draft: null,
      }
    }
    case 'stage': {
      const image = imageSize(shownSlice(state))
      return {
        ...state,
        view: action.view,
        viewport: state.viewport
          ? fit(action.view, image, state.viewport)
          : initialViewport(action.view, image),
      }
    }
    case 'goTo': {
      const to = Math.max(0, Math.min(state.slices.length - 1, Math.round(action.index)))
      return to === state.index ? state : { ...state, index: to }
    }
    case 'window':
      return action.window === state.window ? state : { ...state, window: action.window }
    case 'windowDrag': {
      const current = state.window
      if (!current) return state
      const k = Math.max(current.width, 1) * WL_SENSITIVITY
      // A drag continues as a plain linear window, even from a VOI LUT table's preset.
      const window = {
        width: Math.max(1, current.width + action.dx * k),
        center: current.center + action.dy * k,
      }
      return { ...state, window }
    }
    case 'invert':
      return { ...state, invert: !state.invert }
    case 'rotate':
      return state.viewport ? { ...state, viewport: rotateClockwise(state.viewport) } : state
    case 'flip':
      return state.viewport ? { ...state, viewport: flipHorizontal(state.viewport) } : state
    case 'zoom': {
      const image = imageSize(shownSlice(state))
      return withViewport(state, (v, view) => zoomAt(v, view, image, action.factor, action.at))
    }
    case 'pan':
      return state.viewport
        ? { ...state, viewport: pan(state.viewport, action.dx, action.dy) }
        : state
    case 'fit': {
      const image = imageSize(shownSlice(state))
      return withViewport(state, (v, view) => fit(view, image, v))
    }
    case 'reset':
      return {
        ...state,
        viewport: state.view
          ? initialViewport(state.view, imageSize(shownSlice(state)))
          : state.viewport,
        invert: false,
        window: action.window,
        measurements: [],
        draft: null,
      }
    case 'tool':
      return { ...state, draft: null, tool: state.tool === action.tool ? 'none' : action.tool }
    case 'measureStart': {
      const { tool } = state
      const p = isDragTool(tool) ? toImage(state, action.at) : null
      return p && isDragTool(tool)
        ? { ...state, draft: { sliceKey: '', kind: tool, points: [p, p] } }
        : state
    }
    case 'measureMove': {
      const p = isDragTool(state.tool) && state.draft ? toImage(state, action.at) : null
      return p && state.draft
        ? { ...state, draft: { ...state.draft, points: [state.draft.points[0]!, p] } }
        : state
    }
    case 'measureEnd': {
      const { draft } = state
      if (!isDragTool(state.tool) || !draft) return state
      // An ellipse with no width or height (a tap) holds no pixels: nothing to keep.
      const [a, b] = draft.points
      if (draft.kind === 'ellipse' && (a!.x === b!.x || a!.y === b!.y))
        return { ...state, draft: null }
      return commit(state, draft)
    }
    case 'anglePoint': {
      const p = state.tool === 'angle' ? toImage(state, action.at) : null
      if (!p) return state
      const points = [...(state.draft?.points ?? []), p]
      if (points.length === 3) return commit(state, { sliceKey: '', kind: 'angle', points })
      return { ...state, draft: { sliceKey: '', kind: 'angle', points } }
    }
    case 'clearMeasurements':
      return state.measurements.length === 0 ? state : { ...state, measurements: [] }
    case 'probe':
      return action.probe === null && state.probe === null
        ? state
        : { ...state, probe: action.probe }
    case 'toggleInfo':
      return { ...state, showInfo: !state.showInfo }
  }
}
