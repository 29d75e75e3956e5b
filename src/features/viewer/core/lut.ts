import type { ImageInfo, Lut, VoiFunction, WindowLevel } from './types'

/*
 * The grey pipeline's three steps, one value at a time (the renderer folds them into its table):
 * stored value → modality value (Modality LUT Sequence, else rescale; PS3.3 C.11.1) → VOI (a VOI
 * LUT Sequence entry, else the window under the image's VOI LUT Function; PS3.3 C.11.2) → 0–255.
 */

/** A lookup's entry for `input`: below the first mapped value the first entry, above the table the last. */
export function lutEntry(lut: Lut, input: number): number {
  let at = Math.round(input) - lut.firstMapped
  const last = lut.data.length - 1
  at = at < 0 ? 0 : at > last ? last : at
  return lut.data[at]!
}

/** Stored value → modality value (HU for CT): the Modality LUT Sequence when present, else rescale. */
export function modalityValue(info: ImageInfo, stored: number): number {
  const lut = info.modalityLut
  return lut ? lutEntry(lut, stored) : stored * info.rescaleSlope + info.rescaleIntercept
}

/** PS3.3 C.11.2.1.2.1 (LINEAR) with output 0–255 (unrounded). */
export function voiLinear(x: number, center: number, width: number): number {
  if (width <= 1) return x > center - 0.5 ? 255 : 0
  const lower = center - 0.5 - (width - 1) / 2
  const upper = center - 0.5 + (width - 1) / 2
  if (x <= lower) return 0
  if (x > upper) return 255
  return ((x - (center - 0.5)) / (width - 1) + 0.5) * 255
}

/** PS3.3 C.11.2.1.3.2 (LINEAR_EXACT): width > 0, no half-level offsets. */
export function voiLinearExact(x: number, center: number, width: number): number {
  if (x <= center - width / 2) return 0
  if (x > center + width / 2) return 255
  return ((x - center) / width + 0.5) * 255
}

/** PS3.3 C.11.2.1.3.1 (SIGMOID). */
export function voiSigmoid(x: number, center: number, width: number): number {
  return 255 / (1 + Math.exp((-4 * (x - center)) / width))
}

/** The VOI function a window is shown with: its own, else the image's VOI LUT Function. */
export function functionOf(info: ImageInfo, window: WindowLevel): VoiFunction {
  return window.fn ?? info.voiFunction ?? 'LINEAR'
}

/** The VOI LUT a window names (a preset of the file's VOI LUT Sequence), if any. */
export function voiLutOf(info: ImageInfo, window: WindowLevel): Lut | null {
  return window.voiLut !== undefined ? (info.voiLuts?.[window.voiLut] ?? null) : null
}

/** Modality value → display 0–255 (unrounded) under `window`. */
export function voiValue(info: ImageInfo, window: WindowLevel, x: number): number {
  const lut = voiLutOf(info, window)
  if (lut) return (lutEntry(lut, x) / lut.max) * 255
  const { center, width } = window
  switch (functionOf(info, window)) {
    case 'SIGMOID':
      return voiSigmoid(x, center, width)
    case 'LINEAR_EXACT':
      return voiLinearExact(x, center, width)
    default:
      return voiLinear(x, center, width)
  }
}

/**
 * Outside which modality values the VOI output is flat (rounds to 0 or 255), or null when it is
 * not a monotonic function of the window (a VOI LUT may be any shape). The sigmoid reaches
 * 255/(1+e^8) < 0.1 two widths from the centre.
 */
export function voiEdges(info: ImageInfo, window: WindowLevel): [number, number] | null {
  if (voiLutOf(info, window)) return null
  const { center, width } = window
  switch (functionOf(info, window)) {
    case 'SIGMOID':
      return [center - 2 * width, center + 2 * width]
    case 'LINEAR_EXACT':
      return [center - width / 2, center + width / 2]
    default:
      return [center - 0.5 - (width - 1) / 2, center - 0.5 + (width - 1) / 2]
  }
}

/** A window spanning a VOI LUT's inputs: where a drag that starts on a VOI LUT preset begins. */
export function lutWindow(lut: Lut, index: number): WindowLevel {
  return { center: lut.firstMapped + lut.data.length / 2, width: lut.data.length, voiLut: index }
}
