/*
 * The demo's measurement (演示算法，非医疗器械): lung volume and density of a chest CT by thresholds,
 * slice by slice, deterministic. Nothing here detects or judges anything; it counts voxels.
 *
 * - HU = stored × RescaleSlope + RescaleIntercept.
 * - Air outside the body: every voxel below AIR_BELOW_HU that is connected (4-neighbours, within the
 *   slice) to the image border, found by a flood fill from the border. The table, the air around the
 *   patient and padding outside the scan's circle (−2000, −3024) are all in it.
 * - Lung: the voxels from LUNG_MIN_HU to LUNG_MAX_HU that are not outside air. The trachea, main
 *   bronchi and any gas inside the body count too (a threshold cannot tell them apart).
 * - Volume: lung voxels × row spacing × column spacing × slice spacing; mean lung density: the mean
 *   HU of the lung voxels; LAA%-950: the share of lung voxels below −950 HU (an emphysema index).
 */

export const AIR_BELOW_HU = -400
export const LUNG_MIN_HU = -1024
export const LUNG_MAX_HU = -400
export const LAA_BELOW_HU = -950

export interface SliceCounts {
  /** Lung voxels of the slice. */
  lung: number
  /** Sum of their HU. */
  sumHu: number
  /** Those below LAA_BELOW_HU. */
  lowAttenuation: number
}

/** Counts one slice's lung voxels. `hu` is row-major, rows × columns. */
export function measureSlice(hu: Float32Array, rows: number, columns: number): SliceCounts {
  const n = rows * columns
  const outside = new Uint8Array(n)
  const stack = new Int32Array(n)
  let top = 0
  const seed = (i: number) => {
    if (outside[i] === 0 && hu[i]! < AIR_BELOW_HU) {
      outside[i] = 1
      stack[top++] = i
    }
  }
  for (let c = 0; c < columns; c++) {
    seed(c)
    seed((rows - 1) * columns + c)
  }
  for (let r = 0; r < rows; r++) {
    seed(r * columns)
    seed(r * columns + columns - 1)
  }
  while (top > 0) {
    const i = stack[--top]!
    const r = Math.floor(i / columns)
    const c = i - r * columns
    if (c > 0) seed(i - 1)
    if (c < columns - 1) seed(i + 1)
    if (r > 0) seed(i - columns)
    if (r < rows - 1) seed(i + columns)
  }
  let lung = 0
  let sumHu = 0
  let lowAttenuation = 0
  for (let i = 0; i < n; i++) {
    if (outside[i] === 1) continue
    const value = hu[i]!
    if (value < LUNG_MIN_HU || value > LUNG_MAX_HU) continue
    lung += 1
    sumHu += value
    if (value < LAA_BELOW_HU) lowAttenuation += 1
  }
  return { lung, sumHu, lowAttenuation }
}

/** Stored values → HU (Float32, so a fractional slope keeps its precision). */
export function toHu(
  stored: ArrayLike<number>,
  slope: number,
  intercept: number,
  into?: Float32Array,
): Float32Array {
  const hu = into && into.length === stored.length ? into : new Float32Array(stored.length)
  for (let i = 0; i < stored.length; i++) hu[i] = stored[i]! * slope + intercept
  return hu
}

export interface LungMeasurement {
  lungVoxels: number
  volumeCm3: number
  meanHu: number
  /** 0–100 */
  laa950Percent: number
}

/** Sums slice counts into the study's figures; voxel size in mm (row, column, slice spacing). */
export function summarise(
  counts: readonly SliceCounts[],
  voxelMm: [number, number, number],
): LungMeasurement {
  let lung = 0
  let sum = 0
  let low = 0
  for (const c of counts) {
    lung += c.lung
    sum += c.sumHu
    low += c.lowAttenuation
  }
  const voxelCm3 = (voxelMm[0] * voxelMm[1] * voxelMm[2]) / 1000
  return {
    lungVoxels: lung,
    volumeCm3: lung * voxelCm3,
    meanHu: lung > 0 ? sum / lung : 0,
    laa950Percent: lung > 0 ? (low / lung) * 100 : 0,
  }
}

/**
 * The distance between neighbouring slices in mm: from the image positions along the slice normal
 * (the median step, so one missing slice does not change it), else SpacingBetweenSlices, else
 * SliceThickness; null when none says or the positions coincide.
 */
export function sliceSpacing(
  slices: readonly {
    imagePosition: number[] | null
    imageOrientation: number[] | null
    spacingBetweenSlices: number | null
    sliceThickness: number | null
  }[],
): number | null {
  const orientation = slices[0]?.imageOrientation
  const positioned = orientation?.length === 6 && slices.every((s) => s.imagePosition?.length === 3)
  if (positioned && slices.length > 1) {
    const [a, b, c, d, e, f] = orientation as [number, number, number, number, number, number]
    const normal = [b * f - c * e, c * d - a * f, a * e - b * d] as const
    const along = slices
      .map((s) => {
        const p = s.imagePosition!
        return p[0]! * normal[0] + p[1]! * normal[1] + p[2]! * normal[2]
      })
      .sort((x, y) => x - y)
    const steps = along.slice(1).map((value, i) => value - along[i]!)
    steps.sort((x, y) => x - y)
    const median = steps[Math.floor(steps.length / 2)]!
    if (median > 0.01) return median
  }
  const stated = slices[0]?.spacingBetweenSlices ?? slices[0]?.sliceThickness ?? null
  return stated !== null && stated > 0 ? stated : null
}
