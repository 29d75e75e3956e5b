import { lutWindow, modalityValue } from './lut'
import type { ImageInfo, PixelData, WindowLevel } from './types'

/** Colour windows are per channel, and this one maps 0..255 onto itself. */
const IDENTITY: WindowLevel = { center: 128, width: 256 }

function isGrey(info: ImageInfo): boolean {
  return info.photometric === 'MONOCHROME1' || info.photometric === 'MONOCHROME2'
}

/**
 * The frame's full rescaled range, as the server's /rendered shows a file without a window (so
 * the raw frame replaces the preview without a jump): min → 0, max → 255 under C.11.2.1.2.1.
 */
export function autoWindow(info: ImageInfo, pixels: PixelData): WindowLevel {
  if (!isGrey(info)) return { ...IDENTITY }
  let min = Infinity
  let max = -Infinity
  for (let i = 0; i < pixels.length; i++) {
    const v = pixels[i]!
    if (v < min) min = v
    if (v > max) max = v
  }
  if (!Number.isFinite(min)) min = max = 0
  let low: number
  let high: number
  const lut = info.modalityLut
  if (lut) {
    // A modality LUT need not be monotonic: the outputs of the pixels present.
    low = Infinity
    high = -Infinity
    for (let i = 0; i < pixels.length; i++) {
      const m = modalityValue(info, pixels[i]!)
      if (m < low) low = m
      if (m > high) high = m
    }
    if (!Number.isFinite(low)) low = high = modalityValue(info, 0)
  } else {
    const a = modalityValue(info, min)
    const b = modalityValue(info, max)
    low = Math.min(a, b)
    high = Math.max(a, b)
  }
  const width = Math.max(1, high - low + 1)
  // The full range means linear (as the server's /rendered), whatever the file's windows use.
  const linear = info.voiFunction && info.voiFunction !== 'LINEAR' ? { fn: 'LINEAR' as const } : {}
  return { center: low + width / 2, width, ...linear }
}

/** The file's first window, else its first VOI LUT, else the frame's full range. */
export function defaultWindow(info: ImageInfo, pixels: PixelData): WindowLevel {
  if (!isGrey(info)) return { ...IDENTITY }
  const first = info.windows[0]
  if (first) return { center: first.center, width: first.width }
  const lut = info.voiLuts?.[0]
  return lut ? lutWindow(lut, 0) : autoWindow(info, pixels)
}

export interface Preset {
  label: string
  window: WindowLevel | 'file' | 'auto' | 'lut'
  fileIndex?: number
  /** For 'lut': which of ImageInfo.voiLuts. */
  lutIndex?: number
}

/** The file's VOI LUTs (PS3.3 C.11.2.1.1), named by their LUT Explanation. */
function lutPresets(info: ImageInfo): Preset[] {
  const luts = info.voiLuts ?? []
  return luts.map((lut, i) => ({
    label: lut.label ?? (luts.length === 1 ? '查找表' : `查找表${i + 1}`),
    window: 'lut',
    lutIndex: i,
  }))
}

/** The CT windows (W/L in HU). */
const CT_PRESETS: Preset[] = [
  { label: '肺窗', window: { center: -600, width: 1500 } },
  { label: '纵隔窗', window: { center: 50, width: 350 } },
  { label: '骨窗', window: { center: 500, width: 2000 } },
  { label: '脑窗', window: { center: 40, width: 80 } },
  { label: '腹部', window: { center: 40, width: 400 } },
]

/**
 * CT: 肺窗 纵隔窗 骨窗 脑窗 腹部 (+ the file's VOI LUTs); other greyscale: the file's windows, its
 * VOI LUTs + 自动; colour: none.
 */
export function presetsFor(info: ImageInfo): Preset[] {
  if (!isGrey(info)) return []
  if (info.modality?.toUpperCase() === 'CT') {
    return [...CT_PRESETS.map((p) => ({ ...p })), ...lutPresets(info)]
  }
  const own: Preset[] = info.windows.map((w, i) => ({
    label: w.label ?? (info.windows.length === 1 ? '默认窗' : `默认窗${i + 1}`),
    window: 'file',
    fileIndex: i,
  }))
  return [...own, ...lutPresets(info), { label: '自动', window: 'auto' }]
}

/** A preset's window on this frame. */
export function presetWindow(preset: Preset, info: ImageInfo, pixels: PixelData): WindowLevel {
  if (preset.window === 'auto') return autoWindow(info, pixels)
  if (preset.window === 'lut') {
    const lut = info.voiLuts?.[preset.lutIndex ?? 0]
    return lut ? lutWindow(lut, preset.lutIndex ?? 0) : autoWindow(info, pixels)
  }
  if (preset.window === 'file') {
    const w = info.windows[preset.fileIndex ?? 0]
    return w ? { center: w.center, width: w.width } : autoWindow(info, pixels)
  }
  return { ...preset.window }
}
