// test-server: no database
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { decodeRleFrame } from '../../src/dicom/rle'

/** PackBits (PS3.5 G.3.1): replicate runs of 3+ bytes, literals otherwise, at most 128 either way. */
function packBits(bytes: number[]): number[] {
  const out: number[] = []
  let i = 0
  while (i < bytes.length) {
    let run = 1
    while (i + run < bytes.length && bytes[i + run] === bytes[i] && run < 128) run++
    if (run >= 3) {
      out.push(257 - run, bytes[i])
      i += run
      continue
    }
    const start = i
    while (i < bytes.length && i - start < 128) {
      if (i + 2 < bytes.length && bytes[i] === bytes[i + 1] && bytes[i] === bytes[i + 2]) break
      i++
    }
    out.push(i - start - 1, ...bytes.slice(start, i))
  }
  // A -128 header is a no-op: decoders must skip it.
  out.push(128)
  return out
}

function encodeRle(planes: number[][]): Uint8Array {
  const segments = planes.map(packBits)
  const header = Buffer.alloc(64)
  header.writeUInt32LE(segments.length, 0)
  let offset = 64
  segments.forEach((segment, i) => {
    header.writeUInt32LE(offset, 4 + i * 4)
    offset += segment.length
  })
  return Buffer.concat([header, ...segments.map((s) => Buffer.from(s))])
}

test('16-bit RLE: high-byte segment first, output little-endian', () => {
  const values = [0, 1, 1, 1, 1, 0x1234, 0xffff, 0xffff, 300, 65535, 7, 7]
  const high = values.map((v) => v >> 8)
  const low = values.map((v) => v & 0xff)
  const out = decodeRleFrame(encodeRle([high, low]), 3, 4, 1, 16)
  const words = Array.from({ length: values.length }, (_, i) => out[i * 2] | (out[i * 2 + 1] << 8))
  assert.deepEqual(words, values)
})

test('RGB RLE: three segments come out interleaved, long runs cross the 128 limit', () => {
  const pixels = 200
  const r = Array.from({ length: pixels }, (_, i) => (i < 150 ? 10 : i))
  const g = Array.from({ length: pixels }, (_, i) => i % 256)
  const b = Array.from({ length: pixels }, () => 99)
  const out = decodeRleFrame(encodeRle([r, g, b]), 10, 20, 3, 8)
  for (let i = 0; i < pixels; i++) {
    assert.deepEqual([out[i * 3], out[i * 3 + 1], out[i * 3 + 2]], [r[i], g[i], b[i]])
  }
})

test('a segment count that does not match the image is refused', () => {
  assert.throws(() => decodeRleFrame(encodeRle([[1, 2]]), 1, 2, 1, 16), /segments/)
})
