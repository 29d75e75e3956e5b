/**
 * The DICOM JSON model (PS3.18 Annex F): what QIDO-RS and WADO-RS /metadata answer.
 * Keys are 8 upper-case hex digits, each attribute `{ vr, Value? | InlineBinary? | BulkDataURI? }`.
 */
import { charsetLabel, decodeText, TEXT_VRS } from './charset'
import { isGroupLength, jsonTag } from './dictionary'
import type { DataSet, DicomInstance, Element } from './parse'
import { vrOf } from './parse'

export interface PersonNameJson {
  Alphabetic?: string
  Ideographic?: string
  Phonetic?: string
}

export type JsonValue = string | number | PersonNameJson | DicomJson | null

export interface DicomJsonAttribute {
  vr: string
  Value?: JsonValue[]
  InlineBinary?: string
  BulkDataURI?: string
}

export type DicomJson = Record<string, DicomJsonAttribute>

export interface DicomJsonOptions {
  /**
   * Where a client fetches a bulk attribute (pixel data, large binary values); the tag path is the
   * 8-hex tag, with parents for nested ones ("00540016.0.00181072" style is up to the caller).
   * Without it, pixel data is left out (metadata never carries pixels) and large binaries too.
   */
  bulkDataUri?: (tag: string) => string | undefined
  /** Binary values up to this size are inlined as base64 (PS3.18 F.2.7). */
  inlineBinaryMax?: number
}

/** LUT Data (0028,3006), in a Modality or VOI LUT Sequence item (PS3.3 C.11.1, C.11.2). */
const LUT_DATA = '00283006'
const BINARY_VRS = new Set(['OB', 'OD', 'OF', 'OL', 'OV', 'OW', 'UN'])
/** Single-valued text VRs: a backslash in them is text, not a value separator (PS3.5 6.2). */
const SINGLE_TEXT_VRS = new Set(['LT', 'ST', 'UT', 'UR'])
const NUMERIC_STRING_VRS = new Set(['DS', 'IS'])
const BINARY_NUMBERS: Record<string, { size: number; read: keyof DataSet }> = {
  US: { size: 2, read: 'uint16' },
  SS: { size: 2, read: 'int16' },
  UL: { size: 4, read: 'uint32' },
  SL: { size: 4, read: 'int32' },
  FL: { size: 4, read: 'float' },
  FD: { size: 8, read: 'double' },
}

export function dicomJson(instance: DicomInstance, options: DicomJsonOptions = {}): DicomJson {
  const label = charsetLabel(instance.specificCharacterSet)
  return dataSetJson(instance.dataSet, label, options, '')
}

function dataSetJson(
  dataSet: DataSet,
  label: string,
  options: DicomJsonOptions,
  parent: string,
): DicomJson {
  const out: DicomJson = {}
  const tags = Object.keys(dataSet.elements).sort()
  for (const parserTag of tags) {
    const tag = jsonTag(parserTag)
    // The file meta group belongs to the file, not the instance; group lengths are retired.
    if (tag.startsWith('0002') || isGroupLength(tag) || tag.startsWith('FFFE')) continue
    const attribute = attributeJson(
      dataSet,
      dataSet.elements[parserTag],
      tag,
      label,
      options,
      parent,
    )
    if (attribute) out[tag] = attribute
  }
  return out
}

function attributeJson(
  dataSet: DataSet,
  element: Element,
  tag: string,
  label: string,
  options: DicomJsonOptions,
  parent: string,
): DicomJsonAttribute | undefined {
  const path = parent ? `${parent}.${tag}` : tag
  const isPixelData = tag === '7FE00010' || tag === '7FE00008' || tag === '7FE00009'
  let vr = vrOf(element) ?? (element.items ? 'SQ' : 'UN')
  if (isPixelData && (vr === 'UN' || element.encapsulatedPixelData)) vr = 'OB'
  if (element.items) {
    return {
      vr: 'SQ',
      Value: element.items.map((item, index) =>
        item.dataSet ? dataSetJson(item.dataSet, label, options, `${path}.${index}`) : {},
      ),
    }
  }
  if (isPixelData || BINARY_VRS.has(vr)) {
    const uri = options.bulkDataUri?.(path)
    if (uri) return { vr, BulkDataURI: uri }
    if (isPixelData || element.encapsulatedPixelData) return undefined
    // LUT Data (Modality and VOI LUT Sequences) is inlined whatever its size: at most 65 536
    // 16-bit entries, and a viewer cannot show the image without it (the metadata is our only
    // answer carrying it; there is no bulk data route).
    const limit = tag === LUT_DATA ? Infinity : (options.inlineBinaryMax ?? 1024)
    if (element.length > limit) return undefined
    const bytes = dataSet.byteArray.subarray(
      element.dataOffset,
      element.dataOffset + element.length,
    )
    return element.length > 0 ? { vr, InlineBinary: Buffer.from(bytes).toString('base64') } : { vr }
  }
  if (element.length <= 0) return { vr }
  const binary = BINARY_NUMBERS[vr]
  if (binary) {
    const count = Math.floor(element.length / binary.size)
    const read = dataSet[binary.read] as (tag: string, index?: number) => number | undefined
    const values = Array.from(
      { length: count },
      (_, i) => read.call(dataSet, element.tag, i) ?? null,
    )
    return { vr, Value: values }
  }
  if (vr === 'AT') {
    const values: string[] = []
    for (let i = 0; i + 4 <= element.length; i += 4) {
      const group = dataSet.uint16(element.tag, i / 2) ?? 0
      const number = dataSet.uint16(element.tag, i / 2 + 1) ?? 0
      values.push(((group << 16) | number).toString(16).toUpperCase().padStart(8, '0'))
    }
    return { vr, Value: values }
  }
  const bytes = dataSet.byteArray.subarray(element.dataOffset, element.dataOffset + element.length)
  const text = decodeText(bytes, TEXT_VRS.has(vr) ? label : 'latin1').replace(/[\0 ]+$/, '')
  const parts = SINGLE_TEXT_VRS.has(vr) ? [text] : text.split('\\')
  if (text.trim() === '') return { vr }
  if (vr === 'PN') return { vr, Value: parts.map(personName) }
  if (NUMERIC_STRING_VRS.has(vr)) {
    return {
      vr,
      Value: parts
        .map((part) => (part.trim() === '' ? null : Number(part.trim())))
        .map((n) => (n === null || Number.isFinite(n) ? n : null)),
    }
  }
  return { vr, Value: parts.map((part) => (SINGLE_TEXT_VRS.has(vr) ? part : part.trim()) || null) }
}

/** "Alphabetic=Ideographic=Phonetic" groups (PS3.18 F.2.2). */
function personName(value: string): PersonNameJson | null {
  const [alphabetic, ideographic, phonetic] = value.split('=')
  const name: PersonNameJson = {}
  if (alphabetic?.trim()) name.Alphabetic = alphabetic.trim()
  if (ideographic?.trim()) name.Ideographic = ideographic.trim()
  if (phonetic?.trim()) name.Phonetic = phonetic.trim()
  return Object.keys(name).length ? name : null
}
