import { randomBytes } from 'node:crypto'
import { deflateRawSync } from 'node:zlib'

/*
 * A small Part 10 writer: explicit VR little endian (native, deflated or encapsulated pixel data),
 * text in UTF-8 (SpecificCharacterSet ISO_IR 192, which callers must include for non-ASCII text).
 * Used to make the demo's synthetic studies and the tests' instances; enough for what we write, not
 * a general DICOM toolkit.
 */

export type ElementValue = string | string[] | number[] | Uint8Array | Uint16Array | Int16Array

export interface Element {
  /** 8 hex digits, group then element: '00100010' */
  tag: string
  vr: string
  value: ElementValue
}

const LONG_VRS = new Set(['OB', 'OW', 'OF', 'OD', 'OL', 'OV', 'SQ', 'UT', 'UN', 'UC', 'UR'])
const NUMBERS: Record<string, { size: number; write: (b: Buffer, v: number, o: number) => void }> =
  {
    US: { size: 2, write: (b, v, o) => b.writeUInt16LE(v, o) },
    SS: { size: 2, write: (b, v, o) => b.writeInt16LE(v, o) },
    UL: { size: 4, write: (b, v, o) => b.writeUInt32LE(v, o) },
    SL: { size: 4, write: (b, v, o) => b.writeInt32LE(v, o) },
    FL: { size: 4, write: (b, v, o) => b.writeFloatLE(v, o) },
    FD: { size: 8, write: (b, v, o) => b.writeDoubleLE(v, o) },
  }

export const EXPLICIT_LE = '1.2.840.10008.1.2.1'
export const RLE_LOSSLESS = '1.2.840.10008.1.2.5'
export const JPEG_BASELINE = '1.2.840.10008.1.2.4.50'
export const DEFLATED_EXPLICIT_LE = '1.2.840.10008.1.2.1.99'

export interface WriteOptions {
  /**
   * How strings become bytes. 'latin1' takes each character as one byte: a test spells out the
   * exact bytes of a GB18030 or Latin-1 name that way (Node encodes text only as UTF-8).
   */
  text?: 'utf8' | 'latin1'
  /** The file meta's SOP class and instance; by default the dataset's (0008,0016) and (0008,0018). */
  meta?: { sopClassUid?: string; sopInstanceUid?: string }
}

/** A new UID under the 2.25 root (a UUID as a decimal integer, PS3.5 B.2): unique without a registered root. */
export function newUid(): string {
  return `2.25.${BigInt(`0x${randomBytes(16).toString('hex')}`).toString()}`
}

function valueBytes(vr: string, value: ElementValue, encoding: 'utf8' | 'latin1'): Buffer {
  let bytes: Buffer
  if (typeof value === 'string' || (Array.isArray(value) && typeof value[0] === 'string')) {
    const text = Array.isArray(value) ? value.join('\\') : (value as string)
    bytes = Buffer.from(text, encoding)
  } else if (value instanceof Uint8Array) {
    bytes = Buffer.from(value.buffer, value.byteOffset, value.byteLength)
  } else if (value instanceof Uint16Array || value instanceof Int16Array) {
    bytes = Buffer.from(value.buffer, value.byteOffset, value.byteLength)
  } else {
    const numbers = value as number[]
    const kind = NUMBERS[vr]
    if (!kind) throw new Error(`numbers need a binary VR, not ${vr}`)
    bytes = Buffer.alloc(numbers.length * kind.size)
    numbers.forEach((n, i) => kind.write(bytes, n, i * kind.size))
  }
  if (bytes.length % 2 === 1) {
    // UIDs and binary values pad with NUL, text with a space (PS3.5 6.2).
    bytes = Buffer.concat([bytes, Buffer.from([vr === 'UI' || vr === 'OB' ? 0 : 0x20])])
  }
  return bytes
}

function encodeElement({ tag, vr, value }: Element, encoding: 'utf8' | 'latin1' = 'utf8'): Buffer {
  const data = valueBytes(vr, value, encoding)
  const head = Buffer.alloc(LONG_VRS.has(vr) ? 12 : 8)
  head.writeUInt16LE(parseInt(tag.slice(0, 4), 16), 0)
  head.writeUInt16LE(parseInt(tag.slice(4), 16), 2)
  head.write(vr, 4, 'latin1')
  if (LONG_VRS.has(vr)) head.writeUInt32LE(data.length, 8)
  else head.writeUInt16LE(data.length, 6)
  return Buffer.concat([head, data])
}

/** Encapsulated pixel data (PS3.5 A.4): empty offset table, one fragment per frame, delimiter. */
export function encapsulated(frames: Uint8Array[]): Buffer {
  const item = (data: Uint8Array) => {
    const padded =
      data.length % 2 ? Buffer.concat([Buffer.from(data), Buffer.alloc(1)]) : Buffer.from(data)
    const head = Buffer.alloc(8)
    head.writeUInt16LE(0xfffe, 0)
    head.writeUInt16LE(0xe000, 2)
    head.writeUInt32LE(padded.length, 4)
    return Buffer.concat([head, padded])
  }
  const head = Buffer.from([0xe0, 0x7f, 0x10, 0x00, 0x4f, 0x42, 0, 0, 0xff, 0xff, 0xff, 0xff])
  const end = Buffer.from([0xfe, 0xff, 0xdd, 0xe0, 0, 0, 0, 0])
  return Buffer.concat([head, item(new Uint8Array(0)), ...frames.map(item), end])
}

/**
 * A Part 10 file. `elements` should hold SOPClassUID (0008,0016) and SOPInstanceUID (0008,0018),
 * or `options.meta` say them; `encapsulatedPixels` (from `encapsulated`) is appended last for
 * compressed syntaxes. The deflated syntax deflates the dataset (PS3.5 A.5), not the meta.
 */
export function writePart10(
  elements: Element[],
  transferSyntax = EXPLICIT_LE,
  encapsulatedPixels?: Buffer,
  options: WriteOptions = {},
): Buffer {
  const find = (tag: string) => elements.find((e) => e.tag === tag)?.value as string | undefined
  const sorted = [...elements].sort((a, b) => (a.tag.toUpperCase() < b.tag.toUpperCase() ? -1 : 1))
  const dataset = Buffer.concat([
    ...sorted.map((element) => encodeElement(element, options.text)),
    ...(encapsulatedPixels ? [encapsulatedPixels] : []),
  ])
  const body = transferSyntax === DEFLATED_EXPLICIT_LE ? deflateRawSync(dataset) : dataset
  const meta = Buffer.concat(
    [
      { tag: '00020001', vr: 'OB', value: new Uint8Array([0, 1]) },
      { tag: '00020002', vr: 'UI', value: options.meta?.sopClassUid ?? find('00080016') ?? '' },
      { tag: '00020003', vr: 'UI', value: options.meta?.sopInstanceUid ?? find('00080018') ?? '' },
      { tag: '00020010', vr: 'UI', value: transferSyntax },
      { tag: '00020012', vr: 'UI', value: '1.2.826.0.1.3680043.10.1' },
      { tag: '00020013', vr: 'SH', value: 'YINGXIANG' },
    ].map((element) => encodeElement(element)),
  )
  const groupLength = encodeElement({ tag: '00020000', vr: 'UL', value: [meta.length] })
  return Buffer.concat([Buffer.alloc(128), Buffer.from('DICM'), groupLength, meta, body])
}

/** PackBits (PS3.5 G.3.1) of one byte plane. */
function packBits(plane: Uint8Array): Buffer {
  const out: number[] = []
  let i = 0
  while (i < plane.length) {
    let run = 1
    while (i + run < plane.length && run < 128 && plane[i + run] === plane[i]) run++
    if (run >= 2) {
      out.push(257 - run, plane[i]!)
      i += run
      continue
    }
    const start = i
    while (
      i < plane.length &&
      i - start < 128 &&
      !(i + 1 < plane.length && plane[i] === plane[i + 1])
    )
      i++
    if (i === start) i++
    out.push(i - start - 1, ...plane.subarray(start, i))
  }
  if (out.length % 2) out.push(0x80) // -128 is a no-op and keeps the segment even
  return Buffer.from(out)
}

/**
 * One frame of RLE Lossless (PS3.5 G): a 64-byte header and one PackBits segment per byte plane,
 * most significant plane first. 8-bit grey → 1 segment, 16-bit grey → 2.
 */
export function encodeRleFrame(pixels: Uint8Array | Uint16Array | Int16Array): Buffer {
  const planes: Uint8Array[] = []
  if (pixels instanceof Uint8Array) planes.push(pixels)
  else {
    const high = new Uint8Array(pixels.length)
    const low = new Uint8Array(pixels.length)
    for (let i = 0; i < pixels.length; i++) {
      const word = pixels[i]! & 0xffff
      high[i] = word >> 8
      low[i] = word & 0xff
    }
    planes.push(high, low)
  }
  const segments = planes.map(packBits)
  const header = Buffer.alloc(64)
  header.writeUInt32LE(segments.length, 0)
  let offset = 64
  segments.forEach((segment, index) => {
    header.writeUInt32LE(offset, 4 + index * 4)
    offset += segment.length
  })
  return Buffer.concat([header, ...segments])
}
