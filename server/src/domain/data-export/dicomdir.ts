import { randomBytes } from 'node:crypto'

/*
 * The DICOMDIR of the archive (PS3.10 media storage directory, PS3.3 F.3 Basic Directory IOD): a
 * PATIENT → STUDY → SERIES → IMAGE tree of directory records whose IMAGE records name the files by
 * ReferencedFileID (the path below the DICOMDIR, components of at most 8 characters A–Z 0–9 _).
 * Viewers (and dcmtk's dcmftest/dcmdump, dcmjs) open a folder or disc through this file.
 *
 * server/src/dicom/write.ts writes flat data sets without sequences; a DICOMDIR is one long
 * sequence whose records point at each other by byte offset from the first byte of the file (the
 * 128-byte preamble included, as dcmtk counts). Every offset is a 4-byte UL, so each record's size
 * is known before any offset is, and one pass places them.
 */

export const MEDIA_STORAGE_DIRECTORY = '1.2.840.10008.1.3.10'
const EXPLICIT_LE = '1.2.840.10008.1.2.1'
/** Our implementation class (a UID under the 2.25 UUID root, fixed for this writer). */
const IMPLEMENTATION_UID = '2.25.163950815307126914425413340497711834657'
const IMPLEMENTATION_VERSION = 'YYT_EXPORT_1'

export interface DicomDirImage {
  /** The path components under the DICOMDIR: ['DICOM', 'PA000001', ...]. */
  fileId: string[]
  sopClassUid: string
  sopInstanceUid: string
  transferSyntaxUid: string
  instanceNumber: number
}

export interface DicomDirSeries {
  seriesUid: string
  modality: string
  seriesNumber: number
  images: DicomDirImage[]
}

export interface DicomDirStudy {
  studyUid: string
  /** YYYYMMDD or '' */
  date: string
  /** HHMMSS or '' */
  time: string
  description: string
  accessionNumber: string
  studyId: string
  series: DicomDirSeries[]
}

export interface DicomDirPatient {
  patientId: string
  name: string
  studies: DicomDirStudy[]
}

/** A valid file-ID component: at most 8 of A–Z 0–9 _ (PS3.10 8.2). */
export function fileIdComponent(prefix: string, n: number): string {
  const digits = 8 - prefix.length
  const text = `${prefix}${String(n).padStart(digits, '0')}`
  if (!/^[A-Z0-9_]{1,8}$/.test(text)) throw new Error(`bad file-ID component ${text}`)
  return text
}

type Vr = 'UL' | 'US' | 'CS' | 'UI' | 'PN' | 'LO' | 'SH' | 'DA' | 'TM' | 'IS' | 'OB' | 'SQ'
interface El {
  tag: number
  vr: Vr
  value: Buffer
}

const LONG = new Set<Vr>(['OB', 'SQ'])

function text(vr: Vr, value: string): Buffer {
  let bytes = Buffer.from(value, 'utf8')
  if (bytes.length % 2) bytes = Buffer.concat([bytes, Buffer.from(vr === 'UI' ? [0] : [0x20])])
  return bytes
}
const str = (tag: number, vr: Vr, value: string): El => ({ tag, vr, value: text(vr, value) })
const ul = (tag: number, value: number): El => {
  const b = Buffer.alloc(4)
  b.writeUInt32LE(value, 0)
  return { tag, vr: 'UL', value: b }
}
const us = (tag: number, value: number): El => {
  const b = Buffer.alloc(2)
  b.writeUInt16LE(value, 0)
  return { tag, vr: 'US', value: b }
}

function encode(el: El): Buffer {
  const head = Buffer.alloc(LONG.has(el.vr) ? 12 : 8)
  head.writeUInt16LE(el.tag >>> 16, 0)
  head.writeUInt16LE(el.tag & 0xffff, 2)
  head.write(el.vr, 4, 'ascii')
  if (LONG.has(el.vr)) head.writeUInt32LE(el.value.length, 8)
  else head.writeUInt16LE(el.value.length, 6)
  return Buffer.concat([head, el.value])
}

function item(body: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt16LE(0xfffe, 0)
  head.writeUInt16LE(0xe000, 2)
  head.writeUInt32LE(body.length, 4)
  return Buffer.concat([head, body])
}

interface Rec {
  type: 'PATIENT' | 'STUDY' | 'SERIES' | 'IMAGE'
  keys: El[]
  children: Rec[]
  /** Filled while placing. */
  offset?: number
}

const UTF8 = str(0x00080005, 'CS', 'ISO_IR 192')

function recordsOf(patients: DicomDirPatient[]): Rec[] {
  return patients.map((patient) => ({
    type: 'PATIENT',
    keys: [UTF8, str(0x00100010, 'PN', patient.name), str(0x00100020, 'LO', patient.patientId)],
    children: patient.studies.map((study) => ({
      type: 'STUDY',
      keys: [
        UTF8,
        str(0x00080020, 'DA', study.date),
        str(0x00080030, 'TM', study.time),
        str(0x00080050, 'SH', study.accessionNumber.slice(0, 16)),
        str(0x00081030, 'LO', study.description.slice(0, 64)),
        str(0x0020000d, 'UI', study.studyUid),
        str(0x00200010, 'SH', study.studyId.slice(0, 16)),
      ],
      children: study.series.map((series) => ({
        type: 'SERIES',
        keys: [
          str(0x00080060, 'CS', series.modality),
          str(0x0020000e, 'UI', series.seriesUid),
          str(0x00200011, 'IS', String(series.seriesNumber)),
        ],
        children: series.images.map((image) => ({
          type: 'IMAGE',
          keys: [
            str(0x00041500, 'CS', image.fileId.join('\\')),
            str(0x00041510, 'UI', image.sopClassUid),
            str(0x00041511, 'UI', image.sopInstanceUid),
            str(0x00041512, 'UI', image.transferSyntaxUid),
            str(0x00200013, 'IS', String(image.instanceNumber)),
          ],
          children: [],
        })),
      })),
    })),
  }))
}

/** Records in file order: each record, then its children's subtrees (depth first). */
function flatten(records: Rec[], into: Rec[] = []): Rec[] {
  for (const record of records) {
    into.push(record)
    flatten(record.children, into)
  }
  return into
}

function recordBody(record: Rec, next: number, lower: number): Buffer {
  return Buffer.concat(
    [
      ul(0x00041400, next),
      us(0x00041410, 0xffff),
      ul(0x00041420, lower),
      str(0x00041430, 'CS', record.type),
      ...record.keys,
    ].map(encode),
  )
}

/** The DICOMDIR file (Part 10, explicit VR little endian). */
export function writeDicomDir(patients: DicomDirPatient[], fileSetId = 'YYT_EXPORT'): Buffer {
  const metaElements = [
    { tag: 0x00020001, vr: 'OB' as const, value: Buffer.from([0, 1]) },
    str(0x00020002, 'UI', MEDIA_STORAGE_DIRECTORY),
    str(0x00020003, 'UI', `2.25.${BigInt(`0x${randomBytes(16).toString('hex')}`).toString()}`),
    str(0x00020010, 'UI', EXPLICIT_LE),
    str(0x00020012, 'UI', IMPLEMENTATION_UID),
    str(0x00020013, 'SH', IMPLEMENTATION_VERSION),
  ].map(encode)
  const metaBody = Buffer.concat(metaElements)
  const meta = Buffer.concat([encode(ul(0x00020000, metaBody.length)), metaBody])
  const preamble = Buffer.concat([Buffer.alloc(128), Buffer.from('DICM', 'ascii')])

  const roots = recordsOf(patients)
  const order = flatten(roots)
  // Where the sequence's first item starts: the data set's elements before it have fixed sizes.
  const before = [
    str(0x00041130, 'CS', fileSetId),
    ul(0x00041200, 0),
    ul(0x00041202, 0),
    us(0x00041212, 0),
  ]
  const beforeBytes = before.reduce((sum, el) => sum + encode(el).length, 0)
  let position = preamble.length + meta.length + beforeBytes + 12 // the SQ header
  for (const record of order) {
    record.offset = position
    position += 8 + recordBody(record, 0, 0).length
  }
  const offsetOf = (record: Rec | undefined) => record?.offset ?? 0
  const nextOf = new Map<Rec, Rec | undefined>()
  const link = (siblings: Rec[]) => {
    siblings.forEach((record, i) => {
      nextOf.set(record, siblings[i + 1])
      link(record.children)
    })
  }
  link(roots)
  const items = order.map((record) =>
    item(recordBody(record, offsetOf(nextOf.get(record)), offsetOf(record.children[0]))),
  )
  const sequence = Buffer.concat(items)
  const dataset = Buffer.concat([
    encode(str(0x00041130, 'CS', fileSetId)),
    encode(ul(0x00041200, offsetOf(roots[0]))),
    encode(ul(0x00041202, offsetOf(roots[roots.length - 1]))),
    encode(us(0x00041212, 0)),
    encode({ tag: 0x00041220, vr: 'SQ', value: sequence }),
  ])
  return Buffer.concat([preamble, meta, dataset])
}
