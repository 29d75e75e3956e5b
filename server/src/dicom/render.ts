/**
 * Server-side rendering of one frame for WADO-RS /rendered and /thumbnail: modality LUT (rescale),
 * VOI linear window (PS3.3 C.11.2.1.2), MONOCHROME1 inversion, RGB passed through, optional
 * downscale, then PNG (node:zlib) or JPEG (libjpeg-turbo's encoder).
 */
import { encodeJpeg } from './codecs'
import type { Frame, MonoFrame } from './frames'
import { encodePng } from './png'

export interface RenderOptions {
  /** Window in rescaled (modality) units, e.g. HU for CT. Without one the frame's full range is used. */
  windowCenter?: number
  windowWidth?: number
  rescaleSlope?: number
  rescaleIntercept?: number
  /** Longest side of the output in pixels (thumbnails); never upscales. */
  size?: number
  /** JPEG quality 1–100. */
  quality?: number
}

export interface Rendered {
  contentType: 'image/png' | 'image/jpeg'
  body: Buffer
  width: number
  height: number
}

/** 8-bit output pixels (grey or interleaved RGB) before encoding. */
export interface RenderedPixels {
  pixels: Uint8Array
  width: number
  height: number
  channels: 1 | 3
}

export function renderPixels(frame: Frame, options: RenderOptions = {}): RenderedPixels {
  const base =
    frame.kind === 'rgb'
      ? { pixels: frame.pixels, width: frame.columns, height: frame.rows, channels: 3 as const }
      : {
          pixels: windowMono(frame, options),
          width: frame.columns,
          height: frame.rows,
          channels: 1 as const,
        }
  return options.size ? downscale(base, options.size) : base
}

export async function renderPng(frame: Frame, options: RenderOptions = {}): Promise<Rendered> {
  const out = renderPixels(frame, options)
  return {
    contentType: 'image/png',
    body: encodePng(out.pixels, out.width, out.height, out.channels),
    width: out.width,
    height: out.height,
  }
}

export async function renderJpeg(frame: Frame, options: RenderOptions = {}): Promise<Rendered> {
  const out = renderPixels(frame, options)
  const body = await encodeJpeg(
    out.pixels,
    out.width,
    out.height,
    out.channels,
    options.quality ?? 90,
  )
  return {
    contentType: 'image/jpeg',
    body: Buffer.from(body),
    width: out.width,
    height: out.height,
  }
}

/**
 * Stored value → display byte through one lookup table over the whole stored range (at most 65 536
 * entries), so the per-pixel work is a single index whatever the window and rescale.
 */
function windowMono(frame: MonoFrame, options: RenderOptions): Uint8Array {
  const slope = options.rescaleSlope ?? 1
  const intercept = options.rescaleIntercept ?? 0
  const { pixels } = frame
  let min = Infinity
  let max = -Infinity
  for (let i = 0; i < pixels.length; i++) {
    const v = pixels[i]
    if (v < min) min = v
    if (v > max) max = v
  }
  if (!Number.isFinite(min)) min = max = 0
  let center = options.windowCenter
  let width = options.windowWidth
  if (center === undefined || width === undefined || !(width >= 1)) {
    // No usable window: show the frame's full rescaled range.
    const low = Math.min(min * slope + intercept, max * slope + intercept)
    const high = Math.max(min * slope + intercept, max * slope + intercept)
    width = Math.max(1, high - low + 1)
    center = low + width / 2
  }
  const invert = frame.photometric === 'MONOCHROME1'
  const lut = new Uint8Array(max - min + 1)
  for (let stored = min; stored <= max; stored++) {
    const y = voiLinear(stored * slope + intercept, center, width)
    lut[stored - min] = invert ? 255 - y : y
  }
  const out = new Uint8Array(pixels.length)
  for (let i = 0; i < pixels.length; i++) out[i] = lut[pixels[i] - min]
  return out
}

/** PS3.3 C.11.2.1.2.1, with output range 0–255. */
export function voiLinear(x: number, center: number, width: number): number {
  if (width <= 1) return x > center - 0.5 ? 255 : 0
  const lower = center - 0.5 - (width - 1) / 2
  const upper = center - 0.5 + (width - 1) / 2
  if (x <= lower) return 0
  if (x > upper) return 255
  return Math.round(((x - (center - 0.5)) / (width - 1) + 0.5) * 255)
}

/** Area average: each output pixel is the mean of the source block it covers (no aliasing). */
function downscale(image: RenderedPixels, size: number): RenderedPixels {
  const scale = Math.min(1, size / Math.max(image.width, image.height))
  if (scale >= 1) return image
  const width = Math.max(1, Math.round(image.width * scale))
  const height = Math.max(1, Math.round(image.height * scale))
  const { channels } = image
  const out = new Uint8Array(width * height * channels)
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor((y * image.height) / height)
    const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * image.height) / height))
    for (let x = 0; x < width; x++) {
      const x0 = Math.floor((x * image.width) / width)
      const x1 = Math.max(x0 + 1, Math.floor(((x + 1) * image.width) / width))
      for (let c = 0; c < channels; c++) {
        let sum = 0
        for (let sy = y0; sy < y1; sy++) {
          for (let sx = x0; sx < x1; sx++)
            sum += image.pixels[(sy * image.width + sx) * channels + c]
        }
        out[(y * width + x) * channels + c] = Math.round(sum / ((y1 - y0) * (x1 - x0)))
      }
    }
  }
  return { pixels: out, width, height, channels }
}

/**
 * Default render options for an instance: its first window preset (the modality's choice) and its
 * rescale; callers override the window (viewer presets, /rendered?window=).
 */
export function renderOptionsFor(
  image: {
    windowCenter: number[]
    windowWidth: number[]
    rescaleSlope: number
    rescaleIntercept: number
  },
  overrides: RenderOptions = {},
): RenderOptions {
  return {
    windowCenter: image.windowCenter[0],
    windowWidth: image.windowWidth[0],
    rescaleSlope: image.rescaleSlope,
    rescaleIntercept: image.rescaleIntercept,
    ...overrides,
  }
}
