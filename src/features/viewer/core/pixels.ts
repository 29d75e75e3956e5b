import { BROKEN_DATA, ViewerError } from './errors'
import type { ImageInfo, PixelData } from './types'

/**
 * Bytes of one frame as the metadata describes it. YBR_FULL_422 is counted at 2 bytes per pixel
 * (Y1 Y2 Cb Cr per pair, as stored natively); framePixels also accepts it at 3 (a server that
 * decoded it to full-resolution YBR without changing the metadata).
 */
export function frameByteLength(info: ImageInfo): number {
  const samples = info.photometric === 'YBR_FULL_422' ? 2 : info.samplesPerPixel
  return info.rows * info.columns * samples * (info.bitsAllocated / 8)
}

function isColour(info: ImageInfo): boolean {
  return info.samplesPerPixel === 3
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
  if (isColour(info)) return colourPixels(info, bytes, frame)
  const length = frameByteLength(info)
  const whole = info.numberOfFrames > 1 && bytes.byteLength >= length * info.numberOfFrames
  if (whole && (frame < 1 || frame > info.numberOfFrames)) throw new ViewerError('该图像没有这一帧')
  const offset = whole ? (frame - 1) * length : 0
  if (bytes.byteLength < offset + length) throw new ViewerError(BROKEN_DATA)
  const count = info.rows * info.columns

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

/**
 * Colour frames as interleaved 8-bit RGB: planar data interleaved, YBR_FULL (and YBR_FULL_422,
 * subsampled or not) converted, 16-bit samples reduced to their top 8 stored bits for display
 * (the colours are the file's; a window then applies per channel as for 8 bits).
 */
function colourPixels(info: ImageInfo, bytes: ArrayBuffer, frame: number): Uint8Array {
  const count = info.rows * info.columns
  const full = count * 3 * (info.bitsAllocated / 8)
  const frames = info.numberOfFrames
  // YBR_FULL_422 as described (2 bytes a pixel) or already expanded to 3 by a server that left
  // the metadata alone: told by the size (one frame or all of them; an odd size padded by one).
  const size = bytes.byteLength
  const expanded = [full, full * frames].some((n) => size === n || size === n + 1)
  const subsampled = info.photometric === 'YBR_FULL_422' && !expanded
  const length = subsampled ? count * 2 : full
  const whole = frames > 1 && bytes.byteLength >= length * frames
  if (whole && (frame < 1 || frame > frames)) throw new ViewerError('该图像没有这一帧')
  const offset = whole ? (frame - 1) * length : 0
  if (bytes.byteLength < offset + length) throw new ViewerError(BROKEN_DATA)
  const ybr = info.photometric === 'YBR_FULL' || info.photometric === 'YBR_FULL_422'

  if (subsampled) {
    const source = new Uint8Array(bytes, offset, length)
    const out = new Uint8Array(count * 3)
    for (let pixel = 0, at = 0; pixel < count; pixel += 2, at += 4) {
      const cb = source[at + 2]!
      const cr = source[at + 3]!
      ybrToRgb(source[at]!, cb, cr, out, pixel * 3)
      if (pixel + 1 < count) ybrToRgb(source[at + 1]!, cb, cr, out, pixel * 3 + 3)
    }
    return out
  }

  let samples: Uint8Array
  if (info.bitsAllocated === 16) {
    // Little-endian words, masked to BitsStored, top 8 of those bits kept.
    const words = new DataView(bytes, offset, length)
    const shift = Math.max(0, info.bitsStored - 8)
    const mask = 2 ** info.bitsStored - 1
    samples = new Uint8Array(count * 3)
    for (let i = 0; i < count * 3; i++) {
      samples[i] = ((words.getUint16(i * 2, true) & mask) >>> shift) & 0xff
    }
  } else {
    samples = new Uint8Array(bytes, offset, length)
  }
  if (info.photometric === 'RGB' && info.planarConfiguration === 0) return samples
  const out = new Uint8Array(count * 3)
  const planar = info.planarConfiguration === 1
  for (let i = 0; i < count; i++) {
    const a = planar ? samples[i]! : samples[i * 3]!
    const b = planar ? samples[count + i]! : samples[i * 3 + 1]!
    const c = planar ? samples[2 * count + i]! : samples[i * 3 + 2]!
    if (ybr) ybrToRgb(a, b, c, out, i * 3)
    else {
      out[i * 3] = a
      out[i * 3 + 1] = b
      out[i * 3 + 2] = c
    }
  }
  return out
}
