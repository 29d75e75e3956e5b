import { randomUUID } from 'node:crypto'
import { sql, type Transaction } from 'kysely'
import type { FieldCipher } from '../../crypto/field-cipher'
import type { DB } from '../../db'
import type { Database, ExamsTable, ReportsTable, ReportVersionsTable } from '../../db/schema'
import { ApiError } from '../../http/errors'
import type { SubscribeNotice } from '../../providers/subscribe-message'
import { isUniqueViolation } from '../identity'
import { identityDigests, normaliseIdNumber } from '../records'
import { mobileIn, upsertHospitalExam, type PushedPatient } from '../records'
import { announceReport, examPeople } from './report-notices'

/*
 * Hospital reports (FHIR DiagnosticReport) as the database keeps them: `reports` holds the latest
 * version of each, `report_versions` every version a hospital sent (the amendment history a patient
 * sees). The FHIR mapping lives in routes/fhir; this module knows statuses, versions and exams.
 *
 * Who the patient is never reaches these rows in clear: the stored resource has the identity taken
 * out (routes/fhir strips it), and the identity goes to the exam as keyed digests plus the encrypted
 * name and phone (upsertHospitalExam).
 */

export const REPORT_STATUSES = [
  'preliminary',
  'final',
  'amended',
  'corrected',
  'cancelled',
] as const
export type ReportStatus = (typeof REPORT_STATUSES)[number]

/** A report in one of these has been released: a change must say it amends or corrects it. */
const RELEASED = new Set<string>(['final', 'amended', 'corrected'])
const CHANGES_OF_RELEASED = new Set<string>(['amended', 'corrected'])

export const REPORT_NOT_FOUND = '报告不存在，或不属于本医院'
export const REPORT_FINAL_CHANGE =
  '该报告已发布为最终报告（final），修改内容须以 status 为 amended（修订）或 corrected（更正）提交；历史版本会保留'
export const REPORT_VERSION_CONFLICT = '报告已被更新，当前版本与 If-Match 不符，请重新读取后再提交'
export const REPORT_BUSY = '该报告正被同时修改，请稍后重试'

/** Thrown for outcomes a FHIR client must be able to tell apart (code = OperationOutcome issue code). */
export class ReportError extends ApiError {
  override name = 'ReportError'
  constructor(
    statusCode: number,
    message: string,
    readonly issueCode: string,
    readonly expression?: string,
  ) {
    super(statusCode, message)
  }
}

/** What a hospital sends, already checked and reduced by routes/fhir. */
export interface ReportWrite {
  /** The hospital's business identifier of the report: `system|value` (reports.resource_id). */
  identifier: string
  status: ReportStatus
  studyUid: string
  accessionNumber?: string
  /** Who the report is about; undefined keeps the exam's identity. */
  patient?: PushedPatient
  codeText: string
  findings: string | null
  conclusion: string | null
  performer: string | null
  reviewer: string | null
  /** FHIR dateTime as sent (date, or date and time with offset). */
  effectiveAt: string | null
  /** ISO instant (UTC). */
  issuedAt: string | null
  /** Study date and time in the hospital's local time, taken from effective when the exam has none. */
  studyDate?: string
  studyTime?: string
  /** The resource without id, meta and identity values: what is stored (and compared for retries). */
  resource: Record<string, unknown>
}

export interface SaveOptions {
  /** PUT: the report's id (ours); POST finds the report by its identifier instead. */
  reportId?: string
  /** If-Match: the version the client last read. */
  expectedVersion?: number
}

export interface SavedReport {
  report: ReportsTable
  exam: ExamsTable
  /** created: 201; updated: a new version; unchanged: a retry of the current version. */
  outcome: 'created' | 'updated' | 'unchanged'
  /** 报告通知 written with the version; their subscribe messages, to send after the commit. */
  notices: SubscribeNotice[]
}

/** Stable JSON (sorted keys), so a retried resource compares equal whatever its key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value))
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    )
  }
  return value
}

/** The stored resource without what we add (id, meta): the hospital's content. */
function storedContent(resourceJson: string): string {
  const {
    resourceType: _type,
    id: _id,
    meta: _meta,
    ...content
  } = JSON.parse(resourceJson) as Record<string, unknown>
  return canonicalJson(content)
}

/**
 * Where a version records whom the hospital named: keyed digests per field, in the stored
 * resource's meta (routes/fhir strips it from answers). Compared with the report's previous push,
 * not with the exam, because the exam's identity also follows STOW-RS pushes (a DICOM name in
 * pinyin must not turn a hospital's retry of an unchanged final report into a refused change).
 */
export const PUSHED_IDENTITY_URL = 'urn:yingxiang:fhir:pushed-identity'

type IdentityMarks = Partial<
  Record<'id' | 'name' | 'phone' | 'sex' | 'birthDate' | 'nameSealed' | 'phoneSealed', string>
>
/** The marks that say who the person is; the sealed (encrypted) copies are for reading back. */
const COMPARED = ['id', 'name', 'phone', 'sex', 'birthDate'] as const

function identityMarks(cipher: FieldCipher, patient: PushedPatient | undefined): IdentityMarks {
  if (!patient) return {}
  const marks: IdentityMarks = {}
  const digests = identityDigests(cipher, patient.idNumber ?? '', patient.name ?? '')
  if (patient.idNumber) marks.id = digests.patientKey
  if (patient.name) {
    marks.name = digests.nameHash
    marks.nameSealed = cipher.encrypt(patient.name)
  }
  const phone = mobileIn(patient.phone)
  if (phone) {
    marks.phone = cipher.digest(`phone\u0000${phone}`)
    marks.phoneSealed = cipher.encrypt(phone)
  }
  if (patient.sex) marks.sex = patient.sex
  if (patient.birthDate) marks.birthDate = patient.birthDate
  return marks
}

/**
 * The name and phone a stored version was pushed with (decrypted), for answering reads with what
 * the hospital wrote rather than what a later STOW-RS push made of the exam.
 */
export function pushedContact(
  cipher: FieldCipher,
  resourceJson: string,
): { name?: string; phone?: string } {
  const marks = marksOf(resourceJson)
  return {
    ...(marks.nameSealed ? { name: cipher.decrypt(marks.nameSealed) } : {}),
    ...(marks.phoneSealed ? { phone: cipher.decrypt(marks.phoneSealed) } : {}),
  }
}

function marksOf(resourceJson: string): IdentityMarks {
  const meta = (JSON.parse(resourceJson) as { meta?: { extension?: unknown } }).meta
  const extensions = Array.isArray(meta?.extension) ? meta.extension : []
  const mark = extensions.find(
    (ext): ext is { extension?: { url: string; valueString: string }[] } =>
      (ext as { url?: unknown } | null)?.url === PUSHED_IDENTITY_URL,
  )
  return Object.fromEntries((mark?.extension ?? []).map((part) => [part.url, part.valueString]))
}

function marksExtension(marks: IdentityMarks) {
  return {
    url: PUSHED_IDENTITY_URL,
    extension: Object.entries(marks).map(([url, valueString]) => ({ url, valueString })),
  }
}

/**
 * Creates or updates a hospital's report and its exam in one transaction, keeping every version.
 *
 * - POST (no reportId): the hospital's identifier names the report; the same identifier again
 *   updates it (a hospital system resending after a timeout must not create a second report).
 * - The same content again (a retry) answers the current version: no new version.
 * - A released report (final, amended, corrected) changes only as amended or corrected.
 * - Concurrent writers of one report: the version column decides; the loser re-reads and is judged
 *   again (and with If-Match it gets 412).
 */
export async function saveHospitalReport(
  db: DB,
  cipher: FieldCipher,
  hospitalId: string,
  write: ReportWrite,
  options: SaveOptions,
  now: Date,
): Promise<SavedReport> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await db
        .transaction()
        .execute((trx) => saveOnce(trx, cipher, hospitalId, write, options, now))
    } catch (error) {
      // Two first pushes of one identifier, or two updates of one version: try again, now seeing
      // the other's row.
      if ((isUniqueViolation(error) || error instanceof LostRace) && attempt < 4) continue
      if (error instanceof LostRace) throw new ReportError(409, REPORT_BUSY, 'conflict')
      throw error
    }
  }
}

class LostRace extends Error {}

async function saveOnce(
  trx: Transaction<Database>,
  cipher: FieldCipher,
  hospitalId: string,
  write: ReportWrite,
  options: SaveOptions,
  now: Date,
): Promise<SavedReport> {
  const at = now.toISOString()
  const existing = options.reportId
    ? await trx
        .selectFrom('reports')
        .selectAll()
        .where('id', '=', options.reportId)
        .where('hospital_id', '=', hospitalId)
        .executeTakeFirst()
    : await trx
        .selectFrom('reports')
        .selectAll()
        .where('hospital_id', '=', hospitalId)
        .where('resource_id', '=', write.identifier)
        .executeTakeFirst()

  if (options.reportId && !existing) throw new ReportError(404, REPORT_NOT_FOUND, 'not-found')
  if (options.expectedVersion !== undefined && existing?.version !== options.expectedVersion) {
    throw new ReportError(412, REPORT_VERSION_CONFLICT, 'conflict')
  }
  if (existing && existing.resource_id !== write.identifier) {
    throw new ReportError(
      422,
      '报告标识（identifier）不能更改：请保留原标识，或以新标识新建报告',
      'business-rule',
      'DiagnosticReport.identifier',
    )
  }

  const examBefore = await trx
    .selectFrom('exams')
    .selectAll()
    .where('hospital_id', '=', hospitalId)
    .where('study_uid', '=', write.studyUid)
    .executeTakeFirst()

  const content = canonicalJson(write.resource)
  // A push names only what it has: a field it leaves out keeps the earlier value.
  const before = existing ? marksOf(existing.resource_json) : {}
  const given = identityMarks(cipher, write.patient)
  const identityChanged = COMPARED.some(
    (field) => given[field] !== undefined && given[field] !== before[field],
  )
  if (
    existing &&
    examBefore &&
    existing.exam_id === examBefore.id &&
    existing.status === write.status &&
    !identityChanged &&
    storedContent(existing.resource_json) === content
  ) {
    return { report: existing, exam: examBefore, outcome: 'unchanged', notices: [] }
  }
  if (existing && RELEASED.has(existing.status) && !CHANGES_OF_RELEASED.has(write.status)) {
    throw new ReportError(422, REPORT_FINAL_CHANGE, 'business-rule', 'DiagnosticReport.status')
  }

  // Who saw the report before this version (its exam may change with it): they are told what
  // changed, anyone it reaches only now is told of a new report (report-notices.ts).
  const previousExam = existing
    ? await trx
        .selectFrom('exams')
        .selectAll()
        .where('id', '=', existing.exam_id)
        .executeTakeFirst()
    : undefined
  const seenBefore = existing
    ? {
        status: existing.status,
        people: previousExam ? await examPeople(trx, cipher, previousExam) : [],
      }
    : null

  const exam = await upsertHospitalExam(
    trx,
    cipher,
    {
      hospitalId,
      studyUid: write.studyUid,
      ...(write.accessionNumber ? { accessionNumber: write.accessionNumber } : {}),
      ...(write.patient ? { patient: write.patient } : {}),
      // The report's time is the study's only until the images (STOW) bring the study's own.
      ...(examBefore?.study_date || !write.studyDate
        ? {}
        : {
            study: {
              date: write.studyDate,
              ...(write.studyTime ? { time: write.studyTime } : {}),
              ...(examBefore?.description ? {} : { description: write.codeText }),
            },
          }),
    },
    now,
  )

  const id = existing?.id ?? randomUUID()
  const version = (existing?.version ?? 0) + 1
  const resourceJson = JSON.stringify({
    resourceType: 'DiagnosticReport',
    id,
    meta: {
      versionId: String(version),
      lastUpdated: at,
      extension: [marksExtension({ ...before, ...given })],
    },
    ...write.resource,
  })
  const columns = {
    exam_id: exam.id,
    status: write.status,
    version,
    code_text: write.codeText,
    findings: write.findings,
    conclusion: write.conclusion,
    performer: write.performer,
    reviewer: write.reviewer,
    effective_at: write.effectiveAt,
    issued_at: write.issuedAt,
    resource_json: resourceJson,
    updated_at: at,
  }
  if (existing) {
    const result = await trx
      .updateTable('reports')
      .set(columns)
      .where('id', '=', existing.id)
      .where('version', '=', existing.version)
      .executeTakeFirst()
    if (Number(result.numUpdatedRows) !== 1) throw new LostRace()
  } else {
    await trx
      .insertInto('reports')
      .values({
        id,
        hospital_id: hospitalId,
        resource_id: write.identifier,
        created_at: at,
        ...columns,
      })
      .execute()
  }
  await trx
    .insertInto('report_versions')
    .values({
      id: randomUUID(),
      report_id: id,
      version,
      status: write.status,
      resource_json: resourceJson,
      recorded_at: at,
    })
    .execute()
  const report = await trx
    .selectFrom('reports')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  const notices = await announceReport(trx, cipher, { report, exam, before: seenBefore }, now)
  return { report, exam, outcome: existing ? 'updated' : 'created', notices }
}

/** One of the hospital's reports by our id; another hospital's is "not found". */
export async function findHospitalReport(
  db: DB,
  hospitalId: string,
  reportId: string,
): Promise<{ report: ReportsTable; exam: ExamsTable }> {
  const report = await db
    .selectFrom('reports')
    .selectAll()
    .where('id', '=', reportId)
    .where('hospital_id', '=', hospitalId)
    .executeTakeFirst()
  if (!report) throw new ReportError(404, REPORT_NOT_FOUND, 'not-found')
  const exam = await db
    .selectFrom('exams')
    .selectAll()
    .where('id', '=', report.exam_id)
    .executeTakeFirstOrThrow()
  return { report, exam }
}

/** Every version of a report, newest first. */
export async function reportVersions(db: DB, reportId: string): Promise<ReportVersionsTable[]> {
  return db
    .selectFrom('report_versions')
    .selectAll()
    .where('report_id', '=', reportId)
    .orderBy('version', 'desc')
    .execute()
}

/** A token of a FHIR search: `system|value`, `|value` (no system), or `value` (any system). */
export interface Token {
  system?: string
  value: string
}

export interface DateBound {
  op: 'ge' | 'gt' | 'le' | 'lt' | 'eq'
  /** YYYY-MM-DD */
  date: string
}

export interface ReportSearch {
  /** OR of tokens: the report's identifier or the exam's accession number. */
  identifier?: Token[]
  /** OR of resident ID numbers (already checked to be such). */
  patientIdNumbers?: string[]
  status?: string[]
  /** AND of bounds on effective (the hospital's local date). */
  date?: DateBound[]
  sort: 'date' | '-date' | 'issued' | '-issued' | '_lastUpdated' | '-_lastUpdated'
  count: number
  offset: number
}

function nextDay(date: string): string {
  const day = new Date(`${date}T00:00:00Z`)
  day.setUTCDate(day.getUTCDate() + 1)
  return day.toISOString().slice(0, 10)
}

const SORT_COLUMNS = {
  date: 'reports.effective_at',
  issued: 'reports.issued_at',
  _lastUpdated: 'reports.updated_at',
} as const

/**
 * The hospital's own reports matching a search, with the total, for a searchset Bundle. Not
 * db/paging's page(): FHIR's _offset is any row, not a page, and _count 0 asks for the total alone.
 */
export async function searchHospitalReports(
  db: DB,
  cipher: FieldCipher,
  hospitalId: string,
  search: ReportSearch,
): Promise<{ total: number; rows: { report: ReportsTable; exam: ExamsTable }[] }> {
  let query = db
    .selectFrom('reports')
    .innerJoin('exams', 'exams.id', 'reports.exam_id')
    .where('reports.hospital_id', '=', hospitalId)

  if (search.identifier?.length) {
    const tokens = search.identifier
    query = query.where((eb) =>
      eb.or(
        tokens.flatMap((token) => {
          const ways = []
          if (token.system !== undefined) {
            ways.push(eb('reports.resource_id', '=', `${token.system}|${token.value}`))
          } else {
            // Any system: the stored form is `system|value` and `|` never occurs in a system URI.
            ways.push(
              sql<boolean>`${sql.ref('reports.resource_id')} like ${`%|${escapeLike(token.value)}`} escape '!'`,
            )
            // The accession number (identifier of type ACSN) is kept on the exam without a system.
            ways.push(eb('exams.accession_number', '=', token.value))
          }
          return ways
        }),
      ),
    )
  }
  if (search.patientIdNumbers?.length) {
    const keys = search.patientIdNumbers.map((id) => cipher.digest(normaliseIdNumber(id)))
    query = query.where('exams.patient_key', 'in', keys)
  }
  if (search.status?.length) query = query.where('reports.status', 'in', search.status)
  for (const bound of search.date ?? []) {
    const column = 'reports.effective_at'
    if (bound.op === 'ge') query = query.where(column, '>=', bound.date)
    if (bound.op === 'gt') query = query.where(column, '>=', nextDay(bound.date))
    if (bound.op === 'lt') query = query.where(column, '<', bound.date)
    if (bound.op === 'le') query = query.where(column, '<', nextDay(bound.date))
    if (bound.op === 'eq') {
      query = query.where(column, '>=', bound.date).where(column, '<', nextDay(bound.date))
    }
  }

  const { total } = await query
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .executeTakeFirstOrThrow()
  if (search.count === 0) return { total: Number(total), rows: [] }

  const descending = search.sort.startsWith('-')
  const column = SORT_COLUMNS[search.sort.replace(/^-/, '') as keyof typeof SORT_COLUMNS]
  const rows = await query
    .selectAll('reports')
    .orderBy(sql.ref(column), descending ? 'desc' : 'asc')
    .orderBy('reports.id')
    .limit(search.count)
    .offset(search.offset)
    .execute()
  const examIds = [...new Set(rows.map((row) => row.exam_id))]
  const exams = examIds.length
    ? await db.selectFrom('exams').selectAll().where('id', 'in', examIds).execute()
    : []
  const examById = new Map(exams.map((exam) => [exam.id, exam]))
  return {
    total: Number(total),
    rows: rows.map((report) => ({ report, exam: examById.get(report.exam_id)! })),
  }
}

function escapeLike(value: string): string {
  return value.replace(/[!%_]/g, (char) => `!${char}`)
}

// ---------------------------------------------------------------------------------------------------
// Reading a DiagnosticReport: one set of rules for the FHIR route (an incoming resource, already
// shape-checked) and the patient's report history (stored JSON, read defensively: a field of the
// wrong type reads as absent rather than failing the page).

type Json = Record<string, unknown>
const asObject = (value: unknown): Json | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : [])
const asText = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() ? value : null

/**
 * A FHIR HumanName list as a Chinese name is written: the official one (else the first), its text,
 * else family name first and the given names after, with no space (张三).
 */
export function fhirHumanName(names: unknown): string | null {
  const list = asArray(names)
    .map(asObject)
    .filter((name): name is Json => !!name)
  const name = list.find((candidate) => candidate.use === 'official') ?? list[0]
  if (!name) return null
  const text =
    asText(name.text) ??
    [asText(name.family) ?? '', ...asArray(name.given).map((given) => asText(given) ?? '')].join('')
  return text.trim() || null
}

/**
 * 报告医生 / 审核医生: the people among a resource's references (`performer`,
 * `resultsInterpreter`), joined with 、. An organisation (by type, an `Organization/` reference or a
 * contained Organization) is the department, not a doctor. A person is named by the reference's
 * display, else by the contained Practitioner's name.
 */
export function fhirDoctorNames(resource: unknown, references: unknown): string | null {
  const contained = asArray(asObject(resource)?.contained).map(asObject)
  const names: string[] = []
  for (const ref of asArray(references).map(asObject)) {
    if (!ref) continue
    const target = typeof ref.reference === 'string' ? ref.reference : ''
    const inner = target.startsWith('#')
      ? contained.find((item) => item?.id === target.slice(1))
      : undefined
    if (
      ref.type === 'Organization' ||
      target.startsWith('Organization/') ||
      inner?.resourceType === 'Organization'
    ) {
      continue
    }
    const name =
      asText(ref.display) ??
      (inner?.resourceType === 'Practitioner' ? fhirHumanName(inner.name) : null)
    if (name) names.push(name)
  }
  return names.length > 0 ? names.join('、') : null
}

/** Whether a presentedForm carries 影像所见 (text/plain; other forms are kept by URL only). */
export function isFindingsForm(form: unknown): boolean {
  return /^text\/plain\b/i.test(String(asObject(form)?.contentType ?? ''))
}

/** 影像所见 of a stored resource: its text/plain presentedForm, decoded (the route checked it). */
export function fhirFindings(resource: unknown): string | null {
  for (const form of asArray(asObject(resource)?.presentedForm).map(asObject)) {
    if (!form || !isFindingsForm(form) || typeof form.data !== 'string') continue
    return Buffer.from(form.data, 'base64').toString('utf8')
  }
  return null
}

// ---------------------------------------------------------------------------------------------------
// Key images (关键图像): DiagnosticReport.media. One reading for the FHIR route (which refuses a
// report whose media it cannot place, with the reason) and the patient's report detail (which reads
// the stored version defensively and shows only images of the report's own exam that have arrived).
//
// Accepted shapes of media[].link:
// - `#id` of a contained Media whose content.url is a WADO-RS address of the instance
//   (`…/studies/{study}/series/{series}/instances/{sop}`, optionally `/frames/{n}` or `/rendered`);
// - `reference` that is itself such an address (absolute or relative);
// - `identifier` { system: urn:dicom:uid, value: urn:oid:<SOPInstanceUID> } (the series is then the
//   instance's own, found when reading).
// The comment is media[].comment (else the contained Media's content.title). A bare `Media/123` or
// `ImagingStudy/…` names a resource this server does not hold, so it cannot say which slice: refused.

/** More than any report marks; bounds the lookup. */
export const KEY_IMAGES_MAX = 50

export interface KeyImageRef {
  /** null: given by SOP identifier only. */
  studyUid: string | null
  seriesUid: string | null
  sopInstanceUid: string
  /** 1-based. */
  frame: number
  comment: string | null
}

export interface KeyImageProblem {
  /** FHIRPath under DiagnosticReport. */
  expression: string
  text: string
}

const DICOM_UID = /^[0-2](\.(0|[1-9]\d*))+$/
const isUid = (value: string) => value.length <= 64 && DICOM_UID.test(value)
const WADO_INSTANCE =
  /\/studies\/([^/?#]+)\/series\/([^/?#]+)\/instances\/([^/?#]+)(?:\/frames\/(\d+))?(?:\/rendered)?\/?(?:[?#].*)?$/

export const KEY_IMAGE_MESSAGES = {
  where:
    '无法确定关键图像：link 应指向 contained 中的 Media（content.url 为 WADO-RS 实例地址）、直接写 WADO-RS 实例地址（…/studies/…/series/…/instances/…），或以 identifier（system 为 urn:dicom:uid）给出 SOPInstanceUID',
  url: '不是 WADO-RS 实例地址，应为 …/studies/{StudyInstanceUID}/series/{SeriesInstanceUID}/instances/{SOPInstanceUID}，可带 /frames/{帧号}',
  uid: 'UID 格式不正确（数字和点，最长 64 位）',
  frame: '帧号应为从 1 开始的整数',
  study: '关键图像须属于本报告的检查（与 imagingStudy 的 StudyInstanceUID 相同）',
  contained: (id: string) => `找不到 contained 中 id 为 ${id} 的 Media`,
  tooMany: `关键图像最多 ${KEY_IMAGES_MAX} 幅`,
} as const

function fromWadoUrl(
  url: string,
): { ref: Omit<KeyImageRef, 'comment'> } | { problem: string } | undefined {
  const match = WADO_INSTANCE.exec(url)
  if (!match) return undefined
  let parts: (string | undefined)[]
  try {
    parts = match.map((part) => (part === undefined ? undefined : decodeURIComponent(part)))
  } catch {
    // A broken %-escape (`1.2%zz`) is the hospital's mistake: 422 naming it, not a server error.
    return { problem: KEY_IMAGE_MESSAGES.uid }
  }
  const [, study, series, sop, frameText] = parts
  if (![study, series, sop].every((uid) => uid !== undefined && isUid(uid))) {
    return { problem: KEY_IMAGE_MESSAGES.uid }
  }
  const frame = frameText === undefined ? 1 : Number(frameText)
  if (!Number.isSafeInteger(frame) || frame < 1) return { problem: KEY_IMAGE_MESSAGES.frame }
  return { ref: { studyUid: study!, seriesUid: series!, sopInstanceUid: sop!, frame } }
}

/**
 * The key images a DiagnosticReport names, and what is wrong with the ones it cannot place.
 * `studyUid`: the report's study; an image of another study is a problem.
 */
export function readKeyImages(
  resource: unknown,
  studyUid: string | null,
): { images: KeyImageRef[]; problems: KeyImageProblem[] } {
  const root = asObject(resource)
  const media = asArray(root?.media)
  const contained = asArray(root?.contained).map(asObject)
  const images: KeyImageRef[] = []
  const problems: KeyImageProblem[] = []
  if (media.length > KEY_IMAGES_MAX) {
    problems.push({ expression: 'DiagnosticReport.media', text: KEY_IMAGE_MESSAGES.tooMany })
    return { images, problems }
  }
  media.forEach((item, index) => {
    const at = `DiagnosticReport.media[${index}]`
    const entry = asObject(item)
    const link = asObject(entry?.link)
    const reference = typeof link?.reference === 'string' ? link.reference : undefined
    let comment = asText(entry?.comment)
    let found: ReturnType<typeof fromWadoUrl>
    let expression = `${at}.link`
    if (reference?.startsWith('#')) {
      const target = contained.find(
        (resource) => resource?.resourceType === 'Media' && resource.id === reference.slice(1),
      )
      if (!target) {
        problems.push({
          expression: `${at}.link.reference`,
          text: KEY_IMAGE_MESSAGES.contained(reference.slice(1)),
        })
        return
      }
      const content = asObject(target.content)
      comment ??= asText(content?.title)
      const url = typeof content?.url === 'string' ? content.url : ''
      expression = `DiagnosticReport.contained[${contained.indexOf(target)}].content.url`
      found = fromWadoUrl(url) ?? { problem: KEY_IMAGE_MESSAGES.url }
    } else if (reference !== undefined) {
      expression = `${at}.link.reference`
      found = fromWadoUrl(reference)
    }
    if (!found && !reference?.startsWith('#')) {
      const identifier = asObject(link?.identifier)
      if (identifier?.system === 'urn:dicom:uid' && typeof identifier.value === 'string') {
        const sop = identifier.value.replace(/^urn:oid:/, '')
        expression = `${at}.link.identifier.value`
        found = isUid(sop)
          ? { ref: { studyUid: null, seriesUid: null, sopInstanceUid: sop, frame: 1 } }
          : { problem: KEY_IMAGE_MESSAGES.uid }
      }
    }
    if (!found) {
      problems.push({ expression: `${at}.link`, text: KEY_IMAGE_MESSAGES.where })
      return
    }
    if ('problem' in found) {
      problems.push({ expression, text: found.problem })
      return
    }
    if (studyUid && found.ref.studyUid && found.ref.studyUid !== studyUid) {
      problems.push({ expression, text: KEY_IMAGE_MESSAGES.study })
      return
    }
    images.push({ ...found.ref, comment })
  })
  return { images, problems }
}

export interface ResolvedKeyImage {
  examId: string
  seriesUid: string
  sopInstanceUid: string
  frame: number
  comment: string | null
  instanceNumber: number | null
  seriesDescription: string | null
}

/**
 * The key images of a stored report version that are images of `exam` (present now, the frame
 * within the instance), in the report's order. Images not (yet) received are left out.
 */
export async function resolveKeyImages(
  db: DB,
  exam: Pick<ExamsTable, 'id' | 'study_uid'>,
  resourceJson: string,
): Promise<ResolvedKeyImage[]> {
  let resource: unknown
  try {
    resource = JSON.parse(resourceJson)
  } catch {
    return []
  }
  const { images } = readKeyImages(resource, exam.study_uid)
  const wanted = images.filter((image) => !image.studyUid || image.studyUid === exam.study_uid)
  if (wanted.length === 0) return []
  const rows = await db
    .selectFrom('instances')
    .innerJoin('series', 'series.id', 'instances.series_id')
    .select([
      'instances.sop_instance_uid',
      'instances.frame_count',
      'instances.instance_number',
      'series.series_uid',
      'series.description',
    ])
    .where('instances.exam_id', '=', exam.id)
    .where('instances.sop_instance_uid', 'in', [...new Set(wanted.map((i) => i.sopInstanceUid))])
    .execute()
  const bySop = new Map(rows.map((row) => [row.sop_instance_uid, row]))
  const resolved: ResolvedKeyImage[] = []
  for (const image of wanted) {
    const row = bySop.get(image.sopInstanceUid)
    if (!row) continue
    if (image.seriesUid && image.seriesUid !== row.series_uid) continue
    if (image.frame > Math.max(1, Number(row.frame_count))) continue
    resolved.push({
      examId: exam.id,
      seriesUid: row.series_uid,
      sopInstanceUid: image.sopInstanceUid,
      frame: image.frame,
      comment: image.comment,
      instanceNumber: row.instance_number === null ? null : Number(row.instance_number),
      seriesDescription: row.description,
    })
  }
  return resolved
}

/** DICOM PatientSex as FHIR AdministrativeGender. */
export const DICOM_TO_GENDER: Record<string, string> = { M: 'male', F: 'female', O: 'other' }

/**
 * The resource as answered: the stored JSON (with our id and meta) plus the patient's name and phone
 * where the hospital put them: as this version was pushed, or the exam's for older rows.
 */
export function renderReport(
  resourceJson: string,
  exam: ExamsTable,
  cipher: FieldCipher,
): Record<string, unknown> {
  const resource = JSON.parse(resourceJson) as Record<string, unknown> & {
    meta?: { extension?: { url?: string }[] }
    subject?: Record<string, unknown>
    contained?: Record<string, unknown>[]
  }
  // Our record of the pushed identity's digests is not the hospital's business to read back.
  if (resource.meta?.extension) {
    const { extension, ...meta } = resource.meta
    const kept = extension.filter((ext) => ext.url !== PUSHED_IDENTITY_URL)
    resource.meta = kept.length ? { ...meta, extension: kept } : meta
  }
  const pushed = pushedContact(cipher, resourceJson)
  const name =
    pushed.name ??
    (exam.patient_name_encrypted ? cipher.decrypt(exam.patient_name_encrypted) : undefined)
  const phone =
    pushed.phone ??
    (exam.patient_phone_encrypted ? cipher.decrypt(exam.patient_phone_encrypted) : undefined)
  const ref = typeof resource.subject?.reference === 'string' ? resource.subject.reference : ''
  const contained = resource.contained?.map((item) => {
    if (item.resourceType !== 'Patient' || `#${String(item.id)}` !== ref) return item
    return {
      ...item,
      ...(name ? { name: [{ text: name }] } : {}),
      ...(phone ? { telecom: [{ system: 'phone', value: phone, use: 'mobile' }] } : {}),
      ...(item.gender === undefined && exam.patient_sex && DICOM_TO_GENDER[exam.patient_sex]
        ? { gender: DICOM_TO_GENDER[exam.patient_sex] }
        : {}),
    }
  })
  return {
    ...resource,
    ...(contained ? { contained } : {}),
    subject: { ...resource.subject, ...(name ? { display: name } : {}) },
  }
}
