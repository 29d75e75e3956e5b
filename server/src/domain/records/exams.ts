import { randomUUID } from 'node:crypto'
import type { Kysely, Transaction, Updateable } from 'kysely'
import type { FieldCipher } from '../../crypto/field-cipher'
import type { Database, ExamsTable } from '../../db/schema'
import { idCardNumberProblem } from '../identity'
import { normaliseIdNumber, normalisePatientName } from './access'

/** Anything that runs queries: the database, or a transaction inside it. */
export type Executor = Kysely<Database> | Transaction<Database>

/** Who the hospital says the patient is. Every field optional: pushes carry what they have. */
export interface PushedPatient {
  /** Resident ID number; anything that is not a valid one is ignored (never matched). */
  idNumber?: string
  name?: string
  /** The mobile the hospital recorded: 影像查询 proves ownership by an SMS code to it. */
  phone?: string
  sex?: string
  /** YYYY-MM-DD */
  birthDate?: string
}

export interface HospitalExamInput {
  hospitalId: string
  studyUid: string
  accessionNumber?: string
  patient?: PushedPatient
  study?: { date?: string; time?: string; description?: string }
}

const MOBILE = /^1[2-9]\d{9}$/

/** The first of the given IDs that is a valid resident ID number (PatientID, OtherPatientIDs...). */
export function residentIdAmong(ids: (string | undefined)[], now: Date): string | undefined {
  for (const id of ids) {
    if (!id) continue
    const candidate = normaliseIdNumber(id)
    if (/^\d{17}[\dX]$/.test(candidate) && !idCardNumberProblem(candidate, now)) return candidate
  }
  return undefined
}

/** A mobile number among free text ("138 0013 8000", "+86-13800138000"), or undefined. */
export function mobileIn(text: string | undefined): string | undefined {
  if (!text) return undefined
  for (const part of text.split(/[\\,;/]/)) {
    const digits = part.replace(/[\s-]/g, '').replace(/^(\+?86)/, '')
    if (MOBILE.test(digits)) return digits
  }
  return undefined
}

/**
 * The columns a pushed identity sets: keyed digests for matching, encrypted name and phone for
 * display and SMS proof. Only what was given: a later push without a phone keeps the earlier one.
 */
export function identityColumns(
  cipher: FieldCipher,
  patient: PushedPatient | undefined,
  now: Date,
): Updateable<ExamsTable> {
  if (!patient) return {}
  const columns: Updateable<ExamsTable> = {}
  const idNumber = residentIdAmong([patient.idNumber], now)
  if (idNumber) columns.patient_key = cipher.digest(idNumber)
  const name = patient.name?.trim()
  if (name) {
    columns.patient_name_hash = cipher.digest(`name\u0000${normalisePatientName(name)}`)
    columns.patient_name_encrypted = cipher.encrypt(name)
  }
  const phone = mobileIn(patient.phone)
  if (phone) columns.patient_phone_encrypted = cipher.encrypt(phone)
  if (patient.sex) columns.patient_sex = patient.sex
  if (patient.birthDate) columns.patient_birth_date = patient.birthDate
  return columns
}

/**
 * The hospital exam of (hospitalId, studyUid): created on first sight by STOW-RS or a FHIR report,
 * whichever comes first; fields given later overwrite (a hospital correcting a name wins). Safe under
 * concurrency: the insert yields to the unique index, then the row is updated and read.
 */
export async function upsertHospitalExam(
  db: Executor,
  cipher: FieldCipher,
  input: HospitalExamInput,
  now: Date,
): Promise<ExamsTable> {
  const at = now.toISOString()
  await db
    .insertInto('exams')
    .values({
      id: randomUUID(),
      hospital_id: input.hospitalId,
      owner_user_id: null,
      source: 'hospital',
      study_uid: input.studyUid,
      modalities: '',
      series_count: 0,
      instance_count: 0,
      size_bytes: 0,
      status: 'ready',
      created_at: at,
      updated_at: at,
    })
    .onConflict((conflict) => conflict.columns(['hospital_id', 'study_uid']).doNothing())
    .execute()

  const updates: Updateable<ExamsTable> = identityColumns(cipher, input.patient, now)
  if (input.accessionNumber?.trim()) updates.accession_number = input.accessionNumber.trim()
  if (input.study?.date) updates.study_date = input.study.date
  if (input.study?.time) updates.study_time = input.study.time
  if (input.study?.description) updates.description = input.study.description
  if (Object.keys(updates).length > 0) {
    await db
      .updateTable('exams')
      .set({ ...updates, updated_at: at })
      .where('hospital_id', '=', input.hospitalId)
      .where('study_uid', '=', input.studyUid)
      .execute()
  }
  return db
    .selectFrom('exams')
    .selectAll()
    .where('hospital_id', '=', input.hospitalId)
    .where('study_uid', '=', input.studyUid)
    .executeTakeFirstOrThrow()
}

/**
 * The patient's own exam of (userId, studyUid) for an upload, created on first sight. Uploads are
 * never matched to anyone by identity: only the uploader sees them (and whom they share with).
 */
export async function upsertUploadExam(
  db: Executor,
  cipher: FieldCipher,
  input: {
    userId: string
    studyUid: string
    accessionNumber?: string
    patientName?: string
    sex?: string
    birthDate?: string
    study?: { date?: string; time?: string; description?: string }
  },
  now: Date,
): Promise<ExamsTable> {
  const at = now.toISOString()
  await db
    .insertInto('exams')
    .values({
      id: randomUUID(),
      hospital_id: null,
      owner_user_id: input.userId,
      source: 'upload',
      study_uid: input.studyUid,
      accession_number: input.accessionNumber?.trim() || null,
      patient_name_encrypted: input.patientName?.trim()
        ? cipher.encrypt(input.patientName.trim())
        : null,
      patient_sex: input.sex ?? null,
      patient_birth_date: input.birthDate ?? null,
      study_date: input.study?.date ?? null,
      study_time: input.study?.time ?? null,
      description: input.study?.description ?? null,
      modalities: '',
      series_count: 0,
      instance_count: 0,
      size_bytes: 0,
      status: 'ready',
      created_at: at,
      updated_at: at,
    })
    .onConflict((conflict) => conflict.columns(['owner_user_id', 'study_uid']).doNothing())
    .execute()
  return db
    .selectFrom('exams')
    .selectAll()
    .where('owner_user_id', '=', input.userId)
    .where('study_uid', '=', input.studyUid)
    .executeTakeFirstOrThrow()
}

/**
 * Recounts an exam's series, instances, bytes and modalities from its rows (after an ingest or a
 * delete), and each series' instance count. Counting from the rows, not adding deltas, keeps the
 * numbers right whatever ran concurrently.
 */
export async function refreshExamCounts(db: Executor, examId: string, now: Date): Promise<void> {
  const series = await db
    .selectFrom('series')
    .leftJoin('instances', 'instances.series_id', 'series.id')
    .select((eb) => [
      'series.id',
      'series.modality',
      eb.fn.count<number | string>('instances.id').as('instances'),
      eb.fn.coalesce(eb.fn.sum<number | string>('instances.file_size'), eb.val(0)).as('bytes'),
    ])
    .where('series.exam_id', '=', examId)
    .groupBy(['series.id', 'series.modality'])
    .execute()
  for (const row of series) {
    await db
      .updateTable('series')
      .set({ instance_count: Number(row.instances) })
      .where('id', '=', row.id)
      .execute()
  }
  const withInstances = series.filter((row) => Number(row.instances) > 0)
  const modalities = [
    ...new Set(withInstances.map((row) => row.modality).filter((m): m is string => !!m)),
  ].sort()
  await db
    .updateTable('exams')
    .set({
      series_count: withInstances.length,
      instance_count: withInstances.reduce((sum, row) => sum + Number(row.instances), 0),
      size_bytes: withInstances.reduce((sum, row) => sum + Number(row.bytes), 0),
      modalities: modalities.join(','),
      updated_at: now.toISOString(),
    })
    .where('id', '=', examId)
    .execute()
}

/** The modalities of an exam row (stored comma-separated). */
export function modalityList(modalities: string | null): string[] {
  return (modalities ?? '').split(',').filter(Boolean)
}

/** How an exam is titled in lists, notices and grants: its title, description, or modalities. */
export function examTitle(exam: Pick<ExamsTable, 'title' | 'description' | 'modalities'>): string {
  const title = exam.title?.trim() || exam.description?.trim()
  if (title) return title
  const modalities = modalityList(exam.modalities)
  return modalities.length > 0 ? `${modalities.join('/')} 检查` : '影像检查'
}
