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
  const a = min * info.rescaleSlope + info.rescaleIntercept
  const b = max * info.rescaleSlope + info.rescaleIntercept
  const low = Math.min(a, b)
  const width = Math.max(1, Math.abs(b - a) + 1)
  return { center: low + width / 2, width }
}

/** The file's first window, else the frame's full range. */
export function defaultWindow(info: ImageInfo, pixels: PixelData): WindowLevel {
  if (!isGrey(info)) return { ...IDENTITY }
  const first = info.windows[0]
  return first ? { center: first.center, width: first.width } : autoWindow(info, pixels)
}

export interface Preset {
  label: string
  window: WindowLevel | 'file' | 'auto'
  fileIndex?: number
}

/** The CT windows (W/L in HU). */
const CT_PRESETS: Preset[] = [
  { label: '肺窗', window: { center: -600, width: 1500 } },
  { label: '纵隔窗', window: { center: 50, width: 350 } },
  { label: '骨窗', window: { center: 500, width: 2000 } },
  { label: '脑窗', window: { center: 40, width: 80 } },
  { label: '腹部', window: { center: 40, width: 400 } },
]

/** CT: 肺窗 纵隔窗 骨窗 脑窗 腹部; other greyscale: the file's windows + 自动; colour: none. */
export function presetsFor(info: ImageInfo): Preset[] {
  if (!isGrey(info)) return []
  if (info.modality?.toUpperCase() === 'CT') return CT_PRESETS.map((p) => ({ ...p }))
  const own: Preset[] = info.windows.map((w, i) => ({
    label: w.label ?? (info.windows.length === 1 ? '默认窗' : `默认窗${i + 1}`),
    window: 'file',
    fileIndex: i,
  }))
  return [...own, { label: '自动', window: 'auto' }]
}

/** A preset's window on this frame. */
export function presetWindow(preset: Preset, info: ImageInfo, pixels: PixelData): WindowLevel {
  if (preset.window === 'auto') return autoWindow(info, pixels)
  if (preset.window === 'file') {
    const w = info.windows[preset.fileIndex ?? 0]
    return w ? { center: w.center, width: w.width } : autoWindow(info, pixels)
  }
  return { ...preset.window }
}
