import { randomBytes, randomUUID } from 'node:crypto'
import os from 'node:os'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { FieldCipher } from '../../src/crypto/field-cipher'
import type { DB } from '../../src/db'
import type { ExamsTable } from '../../src/db/schema'
import { identityDigests } from '../../src/domain/records/access'
import {
  bearer,
  buildProfileApp,
  type ProfileApp,
  signUp,
  type TestUser,
  validIdNumber,
} from '../domain/profile/support'

/** Shared by the patient-*.test.ts files (fixtures insert rows directly); not a test file itself. */

export const PASSWORD = 'Patient2030'

export async function buildPatientApp(): Promise<ProfileApp> {
  return buildProfileApp({
    logLevel: 'silent',
    uploadDir: path.join(os.tmpdir(), `patient-test-${randomBytes(4).toString('hex')}`),
  })
}

/**
 * Removes the hospitals the demo seed put in (and what hangs off them), so a test's own hospitals
 * are the only ones the region cascade and the hospital lists see.
 */
export async function clearSeededHospitals(db: DB): Promise<void> {
  const seeded = (await db.selectFrom('hospitals').select('id').execute()).map((row) => row.id)
  if (seeded.length === 0) return
  await db.deleteFrom('ingest_jobs').where('hospital_id', 'in', seeded).execute()
  await db.deleteFrom('exams').where('hospital_id', 'in', seeded).execute()
  await db.deleteFrom('departments').where('hospital_id', 'in', seeded).execute()
  await db.deleteFrom('hospital_api_keys').where('hospital_id', 'in', seeded).execute()
  await db.deleteFrom('hospitals').where('id', 'in', seeded).execute()
}

export interface HospitalInput {
  id: string
  name: string
  province?: string
  city?: string
  regionCode?: string | null
  regionName?: string | null
  ai?: boolean
}

export async function addHospital(db: DB, input: HospitalInput, sortOrder = 0): Promise<void> {
  await db
    .insertInto('hospitals')
    .values({
      id: input.id,
      name: input.name,
      level: '三级甲等',
      province: input.province ?? '',
      city: input.city ?? '',
      address: `${input.name}地址`,
      sort_order: sortOrder,
      created_at: '2030-01-01T00:00:00.000Z',
      region_code: input.regionCode ?? null,
      region_name: input.regionName ?? null,
      ai_reporting: input.ai ? 1 : 0,
      demo: 1,
    })
    .execute()
}

export interface Patient extends TestUser {
  idNumber: string
  name: string
}

let sequence = 100
/** An account with a password and an ID card bound through the real route. */
export async function patientWithCard(ctx: ProfileApp, name: string): Promise<Patient> {
  sequence += 1
  const idNumber = validIdNumber('19850612', sequence)
  const user = await signUp(ctx.app.db, ctx.clock.now(), { password: PASSWORD })
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/main/account/idcard',
    headers: bearer(user.token),
    payload: { realName: name, idCard: idNumber },
  })
  if (res.statusCode !== 200) throw new Error(`bind card: ${res.body}`)
  return { ...user, idNumber, name }
}

export interface ExamInput {
  hospitalId: string
  /** The pushed identity (resident ID and name); absent for an exam of nobody we know. */
  patient?: { idNumber: string; name: string }
  studyDate?: string | null
  modalities?: string
  description?: string
  accession?: string
  createdAt?: string
  studyUid?: string
}

export async function insertExam(
  db: DB,
  cipher: FieldCipher,
  input: ExamInput,
): Promise<ExamsTable> {
  const digests = input.patient
    ? identityDigests(cipher, input.patient.idNumber, input.patient.name)
    : undefined
  const at = input.createdAt ?? '2030-05-01T00:00:00.000Z'
  const row: ExamsTable = {
    id: randomUUID(),
    hospital_id: input.hospitalId,
    owner_user_id: null,
    source: 'hospital',
    study_uid: input.studyUid ?? `1.2.826.0.1.3680043.10.9.${randomBytes(6).readUIntBE(0, 6)}`,
    accession_number: input.accession ?? null,
    patient_key: digests?.patientKey ?? null,
    patient_name_hash: digests?.nameHash ?? null,
    patient_name_encrypted: input.patient ? cipher.encrypt(input.patient.name) : null,
    patient_phone_encrypted: null,
    patient_sex: 'M',
    patient_birth_date: '1985-06-12',
    modalities: input.modalities ?? 'CT',
    body_part: null,
    description: input.description ?? '胸部 CT 平扫',
    study_date: input.studyDate === undefined ? '2030-04-01' : input.studyDate,
    study_time: '09:30:00',
    title: null,
    hospital_text: null,
    notes: null,
    series_count: 1,
    instance_count: 10,
    size_bytes: 1000,
    status: 'ready',
    status_message: null,
    created_at: at,
    updated_at: at,
  }
  await db.insertInto('exams').values(row).execute()
  return row
}

export async function insertUploadExam(
  db: DB,
  userId: string,
  input: { title?: string; createdAt?: string; status?: string; studyDate?: string } = {},
): Promise<ExamsTable> {
  const at = input.createdAt ?? '2030-05-02T00:00:00.000Z'
  const row: ExamsTable = {
    id: randomUUID(),
    hospital_id: null,
    owner_user_id: userId,
    source: 'upload',
    study_uid: `1.2.826.0.1.3680043.10.8.${randomBytes(6).readUIntBE(0, 6)}`,
    accession_number: null,
    patient_key: null,
    patient_name_hash: null,
    patient_name_encrypted: null,
    patient_phone_encrypted: null,
    patient_sex: null,
    patient_birth_date: null,
    modalities: 'MR',
    body_part: null,
    description: null,
    study_date: input.studyDate ?? '2030-03-01',
    study_time: null,
    title: input.title ?? '外院头颅 MR',
    hospital_text: '外院',
    notes: null,
    series_count: 1,
    instance_count: 20,
    size_bytes: 5000,
    status: input.status ?? 'ready',
    status_message: null,
    created_at: at,
    updated_at: at,
  }
  await db.insertInto('exams').values(row).execute()
  return row
}

export interface ReportInput {
  status?: string
  conclusion?: string
  findings?: string
  performer?: string
  reviewer?: string
  issuedAt?: string
  /** When we stored it (reports.updated_at; read marks compare to it). */
  at?: string
  codeText?: string
}

function resourceOf(input: ReportInput, version: number): string {
  return JSON.stringify({
    resourceType: 'DiagnosticReport',
    meta: { versionId: String(version) },
    status: input.status ?? 'final',
    issued: input.issuedAt ?? '2030-04-01T10:00:00Z',
    conclusion: input.conclusion ?? '未见明显异常。',
    presentedForm: [
      {
        contentType: 'text/plain; charset=utf-8',
        data: Buffer.from(input.findings ?? '双肺纹理清晰。', 'utf8').toString('base64'),
      },
    ],
    performer: [
      { display: input.performer ?? '王医生' },
      { type: 'Organization', display: '放射科' },
    ],
    resultsInterpreter: [{ display: input.reviewer ?? '李主任' }],
  })
}

/** A report on an exam, version 1 (and its report_versions row). */
export async function insertReport(
  db: DB,
  exam: ExamsTable,
  input: ReportInput = {},
): Promise<string> {
  const id = randomUUID()
  const at = input.at ?? '2030-05-01T00:00:00.000Z'
  await db
    .insertInto('reports')
    .values({
      id,
      exam_id: exam.id,
      hospital_id: exam.hospital_id!,
      resource_id: `urn:report|${id}`,
      status: input.status ?? 'final',
      version: 1,
      code_text: input.codeText ?? exam.description,
      findings: input.findings ?? '双肺纹理清晰。',
      conclusion: input.conclusion ?? '未见明显异常。',
      performer: input.performer ?? '王医生',
      reviewer: input.reviewer ?? '李主任',
      effective_at: '2030-04-01T09:30:00+08:00',
      issued_at: input.issuedAt ?? '2030-04-01T10:00:00Z',
      resource_json: resourceOf(input, 1),
      created_at: at,
      updated_at: at,
    })
    .execute()
  await db
    .insertInto('report_versions')
    .values({
      id: randomUUID(),
      report_id: id,
      version: 1,
      status: input.status ?? 'final',
      resource_json: resourceOf(input, 1),
      recorded_at: at,
    })
    .execute()
  return id
}

/** A new version of a report, as the FHIR route stores an amendment. */
export async function amendReport(db: DB, reportId: string, input: ReportInput): Promise<void> {
  const current = await db
    .selectFrom('reports')
    .select('version')
    .where('id', '=', reportId)
    .executeTakeFirstOrThrow()
  const version = Number(current.version) + 1
  const at = input.at ?? '2030-05-10T00:00:00.000Z'
  await db
    .updateTable('reports')
    .set({
      status: input.status ?? 'amended',
      version,
      conclusion: input.conclusion ?? null,
      findings: input.findings ?? null,
      issued_at: input.issuedAt ?? null,
      resource_json: resourceOf(input, version),
      updated_at: at,
    })
    .where('id', '=', reportId)
    .execute()
  await db
    .insertInto('report_versions')
    .values({
      id: randomUUID(),
      report_id: reportId,
      version,
      status: input.status ?? 'amended',
      resource_json: resourceOf(input, version),
      recorded_at: at,
    })
    .execute()
}

/**
 * One series of instance rows on an exam, as ingest leaves them (no files: for tests of what the
 * rows drive, such as key images and bookmarks). Instance numbers follow the order of `sops`.
 */
export async function insertSeries(
  db: DB,
  examId: string,
  seriesUid: string,
  sops: readonly { sop: string; frames?: number }[],
): Promise<{ seriesId: string; instanceIds: string[] }> {
  const seriesId = randomUUID()
  const at = '2030-05-01T00:00:00.000Z'
  await db
    .insertInto('series')
    .values({
      id: seriesId,
      exam_id: examId,
      series_uid: seriesUid,
      modality: 'CT',
      series_number: 1,
      description: null,
      body_part: null,
      instance_count: sops.length,
      created_at: at,
    })
    .execute()
  const instanceIds: string[] = []
  for (const [index, { sop, frames }] of sops.entries()) {
    const id = randomUUID()
    await db
      .insertInto('instances')
      .values({
        id,
        exam_id: examId,
        series_id: seriesId,
        sop_instance_uid: sop,
        sop_class_uid: '1.2.840.10008.5.1.4.1.1.2',
        instance_number: index + 1,
        transfer_syntax: '1.2.840.10008.1.2.1',
        rows: 4,
        columns: 4,
        frame_count: frames ?? 1,
        file_key: `test/series/${id}.dcm`,
        file_size: 100,
        pixels_key: null,
        pixel_format: null,
        frame_bytes: null,
        preview_status: 'none',
        preview_message: null,
        metadata_json: '{}',
        created_at: at,
      })
      .execute()
    instanceIds.push(id)
  }
  return { seriesId, instanceIds }
}

export function client(app: FastifyInstance) {
  return {
    get(url: string, token?: string, headers: Record<string, string> = {}) {
      return app.inject({ url, headers: { ...(token ? bearer(token) : {}), ...headers } })
    },
    send(
      method: 'POST' | 'DELETE' | 'PUT',
      url: string,
      token: string | undefined,
      payload?: unknown,
    ) {
      return app.inject({
        method,
        url,
        headers: token ? bearer(token) : {},
        ...(payload === undefined ? {} : { payload: payload as object }),
      })
    },
  }
}
