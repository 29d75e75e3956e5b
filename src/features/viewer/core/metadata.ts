import { NO_IMAGE, UNSUPPORTED_IMAGE, ViewerError } from './errors'
import type { ImageInfo, Lut, Palette, Photometric, VoiFunction } from './types'

/*
 * DICOM JSON (PS3.18 Annex F) → ImageInfo. Our server describes /frames as served (decoded,
 * colour as interleaved 8-bit RGB, palettes expanded; retrieve.ts describeServedPixels), but the
 * parser takes any DICOMweb server's metadata: planar RGB, YBR_FULL and PALETTE COLOR with the
 * lookup inline (InlineBinary or Value). A palette only given as a BulkDataURI is refused: it
 * would need a second authorised request per instance, and our server never sends one.
 */

type Element = { vr?: string; Value?: unknown[]; InlineBinary?: string; BulkDataURI?: string }

function element(dataset: Record<string, unknown>, tag: string): Element | undefined {
  const e = dataset[tag] ?? dataset[tag.toLowerCase()]
  return e && typeof e === 'object' ? (e as Element) : undefined
}

function values(dataset: Record<string, unknown>, tag: string): unknown[] {
  const v = element(dataset, tag)?.Value
  return Array.isArray(v) ? v : []
}

/** DS and IS arrive as numbers from us, as strings from some servers. */
function toNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v.trim())
    return Number.isFinite(n) ? n : null
  }
  return null
}

function numbers(dataset: Record<string, unknown>, tag: string): number[] {
  return values(dataset, tag)
    .map(toNumber)
    .filter((n): n is number => n !== null)
}

function numberOf(dataset: Record<string, unknown>, tag: string): number | null {
  const v = values(dataset, tag)
  return v.length > 0 ? toNumber(v[0]) : null
}

function stringOf(dataset: Record<string, unknown>, tag: string): string | null {
  const v = values(dataset, tag)[0]
  if (typeof v === 'string') return v.trim() || null
  if (typeof v === 'number') return String(v)
  return null
}

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/

/** `张^三` → `张三`, `Doe^John` → `Doe John` (as the server's display form); ideographic first. */
function personName(dataset: Record<string, unknown>, tag: string): string | null {
  const v = values(dataset, tag)[0]
  let raw: string | undefined
  if (typeof v === 'string') raw = v
  else if (v && typeof v === 'object') {
    const pn = v as { Alphabetic?: unknown; Ideographic?: unknown }
    raw =
      (typeof pn.Ideographic === 'string' && pn.Ideographic.trim() ? pn.Ideographic : undefined) ??
      (typeof pn.Alphabetic === 'string' ? pn.Alphabetic : undefined)
  }
  if (!raw) return null
  const parts = raw
    .split('=')[0]!
    .split('^')
    .map((p) => p.trim())
    .filter(Boolean)
  if (parts.length === 0) return null
  return parts.join(CJK.test(raw) ? '' : ' ')
}

function dateOf(dataset: Record<string, unknown>, tag: string): string | null {
  const v = stringOf(dataset, tag)
  if (!v) return null
  // ACR-NEMA files (still met in old archives) write 1994.01.30.
  const m = /^(\d{4})\.?(\d{2})\.?(\d{2})$/.exec(v)
  return m ? `${m[1]}-${m[2]}-${m[3]}` : v
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const BASE64_INDEX = (() => {
  const index = new Int16Array(128).fill(-1)
  for (let i = 0; i < BASE64.length; i++) index[BASE64.charCodeAt(i)] = i
  return index
})()

/** The mini-program has no atob: InlineBinary is decoded here. */
export function decodeBase64(text: string): Uint8Array {
  const clean = text.replace(/[^A-Za-z0-9+/]/g, '')
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4))
  let bits = 0
  let buffer = 0
  let at = 0
  for (let i = 0; i < clean.length; i++) {
    buffer = (buffer << 6) | BASE64_INDEX[clean.charCodeAt(i)]!
    bits += 6
    if (bits >= 8) {
      bits -= 8
      out[at++] = (buffer >> bits) & 0xff
    }
  }
  return out.subarray(0, at)
}

function paletteChannel(
  dataset: Record<string, unknown>,
  descriptorTag: string,
  dataTag: string,
): { firstMapped: number; values: Uint8Array } {
  const descriptor = numbers(dataset, descriptorTag)
  const data = element(dataset, dataTag)
  if (descriptor.length < 3 || !data) throw new ViewerError(UNSUPPORTED_IMAGE)
  // 0 entries means 65 536 (the count does not fit in 16 bits).
  const entries = descriptor[0] === 0 ? 65536 : descriptor[0]!
  const firstMapped = descriptor[1]!
  const bits = descriptor[2]!
  const out = new Uint8Array(entries)
  if (typeof data.InlineBinary === 'string') {
    const bytes = decodeBase64(data.InlineBinary)
    if (bits === 8 && bytes.length >= entries && bytes.length < entries * 2) {
      out.set(bytes.subarray(0, entries))
    } else {
      // OW words, little endian: keep the most significant 8 of the entry's bits.
      const shift = bits > 8 ? bits - 8 : 0
      for (let i = 0; i < entries && i * 2 + 1 < bytes.length; i++) {
        out[i] = ((bytes[i * 2]! | (bytes[i * 2 + 1]! << 8)) >> shift) & 0xff
      }
    }
  } else if (Array.isArray(data.Value) && data.Value.length > 0) {
    const shift = bits > 8 ? bits - 8 : 0
    for (let i = 0; i < entries && i < data.Value.length; i++) {
      out[i] = ((toNumber(data.Value[i]) ?? 0) >> shift) & 0xff
    }
  } else {
    // BulkDataURI only (see the header comment), or nothing at all.
    throw new ViewerError(UNSUPPORTED_IMAGE)
  }
  return { firstMapped, values: out }
}

function readPalette(dataset: Record<string, unknown>): Palette {
  const red = paletteChannel(dataset, '00281101', '00281201')
  const green = paletteChannel(dataset, '00281102', '00281202')
  const blue = paletteChannel(dataset, '00281103', '00281203')
  return { firstMapped: red.firstMapped, red: red.values, green: green.values, blue: blue.values }
}

/** 32-bit FNV-1a over a table, so renderers are shared only by instances with equal tables. */
function fingerprint(first: number, data: Uint16Array, max: number): string {
  let h = 0x811c9dc5
  for (let i = 0; i < data.length; i++) {
    h = Math.imul(h ^ data[i]!, 0x01000193) >>> 0
  }
  return `${first}:${data.length}:${max}:${h.toString(16)}`
}

/**
 * One item of a Modality or VOI LUT Sequence (PS3.3 C.11.1.1.1 / C.11.2.1.1); null when its data
 * is only behind a BulkDataURI (or missing). `signedInput`: the first mapped value, sent as US,
 * is read as a signed 16-bit number (inputs can be negative).
 */
function readLut(item: Record<string, unknown>, signedInput: boolean): Lut | null {
  const descriptorElement = element(item, '00283002')
  let descriptor = numbers(item, '00283002')
  // A server without the tag in its dictionary sends the descriptor as UN bytes.
  if (descriptor.length < 3 && typeof descriptorElement?.InlineBinary === 'string') {
    const bytes = decodeBase64(descriptorElement.InlineBinary)
    descriptor = []
    for (let i = 0; i + 1 < bytes.length && descriptor.length < 3; i += 2) {
      descriptor.push(bytes[i]! | (bytes[i + 1]! << 8))
    }
  }
  if (descriptor.length < 3) return null
  // 0 entries means 65 536 (the count does not fit in 16 bits).
  const entries = descriptor[0] === 0 ? 65536 : descriptor[0]!
  let firstMapped = descriptor[1]!
  if (descriptorElement?.vr !== 'SS' && signedInput && firstMapped > 32767) firstMapped -= 65536
  const bits = Math.min(16, Math.max(1, descriptor[2]!))
  const data = new Uint16Array(entries)
  const source = element(item, '00283006')
  if (Array.isArray(source?.Value) && source.Value.length >= entries) {
    for (let i = 0; i < entries; i++) data[i] = (toNumber(source.Value[i]) ?? 0) & 0xffff
  } else if (typeof source?.InlineBinary === 'string') {
    const bytes = decodeBase64(source.InlineBinary)
    if (bytes.length >= entries * 2) {
      // OW (or US) words, little endian: one entry per word, 8-bit entries included.
      for (let i = 0; i < entries; i++) data[i] = bytes[i * 2]! | (bytes[i * 2 + 1]! << 8)
    } else if (bits <= 8 && bytes.length >= entries) {
      // 8-bit entries packed one per byte ("equivalent to 8 bits allocated").
      data.set(bytes.subarray(0, entries))
    } else return null
  } else return null
  let max = 2 ** bits - 1
  let highest = 0
  for (let i = 0; i < entries; i++) if (data[i]! > highest) highest = data[i]!
  // Files that say 8 or 12 bits and hold larger values exist; their data is what is shown.
  while (highest > max) max = max * 2 + 1
  const label = stringOf(item, '00283003')
  return { firstMapped, data, max, label, key: fingerprint(firstMapped, data, max) }
}

function sequenceItems(dataset: Record<string, unknown>, tag: string): Record<string, unknown>[] {
  return values(dataset, tag).filter(
    (item): item is Record<string, unknown> => item !== null && typeof item === 'object',
  )
}

const VOI_FUNCTIONS: VoiFunction[] = ['LINEAR', 'LINEAR_EXACT', 'SIGMOID']

const PHOTOMETRICS: Photometric[] = [
  'MONOCHROME1',
  'MONOCHROME2',
  'RGB',
  'PALETTE COLOR',
  'YBR_FULL',
  'YBR_FULL_422',
]

/** Throws ViewerError (a Chinese `message` fit to show) for what cannot be displayed. */
export function parseInstanceMetadata(dataset: Record<string, unknown>): ImageInfo {
  if (!dataset || typeof dataset !== 'object') throw new ViewerError(NO_IMAGE)
  const rows = numberOf(dataset, '00280010')
  const columns = numberOf(dataset, '00280011')
  const sopInstanceUid = stringOf(dataset, '00080018')
  if (!rows || !columns || rows < 1 || columns < 1 || !sopInstanceUid) {
    throw new ViewerError(NO_IMAGE)
  }
  const photometric = (stringOf(dataset, '00280004') ?? 'MONOCHROME2').toUpperCase() as Photometric
  if (!PHOTOMETRICS.includes(photometric)) throw new ViewerError(UNSUPPORTED_IMAGE)
  const colour = photometric === 'RGB' || photometric.startsWith('YBR_FULL')
  const samplesPerPixel = numberOf(dataset, '00280002') ?? (colour ? 3 : 1)
  const bitsAllocated = numberOf(dataset, '00280100') ?? 16
  const bitsStored = numberOf(dataset, '00280101') ?? bitsAllocated
  const highBit = numberOf(dataset, '00280102') ?? bitsStored - 1
  const pixelRepresentation = numberOf(dataset, '00280103') === 1 ? 1 : 0
  // Colour of 16 bits (RGB, YBR_FULL) is reduced to 8 for display by framePixels; subsampled
  // YBR_FULL_422 exists only with 8 bits.
  const layoutOk = colour
    ? samplesPerPixel === 3 &&
      (bitsAllocated === 8 || (bitsAllocated === 16 && photometric !== 'YBR_FULL_422')) &&
      bitsStored >= 1 &&
      bitsStored <= bitsAllocated
    : samplesPerPixel === 1 &&
      (bitsAllocated === 8 || bitsAllocated === 16) &&
      bitsStored >= 1 &&
      bitsStored <= bitsAllocated &&
      // Data shifted up inside the word (HighBit above BitsStored - 1) is too rare to carry.
      highBit === bitsStored - 1
  if (!layoutOk) throw new ViewerError(UNSUPPORTED_IMAGE)
  const palette = photometric === 'PALETTE COLOR' ? readPalette(dataset) : null

  const slope = numberOf(dataset, '00281053')
  const intercept = numberOf(dataset, '00281052') ?? 0
  const functionText = (stringOf(dataset, '00281056') ?? 'LINEAR').toUpperCase() as VoiFunction
  const voiFunction = VOI_FUNCTIONS.includes(functionText) ? functionText : 'LINEAR'
  let modalityLut: Lut | null = null
  const modalityItem = colour ? undefined : sequenceItems(dataset, '00283000')[0]
  if (modalityItem) {
    modalityLut = readLut(modalityItem, pixelRepresentation === 1)
    // Without its table every value (and HU) would be wrong: refused, not guessed.
    if (!modalityLut) throw new ViewerError(UNSUPPORTED_IMAGE)
  }
  // The VOI input is the modality output: negative only from rescale (a modality LUT's is not).
  const signedVoiInput =
    !modalityLut && (pixelRepresentation === 1 || intercept < 0 || (slope ?? 1) < 0)
  const voiLuts = colour
    ? []
    : sequenceItems(dataset, '00283010')
        .map((item) => readLut(item, signedVoiInput))
        .filter((lut): lut is Lut => lut !== null)
  const centers = numbers(dataset, '00281050')
  const widths = numbers(dataset, '00281051')
  const explanations = values(dataset, '00281055')
  const windows: ImageInfo['windows'] = []
  for (let i = 0; i < Math.min(centers.length, widths.length); i++) {
    // PS3.3 C.11.2.1.2: a width below 1 is not a window (above 0 for LINEAR_EXACT and SIGMOID);
    // skip it rather than divide by it.
    if (!(voiFunction === 'LINEAR' ? widths[i]! >= 1 : widths[i]! > 0)) continue
    const label = explanations[i]
    windows.push({
      center: centers[i]!,
      width: widths[i]!,
      label: typeof label === 'string' && label.trim() ? label.trim() : null,
    })
  }

  const spacing = (tag: string) => {
    const v = numbers(dataset, tag)
    return v.length >= 2 && v[0]! > 0 && v[1]! > 0 ? { row: v[0]!, column: v[1]! } : null
  }
  const pixel = spacing('00280030')
  const imager = spacing('00181164')
  const position = numbers(dataset, '00200032')
  const orientation = numbers(dataset, '00200037')

  const frameTime = numberOf(dataset, '00181063')
  const rate = numberOf(dataset, '00082144') ?? numberOf(dataset, '00180040')
  const frameTimeMs =
    frameTime !== null && frameTime > 0 ? frameTime : rate !== null && rate > 0 ? 1000 / rate : null

  return {
    sopInstanceUid,
    seriesUid: stringOf(dataset, '0020000E') ?? '',
    studyUid: stringOf(dataset, '0020000D') ?? '',
    rows,
    columns,
    samplesPerPixel: samplesPerPixel === 3 ? 3 : 1,
    photometric,
    bitsAllocated,
    bitsStored,
    highBit,
    pixelRepresentation,
    planarConfiguration: colour && numberOf(dataset, '00280006') === 1 ? 1 : 0,
    numberOfFrames: Math.max(1, Math.floor(numberOf(dataset, '00280008') ?? 1)),
    frameTimeMs,
    rescaleSlope: slope !== null && slope !== 0 ? slope : 1,
    rescaleIntercept: intercept,
    modality: stringOf(dataset, '00080060'),
    windows,
    pixelSpacing: pixel
      ? { ...pixel, source: 'pixel' }
      : imager
        ? { ...imager, source: 'imager' }
        : null,
    instanceNumber: numberOf(dataset, '00200013'),
    sliceLocation: numberOf(dataset, '00201041'),
    imagePosition: position.length >= 3 ? [position[0]!, position[1]!, position[2]!] : null,
    patientName: personName(dataset, '00100010'),
    studyDate: dateOf(dataset, '00080020'),
    seriesDescription: stringOf(dataset, '0008103E'),
    seriesNumber: numberOf(dataset, '00200011'),
    imageOrientation:
      orientation.length >= 6
        ? (orientation.slice(0, 6) as [number, number, number, number, number, number])
        : null,
    palette,
    modalityLut,
    voiLuts,
    voiFunction,
  }
}

function normalOf(info: ImageInfo): [number, number, number] | null {
  const o = info.imageOrientation
  if (!o) return null
  return [o[1] * o[5] - o[2] * o[4], o[2] * o[3] - o[0] * o[5], o[0] * o[4] - o[1] * o[3]]
}

/** Instances of one series in display order (InstanceNumber, then position along the normal). */
export function sortInstances(infos: ImageInfo[]): ImageInfo[] {
  const normal = infos.map(normalOf).find((n) => n !== null) ?? null
  const along = (info: ImageInfo): number | null => {
    if (info.imagePosition && normal) {
      const p = info.imagePosition
      return p[0] * normal[0] + p[1] * normal[1] + p[2] * normal[2]
    }
    return info.sliceLocation
  }
  return infos
    .map((info) => ({ info, position: along(info) }))
    .sort((a, b) => {
      const na = a.info.instanceNumber
      const nb = b.info.instanceNumber
      if (na !== null && nb !== null && na !== nb) return na - nb
      // Numbered instances first: a stray unnumbered one goes to the end, not the middle.
      if (na !== null && nb === null) return -1
      if (na === null && nb !== null) return 1
      if (a.position !== null && b.position !== null && a.position !== b.position) {
        return a.position - b.position
      }
      return a.info.sopInstanceUid < b.info.sopInstanceUid
        ? -1
        : a.info.sopInstanceUid > b.info.sopInstanceUid
          ? 1
          : 0
    })
    .map((entry) => entry.info)
}
