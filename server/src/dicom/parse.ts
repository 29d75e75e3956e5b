import { inflateRawSync } from 'node:zlib'
import * as dicomParser from 'dicom-parser'
import { charsetLabel, decodeText, TEXT_VRS } from './charset'
import { VR_BY_TAG } from './dictionary'
import { TS } from './transfer-syntax'

export type DataSet = dicomParser.DataSet
export type Element = dicomParser.Element

export interface ImageInfo {
  rows: number
  columns: number
  bitsAllocated: number
  bitsStored: number
  highBit: number
  /** 0 unsigned, 1 two's complement. */
  pixelRepresentation: number
  samplesPerPixel: number
  photometricInterpretation: string
  /** 0 interleaved (RGBRGB...), 1 planar (RRR...GGG...BBB...). */
  planarConfiguration: number
  numberOfFrames: number
  rescaleSlope: number
  rescaleIntercept: number
  /** Window centre/width are multi-valued (PS3.3 C.11.2): several presets, same index pairs up. */
  windowCenter: number[]
  windowWidth: number[]
  pixelSpacing?: [number, number]
  imagerPixelSpacing?: [number, number]
  sliceLocation?: number
  imagePositionPatient?: number[]
  imageOrientationPatient?: number[]
}

export interface DicomInstance {
  transferSyntaxUid: string
  specificCharacterSet: string
  sopClassUid: string
  sopInstanceUid: string
  studyInstanceUid: string
  seriesInstanceUid: string
  patient: {
    /** Display form of the name (alphabetic group, or the ideographic one when that is all there is). */
    name?: string
    /** PatientName as sent, all component groups, already decoded from its character set. */
    nameRaw?: string
    id?: string
    /** OtherPatientIDs (0010,1000) and the PatientID items of OtherPatientIDsSequence (0010,1002). */
    otherIds: string[]
    birthDate?: string
    sex?: string
  }
  study: { date?: string; time?: string; description?: string; accessionNumber?: string }
  modality?: string
  series: { number?: number; description?: string }
  instanceNumber?: number
  /** Absent for instances without pixel data (structured reports, presentation states, ...). */
  image?: ImageInfo
  /** The parsed data set (inflated when the file was deflated), for decodeFrames and dicomJson. */
  dataSet: DataSet
}

export type DicomParseErrorCode = 'NOT_DICOM' | 'MISSING_UID' | 'TOO_LARGE' | 'CORRUPT'

/** Shown to the person whose upload it was, hence Chinese. */
const PARSE_MESSAGES: Record<DicomParseErrorCode, string> = {
  NOT_DICOM: '不是 DICOM 文件',
  MISSING_UID: 'DICOM 文件缺少检查、序列或图像编号（UID）',
  TOO_LARGE: 'DICOM 文件解压后过大',
  CORRUPT: 'DICOM 文件已损坏，无法读取',
}

export class DicomParseError extends Error {
  constructor(
    readonly code: DicomParseErrorCode,
    readonly detail?: string,
  ) {
    super(PARSE_MESSAGES[code])
    this.name = 'DicomParseError'
  }
}

export interface ParseOptions {
  /** Cap on the inflated size of a deflated instance, so a tiny deflate bomb cannot fill memory. */
  maxInflatedBytes?: number
}

const DEFAULT_MAX_INFLATED = 1024 * 1024 * 1024

/**
 * Parse a Part 10 file. Throws DicomParseError (never a bare string, which dicom-parser throws) so
 * the ingest job can count the file as skipped with a reason a person understands.
 */
export function parse(buffer: Uint8Array, options: ParseOptions = {}): DicomInstance {
  const bytes = Buffer.isBuffer(buffer)
    ? buffer
    : Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength)
  if (bytes.length < 132 || bytes.toString('latin1', 128, 132) !== 'DICM') {
    throw new DicomParseError('NOT_DICOM')
  }
  const maxInflated = options.maxInflatedBytes ?? DEFAULT_MAX_INFLATED
  let dataSet: DataSet
  try {
    dataSet = dicomParser.parseDicom(bytes, {
      // The meta header stays as it is; everything after it is raw deflate (PS3.5 A.5).
      inflater: (array: Uint8Array, position: number) => {
        const inflated = inflateRawSync(array.subarray(position), {
          maxOutputLength: maxInflated,
        })
        const whole = Buffer.alloc(position + inflated.length)
        whole.set(array.subarray(0, position), 0)
        whole.set(inflated, position)
        return whole
      },
    } as dicomParser.ParseDicomOptions)
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error)
    // zlib refuses past maxOutputLength with ERR_BUFFER_TOO_LARGE.
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new DicomParseError('TOO_LARGE', detail)
    }
    throw new DicomParseError('CORRUPT', detail)
  }
  return readInstance(dataSet)
}

export function readInstance(dataSet: DataSet): DicomInstance {
  const specificCharacterSet = rawString(dataSet, 'x00080005') ?? ''
  const label = charsetLabel(specificCharacterSet)
  const text = (tag: string) => elementText(dataSet, tag, label)
  const uid = (tag: string) => text(tag)?.replace(/\0/g, '')

  const sopInstanceUid = uid('x00080018')
  const studyInstanceUid = uid('x0020000d')
  const seriesInstanceUid = uid('x0020000e')
  if (!sopInstanceUid || !studyInstanceUid || !seriesInstanceUid) {
    throw new DicomParseError('MISSING_UID')
  }
  const nameRaw = text('x00100010')
  return {
    transferSyntaxUid: uid('x00020010') ?? TS.implicitLittle,
    specificCharacterSet,
    sopClassUid: uid('x00080016') ?? uid('x00020002') ?? '',
    sopInstanceUid,
    studyInstanceUid,
    seriesInstanceUid,
    patient: {
      name: nameRaw === undefined ? undefined : displayName(nameRaw) || undefined,
      nameRaw,
      id: text('x00100020'),
      otherIds: otherPatientIds(dataSet, label),
      birthDate: text('x00100030'),
      sex: text('x00100040'),
    },
    study: {
      date: text('x00080020'),
      time: text('x00080030'),
      description: text('x00081030'),
      accessionNumber: text('x00080050'),
    },
    modality: text('x00080060'),
    series: { number: integer(dataSet, 'x00200011'), description: text('x0008103e') },
    instanceNumber: integer(dataSet, 'x00200013'),
    image: readImage(dataSet),
    dataSet,
  }
}

function readImage(dataSet: DataSet): ImageInfo | undefined {
  const rows = dataSet.uint16('x00280010')
  const columns = dataSet.uint16('x00280011')
  if (!rows || !columns || !dataSet.elements.x7fe00010) return undefined
  const bitsAllocated = dataSet.uint16('x00280100') ?? 16
  const bitsStored = dataSet.uint16('x00280101') ?? bitsAllocated
  return {
    rows,
    columns,
    bitsAllocated,
    bitsStored,
    highBit: dataSet.uint16('x00280102') ?? bitsStored - 1,
    pixelRepresentation: dataSet.uint16('x00280103') ?? 0,
    samplesPerPixel: dataSet.uint16('x00280002') ?? 1,
    photometricInterpretation: (rawString(dataSet, 'x00280004') ?? 'MONOCHROME2').toUpperCase(),
    planarConfiguration: dataSet.uint16('x00280006') ?? 0,
    numberOfFrames: Math.max(1, integer(dataSet, 'x00280008') ?? 1),
    rescaleSlope: numbers(dataSet, 'x00281053')[0] ?? 1,
    rescaleIntercept: numbers(dataSet, 'x00281052')[0] ?? 0,
    windowCenter: numbers(dataSet, 'x00281050'),
    windowWidth: numbers(dataSet, 'x00281051'),
    pixelSpacing: pair(numbers(dataSet, 'x00280030')),
    imagerPixelSpacing: pair(numbers(dataSet, 'x00181164')),
    sliceLocation: numbers(dataSet, 'x00201041')[0],
    imagePositionPatient: optionalList(numbers(dataSet, 'x00200032'), 3),
    imageOrientationPatient: optionalList(numbers(dataSet, 'x00200037'), 6),
  }
}

/** The VR of an element: its own in explicit syntaxes, the dictionary's in implicit ones. */
export function vrOf(element: Element): string | undefined {
  return element.vr ?? VR_BY_TAG[element.tag.slice(1).toUpperCase()]
}

/** An element's string value decoded in the instance's character set, trimmed; undefined when empty. */
export function elementText(dataSet: DataSet, tag: string, label: string): string | undefined {
  const element = dataSet.elements[tag]
  if (!element || element.length <= 0) return undefined
  const bytes = dataSet.byteArray.subarray(element.dataOffset, element.dataOffset + element.length)
  const vr = vrOf(element)
  const value = decodeText(bytes, vr && TEXT_VRS.has(vr) ? label : 'latin1')
  const trimmed = value.replace(/[\0 ]+$/, '').replace(/^ +/, '')
  return trimmed === '' ? undefined : trimmed
}

function rawString(dataSet: DataSet, tag: string): string | undefined {
  return elementText(dataSet, tag, 'latin1')
}

/** Numbers from a DS/IS value ("1.5\\2"), or from binary VRs when an explicit file says so. */
export function numbers(dataSet: DataSet, tag: string): number[] {
  const value = rawString(dataSet, tag)
  if (value === undefined) return []
  return value
    .split('\\')
    .map((part) => Number(part.trim()))
    .filter((n) => Number.isFinite(n))
}

function integer(dataSet: DataSet, tag: string): number | undefined {
  const value = numbers(dataSet, tag)[0]
  return value === undefined ? undefined : Math.trunc(value)
}

function pair(values: number[]): [number, number] | undefined {
  return values.length >= 2 ? [values[0], values[1]] : undefined
}

function optionalList(values: number[], length: number): number[] | undefined {
  return values.length >= length ? values.slice(0, length) : undefined
}

function otherPatientIds(dataSet: DataSet, label: string): string[] {
  const ids = (elementText(dataSet, 'x00101000', label) ?? '')
    .split('\\')
    .map((id) => id.trim())
    .filter(Boolean)
  for (const item of dataSet.elements.x00101002?.items ?? []) {
    const id = item.dataSet && elementText(item.dataSet, 'x00100020', label)
    if (id) ids.push(id)
  }
  return [...new Set(ids)]
}

/**
 * A readable name from a PN value: first non-empty component group (alphabetic, then ideographic),
 * components joined. Chinese names are written family+given without a space ("张^三" → "张三").
 */
export function displayName(personName: string): string {
  const group = personName.split('=').find((part) => part.replace(/\^/g, '').trim() !== '') ?? ''
  const parts = group
    .split('^')
    .map((part) => part.trim())
    .filter(Boolean)
  const cjk = /[\u3400-\u9fff\uf900-\ufaff]/.test(group)
  return parts.join(cjk ? '' : ' ')
}
