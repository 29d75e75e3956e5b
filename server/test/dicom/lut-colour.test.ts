// test-server: no database
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { decodeFrames } from '../../src/dicom/frames'
import { dicomJson } from '../../src/dicom/json'
import { parse } from '../../src/dicom/parse'
import { testInstance } from './writer'

/*
 * What the viewer needs from the server for LUT sequences and colour beyond 8-bit RGB: the LUT
 * data in /metadata (inline: there is no bulk data route), and 16-bit colour and native
 * YBR_FULL_422 served as 8-bit RGB frames. Expected values are computed here from PS3.3.
 */

/** One explicit VR little endian element (short or long form by VR). */
function element(tag: string, vr: string, data: Buffer): Buffer {
  const long = ['OB', 'OW', 'SQ', 'UN', 'UT'].includes(vr)
  const head = Buffer.alloc(long ? 12 : 8)
  head.writeUInt16LE(parseInt(tag.slice(0, 4), 16), 0)
  head.writeUInt16LE(parseInt(tag.slice(4), 16), 2)
  head.write(vr, 4, 'latin1')
  if (long) head.writeUInt32LE(data.length, 8)
  else head.writeUInt16LE(data.length, 6)
  return Buffer.concat([head, data])
}

const us = (...values: number[]) => {
  const b = Buffer.alloc(values.length * 2)
  values.forEach((v, i) => b.writeUInt16LE(v, i * 2))
  return b
}
const text = (value: string) => Buffer.from(value.length % 2 ? `${value} ` : value, 'latin1')

/** A sequence's bytes (the SQ element's value): items of defined length. */
function items(...datasets: Buffer[]): Uint8Array {
  return Buffer.concat(
    datasets.map((data) => {
      const head = Buffer.alloc(8)
      head.writeUInt16LE(0xfffe, 0)
      head.writeUInt16LE(0xe000, 2)
      head.writeUInt32LE(data.length, 4)
      return Buffer.concat([head, data])
    }),
  )
}

test('LUT Data of Modality and VOI LUT Sequences is in the DICOM JSON inline, whatever its size', () => {
  // 4096 entries = 8 KB of OW: above the 1 KB other binary values are inlined up to.
  const voiData = Array.from({ length: 4096 }, (_, i) => Math.round(65535 * (i / 4095) ** 2))
  const modalityData = Array.from({ length: 600 }, (_, i) => 3000 - i * 5)
  const voiItem = Buffer.concat([
    element('00283002', 'US', us(4096, 64512, 16)),
    element('00283003', 'LO', text('SQUARE')),
    element('00283006', 'OW', us(...voiData)),
  ])
  const modalityItem = Buffer.concat([
    element('00283002', 'US', us(600, 0, 12)),
    element('00283004', 'LO', text('OD')),
    // US LUT Data arrives as numbers.
    element('00283006', 'US', us(...modalityData)),
  ])
  const json = dicomJson(
    parse(
      testInstance([
        { tag: '00281056', vr: 'CS', value: 'SIGMOID' },
        { tag: '00283000', vr: 'SQ', value: items(modalityItem) },
        { tag: '00283010', vr: 'SQ', value: items(voiItem) },
      ]),
    ),
  )
  assert.deepEqual(json['00281056'], { vr: 'CS', Value: ['SIGMOID'] })
  type Item = Record<string, { vr: string; Value?: unknown[]; InlineBinary?: string }>
  const voi = json['00283010']?.Value?.[0] as Item
  assert.deepEqual(voi['00283002'], { vr: 'US', Value: [4096, 64512, 16] })
  assert.deepEqual(voi['00283003'], { vr: 'LO', Value: ['SQUARE'] })
  assert.equal(voi['00283006']?.vr, 'OW')
  const bytes = Buffer.from(voi['00283006']!.InlineBinary!, 'base64')
  assert.equal(bytes.length, 8192)
  const words = Array.from({ length: 4096 }, (_, i) => bytes.readUInt16LE(i * 2))
  assert.deepEqual(words, voiData)
  const modality = json['00283000']?.Value?.[0] as Item
  assert.deepEqual(modality['00283006'], { vr: 'US', Value: modalityData })
  assert.deepEqual(modality['00283004'], { vr: 'LO', Value: ['OD'] })
})

test('other large binary values stay out of the JSON (the LUT exception is only for LUT Data)', () => {
  const json = dicomJson(
    parse(testInstance([{ tag: '00091010', vr: 'OB', value: new Uint8Array(4096) }])),
  )
  assert.equal(json['00091010'], undefined)
})

const colour = (extra: NonNullable<Parameters<typeof testInstance>[0]>) =>
  testInstance([
    { tag: '00280002', vr: 'US', value: [3] },
    { tag: '00280010', vr: 'US', value: [2] },
    { tag: '00280011', vr: 'US', value: [4] },
    ...extra,
  ])

test('16-bit RGB is served as 8-bit RGB: each sample’s top 8 stored bits (interleaved and planar)', async () => {
  const samples = Array.from({ length: 24 }, (_, i) => (i * 2731 + 17) % 65536)
  for (const [bitsStored, planar] of [
    [16, 0],
    [12, 1],
  ] as const) {
    const result = await decodeFrames(
      parse(
        colour([
          { tag: '00280004', vr: 'CS', value: 'RGB' },
          { tag: '00280006', vr: 'US', value: [planar] },
          { tag: '00280100', vr: 'US', value: [16] },
          { tag: '00280101', vr: 'US', value: [bitsStored] },
          { tag: '00280102', vr: 'US', value: [bitsStored - 1] },
          { tag: '7FE00010', vr: 'OW', value: Uint16Array.from(samples) },
        ]),
      ),
    )
    assert.ok(result.ok, JSON.stringify(result))
    const frame = result.frames[0]!
    assert.equal(frame.kind, 'rgb')
    const expected = Array.from({ length: 24 }, (_, k) => {
      const pixel = Math.floor(k / 3)
      const channel = k % 3
      const v = samples[planar ? channel * 8 + pixel : k]! % 2 ** bitsStored
      return Math.floor(v / 2 ** (bitsStored - 8))
    })
    assert.deepEqual(Array.from(frame.pixels), expected, `bits stored ${bitsStored}`)
  }
})

test('native YBR_FULL_422 (Y1 Y2 Cb Cr per pair) is served as RGB by PS3.3 C.7.6.3.1.2', async () => {
  const stored = [10, 200, 90, 160, 255, 0, 128, 128, 60, 70, 200, 40, 130, 120, 30, 220]
  const result = await decodeFrames(
    parse(
      colour([
        { tag: '00280004', vr: 'CS', value: 'YBR_FULL_422' },
        { tag: '00280100', vr: 'US', value: [8] },
        { tag: '7FE00010', vr: 'OB', value: Uint8Array.from(stored) },
      ]),
    ),
  )
  assert.ok(result.ok, JSON.stringify(result))
  const rgb = (y: number, cb: number, cr: number) =>
    [
      y + 1.402 * (cr - 128),
      y - 0.344136 * (cb - 128) - 0.714136 * (cr - 128),
      y + 1.772 * (cb - 128),
    ].map((v) => Math.min(255, Math.max(0, v)))
  const expected: number[] = []
  for (let pair = 0; pair < 4; pair++) {
    const [y1, y2, cb, cr] = stored.slice(pair * 4, pair * 4 + 4) as [
      number,
      number,
      number,
      number,
    ]
    expected.push(...rgb(y1, cb, cr), ...rgb(y2, cb, cr))
  }
  const got = Array.from(result.frames[0]!.pixels)
  assert.equal(got.length, 24)
  got.forEach((v, i) =>
    assert.ok(Math.abs(v - expected[i]!) <= 0.5 + 1e-9, `sample ${i}: ${v} vs ${expected[i]}`),
  )
})
