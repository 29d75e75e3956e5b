/**
 * A tiny Part 10 writer for tests: explicit VR little endian (or deflated), elements given with their
 * raw bytes, so a test controls exactly which bytes a GB18030 or UTF-8 name is made of (Node's
 * TextEncoder only speaks UTF-8, and dcmjs re-encodes strings its own way).
 */
import { deflateRawSync } from 'node:zlib'

export type Value = string | Uint8Array | number[]
export interface Attr {
  tag: string // 8 hex, e.g. '00100010'
  vr: string
  value: Value
}

const LONG_VRS = new Set(['OB', 'OW', 'OF', 'OD', 'SQ', 'UT', 'UN', 'UC', 'UR'])

function valueBytes(vr: string, value: Value): Buffer {
  let bytes: Buffer
  if (typeof value === 'string') bytes = Buffer.from(value, 'latin1')
  else if (value instanceof Uint8Array) bytes = Buffer.from(value)
  else {
    // Numbers: US as 16-bit words.
    bytes = Buffer.alloc(value.length * 2)
    value.forEach((n, i) => bytes.writeUInt16LE(n, i * 2))
  }
  if (bytes.length % 2 === 1) {
    bytes = Buffer.concat([bytes, Buffer.from([vr === 'UI' || vr === 'OB' ? 0 : 0x20])])
  }
  return bytes
}

function element({ tag, vr, value }: Attr): Buffer {
  const data = valueBytes(vr, value)
  const head = Buffer.alloc(LONG_VRS.has(vr) ? 12 : 8)
  head.writeUInt16LE(parseInt(tag.slice(0, 4), 16), 0)
  head.writeUInt16LE(parseInt(tag.slice(4), 16), 2)
  head.write(vr, 4, 'latin1')
  if (LONG_VRS.has(vr)) head.writeUInt32LE(data.length, 8)
  else head.writeUInt16LE(data.length, 6)
  return Buffer.concat([head, data])
}

const sorted = (attrs: Attr[]) => [...attrs].sort((a, b) => (a.tag < b.tag ? -1 : 1))

export function writeInstance(
  attrs: Attr[],
  transferSyntax = '1.2.840.10008.1.2.1',
  /** Bytes appended after the elements: encapsulated pixel data, which sorts last anyway. */
  tail?: Buffer,
): Buffer {
  const body = Buffer.concat([...sorted(attrs).map(element), ...(tail ? [tail] : [])])
  const sop =
    (attrs.find((a) => a.tag === '00080018')?.value as string | undefined) ??
    '1.2.826.0.1.3680043.10.1.9'
  const metaElements = Buffer.concat(
    [
      { tag: '00020001', vr: 'OB', value: new Uint8Array([0, 1]) },
      { tag: '00020002', vr: 'UI', value: '1.2.840.10008.5.1.4.1.1.7' },
      { tag: '00020003', vr: 'UI', value: sop },
      { tag: '00020010', vr: 'UI', value: transferSyntax },
      { tag: '00020012', vr: 'UI', value: '1.2.826.0.1.3680043.10.1' },
    ].map(element),
  )
  const groupLength = element({ tag: '00020000', vr: 'UL', value: new Uint8Array(4) })
  groupLength.writeUInt32LE(metaElements.length, 8)
  const payload = transferSyntax === '1.2.840.10008.1.2.1.99' ? deflateRawSync(body) : body
  return Buffer.concat([Buffer.alloc(128), Buffer.from('DICM'), groupLength, metaElements, payload])
}

/** A minimal secondary-capture instance with a small 8-bit image, plus any extra attributes. */
export function testInstance(extra: Attr[] = [], transferSyntax?: string): Buffer {
  const base: Attr[] = [
    { tag: '00080016', vr: 'UI', value: '1.2.840.10008.5.1.4.1.1.7' },
    { tag: '00080018', vr: 'UI', value: '1.2.826.0.1.3680043.10.1.3' },
    { tag: '0020000D', vr: 'UI', value: '1.2.826.0.1.3680043.10.1.1' },
    { tag: '0020000E', vr: 'UI', value: '1.2.826.0.1.3680043.10.1.2' },
    { tag: '00280002', vr: 'US', value: [1] },
    { tag: '00280004', vr: 'CS', value: 'MONOCHROME2' },
    { tag: '00280010', vr: 'US', value: [2] },
    { tag: '00280011', vr: 'US', value: [2] },
    { tag: '00280100', vr: 'US', value: [8] },
    { tag: '00280101', vr: 'US', value: [8] },
    { tag: '00280102', vr: 'US', value: [7] },
    { tag: '00280103', vr: 'US', value: [0] },
    { tag: '7FE00010', vr: 'OB', value: new Uint8Array([0, 100, 200, 255]) },
  ]
  const tags = new Set(extra.map((a) => a.tag))
  return writeInstance([...base.filter((a) => !tags.has(a.tag)), ...extra], transferSyntax)
}

/**
 * Encapsulated pixel data (PS3.5 A.4) as a complete element: OB of undefined length, an empty basic
 * offset table item, one item per frame, then the sequence delimiter.
 */
export function encapsulatedPixelData(frames: Uint8Array[]): Buffer {
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
