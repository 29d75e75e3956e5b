import { parseInstanceMetadata, type ImageInfo } from '../core'
import { syntheticJson, type SyntheticOptions } from '../core/__tests__/support'
import type { Slice } from '../hooks/frame-loader'
import { initialViewState, reduceView, type ViewAction, type ViewState } from '../view-state'

/** A CT slice of `columns`×`rows` (HU = stored − 1024, 0.5 mm pixels) parsed as the app parses it. */
export function ctInfo(n: number, options: SyntheticOptions = {}): ImageInfo {
  return parseInstanceMetadata(
    syntheticJson({
      rows: 100,
      columns: 200,
      modality: 'CT',
      intercept: -1024,
      slope: 1,
      windows: [[40, 400]],
      pixelSpacing: [0.5, 0.5],
      sop: `1.2.9.${n}`,
      instanceNumber: n,
      ...options,
    }),
  )
}

export function ctSlices(count: number, options: SyntheticOptions = {}): Slice[] {
  return Array.from({ length: count }, (_, i) => ({ info: ctInfo(i + 1, options), frame: 1 }))
}

/** The stage of a 390×500 phone screen: a 200×100 image fits at 1.95 screen pixels a pixel. */
export const VIEW = { width: 390, height: 500 }

/** A view state of `slices` on a measured stage, after `actions`. */
export function viewOf(slices: Slice[], index = 0, ...actions: ViewAction[]): ViewState {
  return [{ type: 'stage', view: VIEW } as ViewAction, ...actions].reduce(
    reduceView,
    initialViewState(slices, index),
  )
}
