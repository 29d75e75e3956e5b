import { BROKEN_DATA, ViewerError } from './errors'
import type { ImageInfo, PixelData } from './types'

/** Bytes of one frame as the metadata describes it. */
export function frameByteLength(info: ImageInfo): number {
  return info.rows * info.columns * info.samplesPerPixel * (info.bitsAllocated / 8)
}

function isColour(info: ImageInfo): boolean {
  return info.photometric === 'RGB' || info.photometric === 'YBR_FULL'
}

/**
 * Clears bits above BitsStored (overlays kept in the high bits) and sign-extends signed values,
 * in place, so that every value indexes the renderer's lookup table. A frame already in range
 * (as our server sends them) is only read.
 */
function normaliseStored(
  info: ImageInfo,
  pixels: Uint8Array | Int8Array | Uint16Array | Int16Array,
) {
  const bits = info.bitsStored
  if (bits >= info.bitsAllocated) return
  const mask = (1 << bits) - 1
  if (info.pixelRepresentation === 0) {
    for (let i = 0; i < pixels.length; i++) {
      const v = pixels[i]!
      if (v > mask || v < 0) pixels[i] = v & mask
    }
    return
  }
  const sign = 1 << (bits - 1)
  const min = -sign
  const max = sign - 1
  for (let i = 0; i < pixels.length; i++) {
    const v = pixels[i]!
    if (v < min || v > max) {
      const u = v & mask
      pixels[i] = u & sign ? u - (mask + 1) : u
    }
  }
}

/** PS3.3 C.7.6.3.1.2 YBR_FULL → RGB, rounded and clamped to 8 bits. */
function ybrToRgb(y: number, cb: number, cr: number, out: Uint8Array, at: number) {
  const r = y + 1.402 * (cr - 128)
  const g = y - 0.344136 * (cb - 128) - 0.714136 * (cr - 128)
  const b = y + 1.772 * (cb - 128)
  out[at] = r < 0 ? 0 : r > 255 ? 255 : Math.round(r)
  out[at + 1] = g < 0 ? 0 : g > 255 ? 255 : Math.round(g)
  out[at + 2] = b < 0 ? 0 : b > 255 ? 255 : Math.round(b)
}

/**
 * Frame `frame` (1-based) of `bytes`: either one WADO-RS frame part, or the whole pixel data of a
 * multi-frame instance. Monochrome and palette frames are typed views over `bytes` (masked and
 * sign-extended in place); colour frames come back as interleaved RGB (planar data interleaved,
 * YBR_FULL converted), which is what the renderer reads.
 */
export function framePixels(info: ImageInfo, bytes: ArrayBuffer, frame = 1): PixelData {
  const length = frameByteLength(info)
  const whole = info.numberOfFrames > 1 && bytes.byteLength >= length * info.numberOfFrames
  if (whole && (frame < 1 || frame > info.numberOfFrames)) throw new ViewerError('该图像没有这一帧')
  const offset = whole ? (frame - 1) * length : 0
  if (bytes.byteLength < offset + length) throw new ViewerError(BROKEN_DATA)
  const count = info.rows * info.columns

  if (isColour(info)) {
    const source = new Uint8Array(bytes, offset, length)
    if (info.photometric === 'RGB' && info.planarConfiguration === 0) return source
    const out = new Uint8Array(length)
    const planar = info.planarConfiguration === 1
    for (let i = 0; i < count; i++) {
      const a = planar ? source[i]! : source[i * 3]!
      const b = planar ? source[count + i]! : source[i * 3 + 1]!
      const c = planar ? source[2 * count + i]! : source[i * 3 + 2]!
      if (info.photometric === 'YBR_FULL') ybrToRgb(a, b, c, out, i * 3)
      else {
        out[i * 3] = a
        out[i * 3 + 1] = b
        out[i * 3 + 2] = c
      }
    }
    return out
  }

  const signed = info.pixelRepresentation === 1
  const pixels =
    info.bitsAllocated === 8
      ? signed
        ? new Int8Array(bytes, offset, count)
        : new Uint8Array(bytes, offset, count)
      : signed
        ? new Int16Array(bytes, offset, count)
        : new Uint16Array(bytes, offset, count)
  normaliseStored(info, pixels)
  return pixels
}
