import { createHash } from 'node:crypto'
import type { FieldCipher } from '../../crypto/field-cipher'
import type { ExamsTable, ReportsTable } from '../../db/schema'
import { renderReport } from '../reports'

/*
 * Every report as FHIR R4: one Bundle (type collection) holding the person (Patient), each exam
 * (ImagingStudy, with its series and instances by DICOM UID) and each report (DiagnosticReport).
 * A hospital's report is its stored resource as our FHIR API answers it (reports.renderReport),
 * re-pointed at the Bundle's Patient and ImagingStudy; a report the person wrote for an uploaded
 * study (title, hospital, notes: 个人报告) is a DiagnosticReport tagged `personal`. References are
 * `urn:uuid:` full URLs of our ids, so the Bundle stands alone and import can read it back.
 */

export const DICOM_UID_SYSTEM = 'urn:dicom:uid'
export const DCM_SYSTEM = 'http://dicom.nema.org/resources/ontology/DCM'
/** Tags which source a DiagnosticReport came from: `hospital` or `personal`. */
export const REPORT_SOURCE_SYSTEM = 'urn:yingxiang:fhir:report-source'

const ref = (id: string) => `urn:uuid:${id}`

/** A stable UUID (name-based, v5 layout) for a resource that has no row of its own. */
function derivedUuid(name: string): string {
  const hex = createHash('sha1').update(name).digest('hex')
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

export interface BundlePerson {
  id: string
  name: string
  gender: string
  phone: string | null
  birthDate: string | null
}

export interface BundleInstance {
  sopInstanceUid: string
  sopClassUid: string | null
  instanceNumber: number | null
}

export interface BundleSeries {
  seriesUid: string
  modality: string | null
  seriesNumber: number | null
  description: string | null
  instances: BundleInstance[]
}

export interface BundleExam {
  exam: ExamsTable
  series: BundleSeries[]
  hospitalName: string | null
}

function fhirDateTime(date: string | null, time: string | null): string | undefined {
  if (!date || !/^\d{8}$/.test(date)) return undefined
  const day = `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}`
  const hms = time?.match(/^(\d{2})(\d{2})(\d{2})?/)
  if (!hms) return day
  // DICOM times carry no zone; the studies here are in China.
  return `${day}T${hms[1]}:${hms[2]}:${hms[3] ?? '00'}+08:00`
}

function patientResource(person: BundlePerson) {
  return {
    resourceType: 'Patient',
    id: person.id,
    name: [{ text: person.name }],
    gender: person.gender === 'male' || person.gender === 'female' ? person.gender : 'unknown',
    ...(person.phone ? { telecom: [{ system: 'phone', value: person.phone, use: 'mobile' }] } : {}),
    ...(person.birthDate ? { birthDate: person.birthDate } : {}),
  }
}

function imagingStudy(personId: string, { exam, series, hospitalName }: BundleExam) {
  const started = fhirDateTime(exam.study_date, exam.study_time)
  const description = exam.title ?? exam.description
  return {
    resourceType: 'ImagingStudy',
    id: exam.id,
    ...(exam.study_uid
      ? { identifier: [{ system: DICOM_UID_SYSTEM, value: `urn:oid:${exam.study_uid}` }] }
      : {}),
    status: 'available',
    subject: { reference: ref(personId) },
    ...(started ? { started } : {}),
    ...(hospitalName ? { location: { display: hospitalName } } : {}),
    numberOfSeries: series.length,
    numberOfInstances: series.reduce((sum, s) => sum + s.instances.length, 0),
    ...(description ? { description } : {}),
    series: series.map((s) => ({
      uid: s.seriesUid,
      ...(s.seriesNumber !== null ? { number: s.seriesNumber } : {}),
      modality: { system: DCM_SYSTEM, code: s.modality || 'OT' },
      ...(s.description ? { description: s.description } : {}),
      numberOfInstances: s.instances.length,
      instance: s.instances.map((instance) => ({
        uid: instance.sopInstanceUid,
        sopClass: {
          system: 'urn:ietf:rfc:3986',
          code: `urn:oid:${instance.sopClassUid ?? '1.2.840.10008.5.1.4.1.1.7'}`,
        },
        ...(instance.instanceNumber !== null ? { number: instance.instanceNumber } : {}),
      })),
    })),
  }
}

function hospitalReport(
  personId: string,
  report: ReportsTable,
  exam: ExamsTable,
  cipher: FieldCipher,
): Record<string, unknown> {
  const rendered = renderReport(report.resource_json, exam, cipher) as Record<string, unknown> & {
    subject?: { reference?: string }
    code?: unknown
    contained?: { resourceType?: string; id?: string }[]
    meta?: Record<string, unknown>
  }
  // The identity lives on the Bundle's Patient now; a contained copy would be unreferenced.
  const subjectRef = rendered.subject?.reference
  const contained = rendered.contained?.filter(
    (item) => !(item.resourceType === 'Patient' && `#${String(item.id)}` === subjectRef),
  )
  const { contained: _c, meta: _m, ...rest } = rendered
  return {
    ...rest,
    resourceType: 'DiagnosticReport',
    id: report.id,
    meta: { tag: [{ system: REPORT_SOURCE_SYSTEM, code: 'hospital' }] },
    ...(contained?.length ? { contained } : {}),
    // R4 requires a code; a row stored before our FHIR route (a seeded demo report) may lack it.
    code: rendered.code ?? { text: report.code_text ?? '检查报告' },
    subject: { reference: ref(personId) },
    imagingStudy: [{ reference: ref(exam.id) }],
  }
}

/** The person's own report on an uploaded study, or undefined when they wrote none. */
function personalReport(personId: string, exam: ExamsTable, photoPaths: string[]) {
  if (!exam.title && !exam.notes && !exam.hospital_text && photoPaths.length === 0) return undefined
  return {
    resourceType: 'DiagnosticReport',
    id: derivedUuid(`personal-report:${exam.id}`),
    meta: { tag: [{ system: REPORT_SOURCE_SYSTEM, code: 'personal' }] },
    status: 'final',
    code: { text: exam.title ?? '个人报告' },
    subject: { reference: ref(personId) },
    ...(exam.hospital_text ? { performer: [{ display: exam.hospital_text }] } : {}),
    imagingStudy: [{ reference: ref(exam.id) }],
    ...(exam.notes ? { conclusion: exam.notes } : {}),
    ...(photoPaths.length
      ? {
          presentedForm: photoPaths.map((url) => ({
            contentType: url.endsWith('.png') ? 'image/png' : 'image/jpeg',
            url,
            title: '报告照片',
          })),
        }
      : {}),
  }
}

export function buildBundle(input: {
  person: BundlePerson
  exams: BundleExam[]
  reports: { report: ReportsTable; exam: ExamsTable }[]
  /** Per uploaded exam id, the archive paths of its report photos. */
  photos: Map<string, string[]>
  cipher: FieldCipher
  now: Date
}) {
  const { person } = input
  const entries: { fullUrl: string; resource: Record<string, unknown> }[] = [
    { fullUrl: ref(person.id), resource: patientResource(person) },
  ]
  for (const exam of input.exams) {
    entries.push({ fullUrl: ref(exam.exam.id), resource: imagingStudy(person.id, exam) })
  }
  for (const { report, exam } of input.reports) {
    entries.push({
      fullUrl: ref(report.id),
      resource: hospitalReport(person.id, report, exam, input.cipher),
    })
  }
  for (const { exam } of input.exams) {
    if (exam.source !== 'upload') continue
    const personal = personalReport(person.id, exam, input.photos.get(exam.id) ?? [])
    if (personal) entries.push({ fullUrl: ref(personal.id), resource: personal })
  }
  return {
    resourceType: 'Bundle',
    type: 'collection',
    timestamp: input.now.toISOString(),
    entry: entries,
  }
}
