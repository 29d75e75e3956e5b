import * as dicomParser from 'dicom-parser'
import {
  decodeJpeg2000,
  decodeJpeg8,
  decodeJpegLossless,
  decodeJpegLs,
  type DecodedCodecFrame,
} from './codecs'
import type { DataSet, DicomInstance, Element, ImageInfo } from './parse'
import { expandPalette, readPalette } from './palette'
import { decodeRleFrame } from './rle'
import { codecFor, TS, type Codec } from './transfer-syntax'

/**
 * The one pixel format clients get, whatever syntax arrived:
 * - monochrome: one sample per pixel, little-endian, Uint8Array (8-bit unsigned), Uint16Array or
 *   Int16Array (everything else, sign-extended from BitsStored, overlay bits above it cleared);
 *   modality LUT (rescale) NOT applied, so the values are the stored ones and slope/intercept apply;
 * - colour: interleaved RGB, Uint8Array. YBR is converted, planar data interleaved, and PALETTE COLOR
 *   expanded through its palette — the app then has a single render path (architecture.md).
 */
export interface MonoFrame {
  kind: 'mono'
  rows: number
  columns: number
  photometric: 'MONOCHROME1' | 'MONOCHROME2'
  bitsStored: number
  signed: boolean
  pixels: Uint8Array | Uint16Array | Int16Array
}

export interface RgbFrame {
  kind: 'rgb'
  rows: number
  columns: number
  pixels: Uint8Array
}

export type Frame = MonoFrame | RgbFrame

/** Shown on a study's preview in place of an image: the study itself is still stored and listed. */
export const UNSUPPORTED_PREVIEW_MESSAGE = '暂不支持该图像格式的预览'
export const DECODE_FAILED_MESSAGE = '图像数据损坏，无法预览'
export const NO_PIXELS_MESSAGE = '该文件不含图像'
export const NO_SUCH_FRAME_MESSAGE = '该图像没有这一帧'

export interface UnsupportedTransferSyntax {
  ok: false
  reason: 'UnsupportedTransferSyntax'
  transferSyntaxUid: string
  message: typeof UNSUPPORTED_PREVIEW_MESSAGE
  /** For logs, not users. */
  detail: string
}

export interface DecodeFailed {
  ok: false
  reason: 'DecodeFailed' | 'NoPixelData' | 'NoSuchFrame'
  transferSyntaxUid: string
  message: string
  detail: string
}

export interface DecodeOptions {
  /**
   * 0-based frame indices to decode (WADO-RS /frames/{n} asks for one of 96); all frames by default.
   * Only the asked frames are decompressed.
   */
  frames?: number[]
}

export type DecodeResult = { ok: true; frames: Frame[] } | UnsupportedTransferSyntax | DecodeFailed

function unsupported(transferSyntaxUid: string, detail: string): UnsupportedTransferSyntax {
  return {
    ok: false,
    reason: 'UnsupportedTransferSyntax',
    transferSyntaxUid,
    message: UNSUPPORTED_PREVIEW_MESSAGE,
    detail,
  }
}

/**
 * Decode every frame. Never throws: an instance we cannot show answers a typed result, so one
 * exotic file never fails the study it belongs to.
 */
export async function decodeFrames(
  instance: DicomInstance,
  options: DecodeOptions = {},
): Promise<DecodeResult> {
  const ts = instance.transferSyntaxUid
  const image = instance.image
  if (!image) {
    return {
      ok: false,
      reason: 'NoPixelData',
      transferSyntaxUid: ts,
      message: NO_PIXELS_MESSAGE,
      detail: 'no pixel data',
    }
  }
  const codec = codecFor(ts)
  if (!codec) return unsupported(ts, `transfer syntax ${ts}`)
  const layoutProblem = unsupportedLayout(image, codec)
  if (layoutProblem) return unsupported(ts, layoutProblem)
  try {
    const element = instance.dataSet.elements.x7fe00010
    const encoded =
      codec === 'native'
        ? undefined
        : encapsulatedFrames(instance.dataSet, element, image.numberOfFrames)
    const wanted = options.frames ?? Array.from({ length: image.numberOfFrames }, (_, i) => i)
    const missing = wanted.find((i) => !Number.isInteger(i) || i < 0 || i >= image.numberOfFrames)
    if (missing !== undefined) {
      return {
        ok: false,
        reason: 'NoSuchFrame',
        transferSyntaxUid: ts,
        message: NO_SUCH_FRAME_MESSAGE,
        detail: `frame index ${missing} of ${image.numberOfFrames}`,
      }
    }
    const frames: Frame[] = []
    for (const index of wanted) {
      const samples = encoded
        ? await decodeEncapsulated(codec, encoded[index], image)
        : nativeFrame(instance.dataSet, element, image, index, ts === TS.explicitBig)
      frames.push(toCanonical(samples, image, instance.dataSet, codec))
    }
    return { ok: true, frames }
  } catch (error) {
    return {
      ok: false,
      reason: 'DecodeFailed',
      transferSyntaxUid: ts,
      message: DECODE_FAILED_MESSAGE,
      detail: error instanceof Error ? error.message : String(error),
    }
  }
}

/** Layouts the codecs can carry but our canonical format does not (1-bit, 32-bit, float). */
function unsupportedLayout(image: ImageInfo, codec: Codec): string | undefined {
  if (image.bitsAllocated !== 8 && image.bitsAllocated !== 16) {
    return `BitsAllocated ${image.bitsAllocated}`
  }
  if (image.samplesPerPixel !== 1 && image.samplesPerPixel !== 3) {
    return `SamplesPerPixel ${image.samplesPerPixel}`
  }
  // 16-bit colour is served reduced to 8 bits (toCanonical); subsampled 16-bit YBR is not met.
  if (image.samplesPerPixel === 3 && image.bitsAllocated === 16) {
    if (image.photometricInterpretation === 'YBR_FULL_422' && codec === 'native') {
      return '16-bit YBR_FULL_422'
    }
  }
  if (codec === 'jpeg8' && image.bitsAllocated !== 8) return 'JPEG with more than 8 bits'
  return undefined
}

/** Stored frame bytes of an uncompressed instance, little-endian. */
function nativeFrame(
  dataSet: DataSet,
  element: Element,
  image: ImageInfo,
  index: number,
  bigEndian: boolean,
): Uint8Array {
  const bytesPerSample = image.bitsAllocated / 8
  // Native YBR_FULL_422 stores two bytes per pixel (Y1 Y2 Cb Cr per pair), not three.
  const samplesPerPixel =
    image.photometricInterpretation === 'YBR_FULL_422' ? 2 : image.samplesPerPixel
  const size = image.rows * image.columns * samplesPerPixel * bytesPerSample
  const start = element.dataOffset + index * size
  if (
    start + size > element.dataOffset + element.length ||
    start + size > dataSet.byteArray.length
  ) {
    throw new Error(`frame ${index + 1} lies beyond the pixel data`)
  }
  const bytes = dataSet.byteArray.subarray(start, start + size)
  if (!bigEndian || bytesPerSample === 1) return bytes
  const swapped = new Uint8Array(size)
  for (let i = 0; i < size; i += 2) {
    swapped[i] = bytes[i + 1]
    swapped[i + 1] = bytes[i]
  }
  return swapped
}

/**
 * Compressed frames from the fragments (PS3.5 A.4): the basic offset table when it lists every frame,
 * else one fragment per frame, else fragments grouped at each JPEG/JPEG 2000 start-of-codestream marker.
 */
export function encapsulatedFrames(
  dataSet: DataSet,
  element: Element,
  numberOfFrames: number,
): Uint8Array[] {
  const fragments = element.fragments ?? []
  if (fragments.length === 0) throw new Error('encapsulated pixel data without fragments')
  if (numberOfFrames === 1) {
    return [
      dicomParser.readEncapsulatedPixelDataFromFragments(dataSet, element, 0, fragments.length),
    ]
  }
  const table = element.basicOffsetTable ?? []
  if (table.length === numberOfFrames) {
    return Array.from({ length: numberOfFrames }, (_, i) =>
      dicomParser.readEncapsulatedImageFrame(dataSet, element, i),
    )
  }
  if (fragments.length === numberOfFrames) {
    return fragments.map((fragment) =>
      dataSet.byteArray.subarray(fragment.position, fragment.position + fragment.length),
    )
  }
  const starts: number[] = []
  fragments.forEach((fragment, i) => {
    const a = dataSet.byteArray[fragment.position]
    const b = dataSet.byteArray[fragment.position + 1]
    if (a === 0xff && (b === 0xd8 || b === 0x4f)) starts.push(i)
  })
  if (starts.length !== numberOfFrames) {
    throw new Error(`${fragments.length} fragments do not split into ${numberOfFrames} frames`)
  }
  return starts.map((start, i) =>
    dicomParser.readEncapsulatedPixelDataFromFragments(
      dataSet,
      element,
      start,
      (starts[i + 1] ?? fragments.length) - start,
    ),
  )
}

async function decodeEncapsulated(
  codec: Codec,
  encoded: Uint8Array,
  image: ImageInfo,
): Promise<Uint8Array> {
  const bytesPerSample = image.bitsAllocated / 8
  switch (codec) {
    case 'rle':
      return decodeRleFrame(
        encoded,
        image.rows,
        image.columns,
        image.samplesPerPixel,
        image.bitsAllocated,
      )
    case 'jpegLossless':
      return decodeJpegLossless(
        encoded,
        image.rows * image.columns * image.samplesPerPixel * bytesPerSample,
      )
    case 'jpeg8':
      return checked(await decodeJpeg8(encoded), image)
    case 'jpegLs':
      return checked(await decodeJpegLs(encoded), image)
    case 'jpeg2000':
      return checked(await decodeJpeg2000(encoded), image)
    default:
      throw new Error(`codec ${codec} is not encapsulated`)
  }
}

/** A codestream whose size disagrees with the header would otherwise be read out of bounds. */
function checked(frame: DecodedCodecFrame, image: ImageInfo): Uint8Array {
  if (
    frame.width !== image.columns ||
    frame.height !== image.rows ||
    frame.componentCount !== image.samplesPerPixel
  ) {
    throw new Error(
      `codestream ${frame.width}x${frame.height}x${frame.componentCount} differs from header ${image.columns}x${image.rows}x${image.samplesPerPixel}`,
    )
  }
  return frame.bytes
}

function toCanonical(samples: Uint8Array, image: ImageInfo, dataSet: DataSet, codec: Codec): Frame {
  const { rows, columns } = image
  const pixelCount = rows * columns
  const photometric = image.photometricInterpretation
  if (photometric === 'PALETTE COLOR') {
    const indices =
      image.bitsAllocated === 8
        ? samples.subarray(0, pixelCount)
        : littleEndian16(samples, pixelCount)
    return { kind: 'rgb', rows, columns, pixels: expandPalette(indices, readPalette(dataSet)) }
  }
  if (image.samplesPerPixel === 3) {
    // 16-bit colour (RGB from film scanners and microscopes): each sample's top 8 stored bits,
    // so the one colour format stays 8-bit RGB; the layout and colour space are handled below.
    if (image.bitsAllocated === 16)
      samples = topEightBits(samples, pixelCount * 3, image.bitsStored)
    // Codecs hand back interleaved RGB (libjpeg and openjpeg undo YCbCr themselves); native and RLE
    // data keep the stored layout and colour space.
    const fromCodec =
      codec === 'jpeg8' || codec === 'jpeg2000' || codec === 'jpegLs' || codec === 'jpegLossless'
    const planar = codec === 'native' && image.planarConfiguration === 1
    let rgb = planar
      ? interleave(samples, pixelCount)
      : new Uint8Array(samples.subarray(0, pixelCount * 3))
    if (!fromCodec && photometric === 'YBR_FULL') rgb = ybrFullToRgb(rgb)
    if (!fromCodec && photometric === 'YBR_FULL_422') rgb = ybr422ToRgb(samples, rows, columns)
    return { kind: 'rgb', rows, columns, pixels: rgb }
  }
  const signed = image.pixelRepresentation === 1
  const mono = photometric === 'MONOCHROME1' ? 'MONOCHROME1' : 'MONOCHROME2'
  const base = {
    kind: 'mono' as const,
    rows,
    columns,
    photometric: mono as MonoFrame['photometric'],
    bitsStored: image.bitsStored,
    signed,
  }
  if (image.bitsAllocated === 8 && !signed) {
    return { ...base, pixels: new Uint8Array(samples.subarray(0, pixelCount)) }
  }
  if (image.bitsAllocated === 8) {
    const pixels = new Int16Array(pixelCount)
    for (let i = 0; i < pixelCount; i++) pixels[i] = (samples[i] << 24) >> 24
    return { ...base, pixels }
  }
  const words = littleEndian16(samples, pixelCount)
  const bits = Math.min(image.bitsStored, 16)
  if (!signed) {
    if (bits < 16) {
      const mask = (1 << bits) - 1
      for (let i = 0; i < pixelCount; i++) words[i] &= mask
    }
    return { ...base, pixels: words }
  }
  const pixels = new Int16Array(pixelCount)
  const shift = 32 - bits
  for (let i = 0; i < pixelCount; i++) pixels[i] = (words[i] << shift) >> shift
  return { ...base, pixels }
}

/** Little-endian 16-bit samples → 8 bits: masked to BitsStored, the top 8 of those kept. */
function topEightBits(bytes: Uint8Array, count: number, bitsStored: number): Uint8Array {
  const words = littleEndian16(bytes, count)
  const bits = Math.min(Math.max(bitsStored, 8), 16)
  const mask = 2 ** bits - 1
  const shift = bits - 8
  const out = new Uint8Array(count)
  for (let i = 0; i < count; i++) out[i] = (words[i] & mask) >>> shift
  return out
}

function littleEndian16(bytes: Uint8Array, count: number): Uint16Array {
  if (bytes.length < count * 2)
    throw new Error(`pixel data holds ${bytes.length} bytes, need ${count * 2}`)
  const out = new Uint16Array(count)
  for (let i = 0, j = 0; i < count; i++, j += 2) out[i] = bytes[j] | (bytes[j + 1] << 8)
  return out
}

function interleave(planes: Uint8Array, pixelCount: number): Uint8Array {
  const out = new Uint8Array(pixelCount * 3)
  for (let i = 0; i < pixelCount; i++) {
    out[i * 3] = planes[i]
    out[i * 3 + 1] = planes[pixelCount + i]
    out[i * 3 + 2] = planes[2 * pixelCount + i]
  }
  return out
}

const clamp8 = (value: number) => (value < 0 ? 0 : value > 255 ? 255 : Math.round(value))

/** PS3.3 C.7.6.3.1.2, full-range YCbCr (ITU-R BT.601 coefficients). */
function ybrPixel(out: Uint8Array, at: number, y: number, cb: number, cr: number): void {
  out[at] = clamp8(y + 1.402 * (cr - 128))
  out[at + 1] = clamp8(y - 0.344136 * (cb - 128) - 0.714136 * (cr - 128))
  out[at + 2] = clamp8(y + 1.772 * (cb - 128))
}

function ybrFullToRgb(ybr: Uint8Array): Uint8Array {
  const out = new Uint8Array(ybr.length)
  for (let i = 0; i < ybr.length; i += 3) ybrPixel(out, i, ybr[i], ybr[i + 1], ybr[i + 2])
  return out
}

/** YBR_FULL_422 native: each pair of pixels is stored Y1 Y2 Cb Cr. */
function ybr422ToRgb(samples: Uint8Array, rows: number, columns: number): Uint8Array {
  const out = new Uint8Array(rows * columns * 3)
  let source = 0
  for (let pixel = 0; pixel < rows * columns; pixel += 2) {
    const [y1, y2, cb, cr] = [
      samples[source],
      samples[source + 1],
      samples[source + 2],
      samples[source + 3],
    ]
    source += 4
    ybrPixel(out, pixel * 3, y1, cb, cr)
    if (pixel + 1 < rows * columns) ybrPixel(out, pixel * 3 + 3, y2, cb, cr)
  }
  return out
}
