import { inflateSync } from 'node:zlib'
import { REPORT_PHOTO_MAX_BYTES } from '@contract/main/dicom-upload'
import { decodeJpeg8, encodeJpeg, JPEG_MIN_PIXELS } from '../dicom/codecs'
import { ApiError } from '../http/errors'
import { sniffImageType } from './sniff'

/*
 * Photos people send us (report photos, feedback screenshots, operator pictures). A phone photo
 * carries EXIF: the place it was taken (GPS), the device, sometimes a thumbnail of the uncropped
 * picture. None of it belongs on our disks, and a file that only claims to be an image must not be
 * stored at all. So every photo is sniffed by its bytes (not its name or Content-Type), decoded to
 * pixels, turned upright by its EXIF orientation, and encoded afresh as a baseline JPEG: only pixels
 * survive.
 */

export const PHOTO_TYPE_REFUSED = '报告照片只支持 JPG 或 PNG 图片'
export const PHOTO_TOO_LARGE = '单张照片不能超过 10 MB，请压缩后重试'
export const PHOTO_TOO_MANY_PIXELS = '照片尺寸过大（超过 4000 万像素），请缩小后重试'
export const PHOTO_UNREADABLE = '照片无法识别，请换一张重试'
const MAX_PIXELS = 40_000_000
const JPEG_QUALITY = 85

interface Pixels {
  width: number
  height: number
  /** 1 (grey) or 3 (RGB), interleaved 8-bit. */
  components: 1 | 3
  data: Uint8Array
}

// --- JPEG ------------------------------------------------------------------------------------

/** Size from the first SOF marker and the EXIF orientation (1 when absent), without decoding. */
export function jpegHeader(bytes: Buffer): { width: number; height: number; orientation: number } {
  let offset = 2
  let orientation = 1
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) throw new PhotoRefusedError('unreadable')
    const marker = bytes[offset + 1]!
    if (marker === 0xff) {
      offset += 1
      continue
    }
    const length = bytes.readUInt16BE(offset + 2)
    const segment = bytes.subarray(offset + 4, offset + 2 + length)
    if (marker === 0xe1 && segment.subarray(0, 6).toString('latin1') === 'Exif\0\0') {
      orientation = exifOrientation(segment.subarray(6)) ?? orientation
    }
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (segment.length < 5) throw new PhotoRefusedError('unreadable')
      return { height: segment.readUInt16BE(1), width: segment.readUInt16BE(3), orientation }
    }
    offset += 2 + length
  }
  throw new PhotoRefusedError('unreadable')
}

/** The Orientation tag (0112) of IFD0 in a TIFF-structured EXIF block. */
function exifOrientation(tiff: Buffer): number | undefined {
  if (tiff.length < 8) return undefined
  const little = tiff.toString('latin1', 0, 2) === 'II'
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at))
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at))
  const ifd = u32(4)
  if (ifd + 2 > tiff.length) return undefined
  const count = u16(ifd)
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12
    if (entry + 12 > tiff.length) return undefined
    if (u16(entry) === 0x0112) {
      const value = u16(entry + 8)
      return value >= 1 && value <= 8 ? value : undefined
    }
  }
  return undefined
}

async function decodeJpeg(bytes: Buffer): Promise<{ pixels: Pixels; orientation: number }> {
  const header = jpegHeader(bytes)
  if (header.width * header.height > MAX_PIXELS) throw new PhotoRefusedError('too-many-pixels')
  let decoded
  try {
    decoded = await decodeJpeg8(bytes)
  } catch {
    throw new PhotoRefusedError('unreadable')
  }
  if (
    decoded.bitsPerSample !== 8 ||
    (decoded.componentCount !== 1 && decoded.componentCount !== 3)
  ) {
    // CMYK (print files) and 12-bit JPEGs are not photos a phone takes.
    throw new PhotoRefusedError('unreadable')
  }
  return {
    pixels: {
      width: decoded.width,
      height: decoded.height,
      components: decoded.componentCount,
      data: decoded.bytes,
    },
    orientation: header.orientation,
  }
}

/**
 * Turns the pixels the way EXIF orientation says the camera meant them (2–8: mirrored and/or rotated),
 * since the tag itself is dropped with the rest of EXIF.
 */
export function orient(pixels: Pixels, orientation: number): Pixels {
  if (orientation <= 1 || orientation > 8) return pixels
  const { width: w, height: h, components: c, data } = pixels
  const swap = orientation >= 5
  const outW = swap ? h : w
  const outH = swap ? w : h
  const out = new Uint8Array(data.length)
  for (let y = 0; y < outH; y++) {
    for (let x = 0; x < outW; x++) {
      // Source coordinates of output (x, y) for each orientation (EXIF 2.3, tag 0x0112).
      let sx: number
      let sy: number
      switch (orientation) {
        case 2:
          sx = w - 1 - x
          sy = y
          break
        case 3:
          sx = w - 1 - x
          sy = h - 1 - y
          break
        case 4:
          sx = x
          sy = h - 1 - y
          break
        case 5:
          sx = y
          sy = x
          break
        case 6:
          sx = y
          sy = h - 1 - x
          break
        case 7:
          sx = w - 1 - y
          sy = h - 1 - x
          break
        default: // 8
          sx = w - 1 - y
          sy = x
      }
      const from = (sy * w + sx) * c
      const to = (y * outW + x) * c
      for (let k = 0; k < c; k++) out[to + k] = data[from + k]!
    }
  }
  return { width: outW, height: outH, components: c, data: out }
}

// --- PNG -------------------------------------------------------------------------------------

/** A PNG decoder for what phones and screenshots produce: 8/16-bit, any colour type, no interlace. */
export function decodePng(bytes: Buffer): Pixels {
  let offset = 8
  let width = 0
  let height = 0
  let depth = 0
  let colourType = 0
  let interlace = 0
  let palette: Buffer | undefined
  let transparency: Buffer | undefined
  const idat: Buffer[] = []
  while (offset + 8 <= bytes.length) {
    const length = bytes.readUInt32BE(offset)
    const type = bytes.toString('latin1', offset + 4, offset + 8)
    const data = bytes.subarray(offset + 8, offset + 8 + length)
    if (data.length !== length) throw new PhotoRefusedError('unreadable')
    if (type === 'IHDR') {
      width = data.readUInt32BE(0)
      height = data.readUInt32BE(4)
      depth = data[8]!
      colourType = data[9]!
      interlace = data[12]!
      if (width === 0 || height === 0) throw new PhotoRefusedError('unreadable')
      if (width * height > MAX_PIXELS) throw new PhotoRefusedError('too-many-pixels')
    } else if (type === 'PLTE') palette = data
    else if (type === 'tRNS') transparency = data
    else if (type === 'IDAT') idat.push(data)
    else if (type === 'IEND') break
    offset += 12 + length
  }
  const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[colourType]
  if (!width || !channels || interlace !== 0 || (depth !== 8 && depth !== 16)) {
    // Interlaced and low-bit-depth PNGs are rare for photos; the person can re-save as JPG.
    throw new PhotoRefusedError('unreadable')
  }
  const bpp = channels * (depth / 8)
  const stride = width * bpp
  let raw: Buffer
  try {
    raw = inflateSync(Buffer.concat(idat), { maxOutputLength: (stride + 1) * height })
  } catch {
    throw new PhotoRefusedError('unreadable')
  }
  if (raw.length < (stride + 1) * height) throw new PhotoRefusedError('unreadable')
  const lines = Buffer.alloc(stride * height)
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!
    const src = y * (stride + 1) + 1
    const dst = y * stride
    for (let i = 0; i < stride; i++) {
      const x = raw[src + i]!
      const a = i >= bpp ? lines[dst + i - bpp]! : 0
      const b = y > 0 ? lines[dst - stride + i]! : 0
      const c = i >= bpp && y > 0 ? lines[dst - stride + i - bpp]! : 0
      let value: number
      if (filter === 0) value = x
      else if (filter === 1) value = x + a
      else if (filter === 2) value = x + b
      else if (filter === 3) value = x + ((a + b) >> 1)
      else if (filter === 4) {
        const p = a + b - c
        const pa = Math.abs(p - a)
        const pb = Math.abs(p - b)
        const pc = Math.abs(p - c)
        value = x + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)
      } else throw new PhotoRefusedError('unreadable')
      lines[dst + i] = value & 0xff
    }
  }
  // To 8-bit RGB (or grey), alpha composited over white: a report photo has no use for it.
  const grey = colourType === 0 || colourType === 4
  const components = grey ? 1 : 3
  const out = new Uint8Array(width * height * components)
  const sample = (index: number) => (depth === 16 ? lines[index * 2]! : lines[index]!)
  for (let p = 0; p < width * height; p++) {
    let rgba: [number, number, number, number]
    const base = p * channels
    if (colourType === 3) {
      const index = sample(base)
      if (!palette || index * 3 + 2 >= palette.length) throw new PhotoRefusedError('unreadable')
      const alpha = transparency && index < transparency.length ? transparency[index]! : 255
      rgba = [palette[index * 3]!, palette[index * 3 + 1]!, palette[index * 3 + 2]!, alpha]
    } else if (colourType === 0) {
      const v = sample(base)
      rgba = [v, v, v, 255]
    } else if (colourType === 4) {
      const v = sample(base)
      rgba = [v, v, v, sample(base + 1)]
    } else if (colourType === 2) {
      rgba = [sample(base), sample(base + 1), sample(base + 2), 255]
    } else {
      rgba = [sample(base), sample(base + 1), sample(base + 2), sample(base + 3)]
    }
    const [r, g, b, alpha] = rgba
    const over = (v: number) => Math.round((v * alpha + 255 * (255 - alpha)) / 255)
    if (grey) out[p] = over(r)
    else {
      out[p * 3] = over(r)
      out[p * 3 + 1] = over(g)
      out[p * 3 + 2] = over(b)
    }
  }
  return { width, height, components, data: out }
}

// --- the photos ------------------------------------------------------------------------------

export const PHOTO_TOO_SMALL = '图片太小，看不清报告内容，请重新拍摄'

/** Why a photo was refused: code tells these apart; each caller words them for its own photos. */
export type PhotoProblem = 'type' | 'too-large' | 'too-many-pixels' | 'unreadable' | 'too-small'

/** The words for a report photo, the default. */
const REPORT_PHOTO_WORDS: Record<PhotoProblem, string> = {
  type: PHOTO_TYPE_REFUSED,
  'too-large': PHOTO_TOO_LARGE,
  'too-many-pixels': PHOTO_TOO_MANY_PIXELS,
  unreadable: PHOTO_UNREADABLE,
  'too-small': PHOTO_TOO_SMALL,
}

/** A 400 whose `problem` says why, so a caller rewords it by code, never by its text. */
export class PhotoRefusedError extends ApiError {
  constructor(
    readonly problem: PhotoProblem,
    words: Partial<Record<PhotoProblem, string>> = {},
  ) {
    super(400, words[problem] ?? REPORT_PHOTO_WORDS[problem])
  }
}

export interface CleanPhoto {
  bytes: Buffer
  width: number
  height: number
}

/**
 * Sniffs, decodes, turns upright and re-encodes one photo; only its pixels survive. A refusal is a
 * PhotoRefusedError in `words` (the caller's wording: 证书照片, 反馈图片, 封面), else a report photo's.
 */
export async function cleanPhoto(
  bytes: Buffer,
  words: Partial<Record<PhotoProblem, string>> = {},
): Promise<CleanPhoto> {
  try {
    return await cleanAnyPhoto(bytes)
  } catch (error) {
    if (error instanceof PhotoRefusedError) throw new PhotoRefusedError(error.problem, words)
    throw error
  }
}

async function cleanAnyPhoto(bytes: Buffer): Promise<CleanPhoto> {
  if (bytes.length > REPORT_PHOTO_MAX_BYTES) throw new PhotoRefusedError('too-large')
  const type = sniffImageType(bytes)
  let pixels: Pixels
  if (type === 'image/jpeg') {
    const decoded = await decodeJpeg(bytes)
    pixels = orient(decoded.pixels, decoded.orientation)
  } else if (type === 'image/png') {
    pixels = decodePng(bytes)
  } else {
    throw new PhotoRefusedError('type')
  }
  // A report photo this small shows nothing readable (and the JPEG encoder refuses it).
  if (pixels.width * pixels.height < JPEG_MIN_PIXELS) throw new PhotoRefusedError('too-small')
  const encoded = await encodeJpeg(
    pixels.data,
    pixels.width,
    pixels.height,
    pixels.components,
    JPEG_QUALITY,
  )
  return { bytes: Buffer.from(encoded), width: pixels.width, height: pixels.height }
}
