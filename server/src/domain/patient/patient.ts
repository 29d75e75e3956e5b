import { sql } from 'kysely'
import {
  type ExamDetail,
  type HospitalDetail,
  HospitalDetailSchema,
  type MyHospital,
  MyHospitalSchema,
  REPORT_UNLOCK_TTL_SECONDS,
  type ReportBrief,
  type ReportDetail,
  type RecordOwner,
  type ReportVersion,
  reportStatusLabel,
  type SeriesInstance,
  type SeriesSummary,
} from '@contract/main/records'
import type { FieldCipher } from '../../crypto/field-cipher'
import type { DB } from '../../db'
import type { ExamsTable, ExamUserStatesTable, ReportsTable } from '../../db/schema'
import { ApiError, badRequest, forbidden, notFound } from '../../http/errors'
import { hospitalColumns, toHospital } from '../hospitals'
import { consumeSmsCode, findUserById, sameHash, keyedHash, maskName } from '../identity'
import { proveIdentity } from '../profile'
import {
  EXAM_NOT_FOUND,
  privateToMember,
  type ReachedExam,
  reachExam,
  visibleTo,
  pickThumbnail,
  type ThumbnailCandidate,
} from '../records'
import { reachedOwner, examTitle, modalityList } from '../records'
import { fhirDoctorNames, fhirFindings, resolveKeyImages } from '../reports'
import { type PatientScope, summariseExams } from './lists'

/*
 * One exam or report of the patient, and the marks they put on it. Visibility is decided by
 * access.ts only (reachExam, visibleTo); a report is visible exactly when its exam is.
 *
 * Report privacy (设为隐私): a private report leaves the list (unless asked for) and its content is
 * shown only with an unlock ticket, got by proving the person at the keyboard owns the account (the
 * login password, or an SMS code sent to the account's own phone). A session alone is not proof:
 * a phone left unlocked, a copied token. The ticket:
 * - is `base64url(userId.sessionId.expiry).hmac` under the server secret (keyedHash): nothing stored,
 *   nothing to clean up, unforgeable;
 * - opens every private report of the account for REPORT_UNLOCK_TTL_SECONDS (10 minutes), so a person
 *   reading several does not prove themselves for each;
 * - is bound to the login session it was issued in: a ticket copied to another device (or left in a
 *   log) opens nothing there, and signing out ends it;
 * - password tries share the account's identity-proof limit (5 wrong per 15 minutes, profile/
 *   account.ts), codes the SMS check limits (identity/sms.ts): the same guards as changing the phone.
 * Making a private report public again needs the same ticket (otherwise un-hiding would be a way to
 * read it without proof).
 */

export const REPORT_NOT_VISIBLE = '报告不存在或您无权查看'
export const UNLOCK_REQUIRED = '该报告已设为隐私，请先验证身份（登录密码或短信验证码）'
export const PRIVACY_NEEDS_PROOF =
  '设为隐私后需要验证登录密码或短信验证码才能查看，请先设置登录密码或绑定手机号'
export const UNLOCK_NO_PASSWORD = '当前账号未设置登录密码，请使用短信验证码验证'
export const UNLOCK_NO_MOBILE = '当前账号未绑定手机号，请使用登录密码验证'
export const UNLOCK_NEEDS_ONE = '请输入登录密码或短信验证码'

const TICKET_LABEL = 'report-unlock-ticket'

export interface SessionRef {
  userId: string
  sessionId: string
}

export function issueUnlockTicket(
  session: SessionRef,
  now: Date,
): { ticket: string; expiresInSeconds: number } {
  const expiry = now.getTime() + REPORT_UNLOCK_TTL_SECONDS * 1000
  const payload = `${session.userId}.${session.sessionId}.${expiry}`
  const ticket = `${Buffer.from(payload, 'utf8').toString('base64url')}.${keyedHash(TICKET_LABEL, payload)}`
  return { ticket, expiresInSeconds: REPORT_UNLOCK_TTL_SECONDS }
}

/** Whether `ticket` was issued to this session and has not expired. Any malformed text is false. */
export function unlockTicketValid(
  ticket: string | undefined,
  session: SessionRef,
  now: Date,
): boolean {
  if (!ticket) return false
  const [encoded, mac, ...rest] = ticket.split('.')
  if (!encoded || !mac || rest.length > 0) return false
  const payload = Buffer.from(encoded, 'base64url').toString('utf8')
  if (!sameHash(keyedHash(TICKET_LABEL, payload), mac)) return false
  const [userId, sessionId, expiry] = payload.split('.')
  return (
    userId === session.userId && sessionId === session.sessionId && Number(expiry) > now.getTime()
  )
}

/**
 * Checks the proof (password or an own-phone 'report-unlock' code) and hands out a ticket. Reuses
 * the identity domain: proveIdentity's password check and limits, consumeSmsCode's code checks.
 */
export async function unlockReports(
  db: DB,
  session: SessionRef,
  proof: { password?: string | undefined; code?: string | undefined },
  now: Date,
  ip: string,
): Promise<{ ticket: string; expiresInSeconds: number }> {
  const user = await findUserById(db, session.userId)
  if (!user) throw notFound(REPORT_NOT_VISIBLE)
  if (proof.code) {
    if (!user.mobile) throw badRequest(UNLOCK_NO_MOBILE)
    await consumeSmsCode(db, {
      mobile: user.mobile,
      purpose: 'report-unlock',
      code: proof.code,
      now,
      ip,
    })
  } else if (proof.password) {
    if (!user.password_hash) throw badRequest(UNLOCK_NO_PASSWORD)
    await proveIdentity(db, user, { password: proof.password }, now, ip)
  } else {
    throw badRequest(UNLOCK_NEEDS_ONE)
  }
  return issueUnlockTicket(session, now)
}

// ---------------------------------------------------------------------------------------------------
// Finding one report

export interface VisibleReport extends ReachedExam {
  report: ReportsTable
}

/** An exam the scope's caller may see (access.ts's one rule), with the identity it already holds. */
function reachScopedExam(
  db: DB,
  cipher: FieldCipher,
  scope: PatientScope,
  examId: string,
): Promise<ReachedExam> {
  return reachExam(db, cipher, scope.caller, scope.identity, examId)
}

/** A report whose exam the caller may see; anything else is the same 404. */
export async function findVisibleReport(
  db: DB,
  cipher: FieldCipher,
  scope: PatientScope,
  reportId: string,
): Promise<VisibleReport> {
  const report = await db
    .selectFrom('reports')
    .selectAll()
    .where('id', '=', reportId)
    .executeTakeFirst()
  if (!report) throw notFound(REPORT_NOT_VISIBLE)
  try {
    return { report, ...(await reachScopedExam(db, cipher, scope, report.exam_id)) }
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 404) throw notFound(REPORT_NOT_VISIBLE)
    throw error
  }
}

async function stateOf(
  db: DB,
  userId: string,
  examId: string,
): Promise<ExamUserStatesTable | undefined> {
  return db
    .selectFrom('exam_user_states')
    .selectAll()
    .where('user_id', '=', userId)
    .where('exam_id', '=', examId)
    .executeTakeFirst()
}

type StateChange = Partial<
  Pick<ExamUserStatesTable, 'report_private' | 'report_read_at' | 'archived_at' | 'hidden_at'>
>

/** Sets the caller's marks on exams (one statement per exam, safe when two requests race). */
async function setState(
  db: DB,
  userId: string,
  examIds: readonly string[],
  change: StateChange,
  now: Date,
): Promise<void> {
  const at = now.toISOString()
  for (const examId of new Set(examIds)) {
    await db
      .insertInto('exam_user_states')
      .values({
        user_id: userId,
        exam_id: examId,
        report_private: 0,
        report_read_at: null,
        archived_at: null,
        hidden_at: null,
        ...change,
        updated_at: at,
      })
      .onConflict((conflict) =>
        conflict.columns(['user_id', 'exam_id']).doUpdateSet({ ...change, updated_at: at }),
      )
      .execute()
  }
}

function isRead(state: ExamUserStatesTable | undefined, report: ReportsTable): boolean {
  return !!state?.report_read_at && state.report_read_at >= report.updated_at
}

function briefOf(report: ReportsTable, state: ExamUserStatesTable | undefined): ReportBrief {
  return {
    id: report.id,
    status: report.status,
    statusLabel: reportStatusLabel(report.status),
    issuedAt: report.issued_at,
    read: isRead(state, report),
    private: Number(state?.report_private ?? 0) === 1,
  }
}

function maskedPatientName(cipher: FieldCipher, exam: ExamsTable): string | null {
  if (!exam.patient_name_encrypted) return null
  try {
    return maskName(cipher.decrypt(exam.patient_name_encrypted))
  } catch {
    // A row written under another key: say nothing rather than fail the page.
    return null
  }
}

// ---------------------------------------------------------------------------------------------------
// Report detail and history

type Json = Record<string, unknown>
const asObject = (value: unknown): Json | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined
const asText = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() ? value : null

/** What one stored version said (report_versions.resource_json, the FHIR resource we answered). */
export function versionOf(row: {
  version: number
  status: string
  recorded_at: string
  resource_json: string
}): ReportVersion {
  let resource: Json = {}
  try {
    resource = asObject(JSON.parse(row.resource_json)) ?? {}
  } catch {
    // Unreadable history is shown as status and time only.
  }
  return {
    version: Number(row.version),
    status: row.status,
    statusLabel: reportStatusLabel(row.status),
    recordedAt: row.recorded_at,
    issuedAt: asText(resource.issued),
    // Read by the same rules as the FHIR route that accepted it (reports.ts).
    findings: fhirFindings(resource),
    conclusion: asText(resource.conclusion),
    performer: fhirDoctorNames(resource, resource.performer),
    reviewer: fhirDoctorNames(resource, resource.resultsInterpreter),
  }
}

/** How a report is shown to whoever reads it (its owner, a family manager, a grantee). */
export interface ReportView {
  owner: RecordOwner
  hospital: { id: string; name: string }
  read: boolean
  private: boolean
  archived: boolean
  /** Locked: no content, no history, no key images (which slices it points at is content too). */
  locked: boolean
}

/**
 * The report detail, built here only: the owner's, the family manager's and the grantee's views
 * differ in their marks (`view`), never in how the report and its 修订记录 read. Each earlier version
 * carries the key images it named, so an amendment's change of them shows.
 */
export async function toReportDetail(
  db: DB,
  cipher: FieldCipher,
  report: ReportsTable,
  exam: ExamsTable,
  view: ReportView,
): Promise<ReportDetail> {
  const { locked } = view
  const [history, keyImages] = locked
    ? [[], []]
    : await Promise.all([
        reportHistory(db, exam, report),
        resolveKeyImages(db, exam, report.resource_json),
      ])
  return {
    id: report.id,
    examId: exam.id,
    owner: view.owner,
    studyUid: exam.study_uid,
    hospital: view.hospital,
    title: report.code_text?.trim() || examTitle(exam),
    modalities: modalityList(exam.modalities),
    accessionNumber: exam.accession_number,
    studyDate: exam.study_date,
    studyTime: exam.study_time,
    patientNameMasked: maskedPatientName(cipher, exam),
    status: report.status,
    statusLabel: reportStatusLabel(report.status),
    version: Number(report.version),
    effectiveAt: report.effective_at,
    issuedAt: report.issued_at,
    updatedAt: report.updated_at,
    read: view.read,
    private: view.private,
    archived: view.archived,
    locked,
    findings: locked ? null : report.findings,
    conclusion: locked ? null : report.conclusion,
    performer: locked ? null : report.performer,
    reviewer: locked ? null : report.reviewer,
    history,
    keyImages,
  }
}

/** The report's earlier versions, oldest first, each with the key images it named. */
async function reportHistory(
  db: DB,
  exam: ExamsTable,
  report: Pick<ReportsTable, 'id' | 'version'>,
): Promise<ReportVersion[]> {
  const versions = await db
    .selectFrom('report_versions')
    .select(['version', 'status', 'recorded_at', 'resource_json'])
    .where('report_id', '=', report.id)
    .where('version', '<', report.version)
    .orderBy('version', 'asc')
    .execute()
  return Promise.all(
    versions.map(async (row) => ({
      ...versionOf(row),
      keyImages: await resolveKeyImages(db, exam, row.resource_json),
    })),
  )
}

/**
 * The report as the patient reads it. A private report without a valid ticket answers locked, with
 * no content. Opening an unlocked report marks it read.
 */
export async function reportDetail(
  db: DB,
  cipher: FieldCipher,
  scope: PatientScope,
  session: SessionRef,
  input: { reportId: string; ticket?: string | undefined },
  now: Date,
): Promise<ReportDetail> {
  const visible = await findVisibleReport(db, cipher, scope, input.reportId)
  const { report, exam } = visible
  const [state, hospital] = await Promise.all([
    stateOf(db, scope.userId, exam.id),
    db
      .selectFrom('hospitals')
      .select(['id', 'name'])
      .where('id', '=', report.hospital_id)
      .executeTakeFirstOrThrow(),
  ])
  // An adult family member's 设为隐私 holds for their manager too, and no ticket of the manager's
  // (which proves the manager, not the member) opens it.
  const memberPrivate = await privateToMember(db, scope.userId, exam.id)
  const isPrivate = memberPrivate || Number(state?.report_private ?? 0) === 1
  const locked = memberPrivate || (isPrivate && !unlockTicketValid(input.ticket, session, now))
  let read = isRead(state, report)
  if (!locked && !read) {
    await setState(db, scope.userId, [exam.id], { report_read_at: now.toISOString() }, now)
    read = true
  }
  return toReportDetail(db, cipher, report, exam, {
    owner: await reachedOwner(db, cipher, scope.caller, visible),
    hospital,
    read,
    private: isPrivate,
    archived: !!state?.archived_at,
    locked,
  })
}

// ---------------------------------------------------------------------------------------------------
// Marks

/** Marks reports read: the given ones (each must be visible), or all of mine. */
export async function markReportsRead(
  db: DB,
  scope: PatientScope,
  input: { reportIds?: string[] | undefined; all?: boolean | undefined; includePrivate?: boolean },
  now: Date,
): Promise<{ marked: number }> {
  if (!input.all && !input.reportIds?.length) throw badRequest('请选择要标为已读的报告')
  let query = db
    .selectFrom('reports')
    .innerJoin('exams', 'exams.id', 'reports.exam_id')
    .leftJoin('exam_user_states as s', (join) =>
      join.onRef('s.exam_id', '=', 'exams.id').on('s.user_id', '=', scope.userId),
    )
    .select(['reports.id', 'reports.exam_id'])
    .where(visibleTo(scope.caller, scope.identity))
  if (!input.all) {
    query = query.where('reports.id', 'in', input.reportIds!)
  } else if (!input.includePrivate) {
    query = query.where((eb) =>
      eb.or([eb('s.report_private', 'is', null), eb('s.report_private', '=', 0)]),
    )
  }
  const rows = await query.execute()
  if (!input.all && rows.length !== new Set(input.reportIds).size) {
    throw notFound(REPORT_NOT_VISIBLE)
  }
  await setState(
    db,
    scope.userId,
    rows.map((row) => row.exam_id),
    { report_read_at: now.toISOString() },
    now,
  )
  return { marked: rows.length }
}

export async function setReportPrivacy(
  db: DB,
  cipher: FieldCipher,
  scope: PatientScope,
  session: SessionRef,
  input: { reportId: string; private: boolean; ticket?: string | undefined },
  now: Date,
): Promise<ReportBrief> {
  const { report, exam } = await findVisibleReport(db, cipher, scope, input.reportId)
  const state = await stateOf(db, scope.userId, exam.id)
  const wasPrivate = Number(state?.report_private ?? 0) === 1
  if (input.private && !wasPrivate) {
    // Privacy nobody can lift would lock the owner out of their own report.
    const user = await findUserById(db, scope.userId)
    if (!user?.password_hash && !user?.mobile) throw badRequest(PRIVACY_NEEDS_PROOF)
  }
  if (!input.private && wasPrivate && !unlockTicketValid(input.ticket, session, now)) {
    throw forbidden(UNLOCK_REQUIRED)
  }
  if (input.private !== wasPrivate) {
    await setState(db, scope.userId, [exam.id], { report_private: input.private ? 1 : 0 }, now)
  }
  return briefOf(report, await stateOf(db, scope.userId, exam.id))
}

/** 加入个人档案 (or take it out). */
export async function setReportArchived(
  db: DB,
  cipher: FieldCipher,
  scope: PatientScope,
  input: { reportId: string; archived?: boolean | undefined },
  now: Date,
): Promise<{ archived: boolean }> {
  const { exam } = await findVisibleReport(db, cipher, scope, input.reportId)
  const archived = input.archived ?? true
  const state = await stateOf(db, scope.userId, exam.id)
  // Archiving again keeps the first time it was archived.
  if (archived !== !!state?.archived_at) {
    await setState(
      db,
      scope.userId,
      [exam.id],
      { archived_at: archived ? now.toISOString() : null },
      now,
    )
  }
  return { archived }
}

/** Removes a report from my list (hidden), or puts it back. */
export async function setReportHidden(
  db: DB,
  cipher: FieldCipher,
  scope: PatientScope,
  reportId: string,
  hidden: boolean,
  now: Date,
): Promise<{ ok: true }> {
  const { exam } = await findVisibleReport(db, cipher, scope, reportId)
  await setState(db, scope.userId, [exam.id], { hidden_at: hidden ? now.toISOString() : null }, now)
  return { ok: true }
}

// ---------------------------------------------------------------------------------------------------
// Exam detail

/** The WADO-RS thumbnail of an instance (routes/dicomweb, rendered on first request and cached). */
export function thumbnailPath(studyUid: string, seriesUid: string, sopInstanceUid: string): string {
  return `/dicomweb/studies/${encodeURIComponent(studyUid)}/series/${encodeURIComponent(seriesUid)}/instances/${encodeURIComponent(sopInstanceUid)}/thumbnail`
}

const NO_PREVIEW = '暂无可预览的图像'

export const SERIES_NOT_FOUND = '序列不存在或已删除'

/**
 * The files of one series of an exam the caller may see (the files list where an upload's owner
 * deletes one file). The exam is checked by the one access rule; a series of another exam is 404.
 */
export async function seriesInstances(
  db: DB,
  cipher: FieldCipher,
  scope: PatientScope,
  examId: string,
  seriesId: string,
): Promise<SeriesInstance[]> {
  const { exam } = await reachScopedExam(db, cipher, scope, examId)
  const series = await db
    .selectFrom('series')
    .select('id')
    .where('id', '=', seriesId)
    .where('exam_id', '=', exam.id)
    .executeTakeFirst()
  if (!series) throw notFound(SERIES_NOT_FOUND)
  const rows = await db
    .selectFrom('instances')
    .select([
      'id',
      'instance_number',
      'sop_instance_uid',
      'file_size',
      'rows',
      'columns',
      'frame_count',
    ])
    .where('series_id', '=', series.id)
    // Files without an instance number last (by arrival), as viewers order them.
    .orderBy(sql`case when instance_number is null then 1 else 0 end`)
    .orderBy('instance_number')
    .orderBy('created_at')
    .orderBy('id')
    .execute()
  return rows.map((row) => ({
    id: row.id,
    instanceNumber: row.instance_number === null ? null : Number(row.instance_number),
    sopInstanceUid: row.sop_instance_uid,
    sizeBytes: Number(row.file_size),
    rows: row.rows === null ? null : Number(row.rows),
    columns: row.columns === null ? null : Number(row.columns),
    frameCount: Number(row.frame_count),
  }))
}

export async function examDetail(
  db: DB,
  cipher: FieldCipher,
  scope: PatientScope,
  examId: string,
): Promise<ExamDetail> {
  const reached = await reachScopedExam(db, cipher, scope, examId)
  const { exam } = reached
  const [[summary], series, instances, files, owner] = await Promise.all([
    summariseExams(db, scope.userId, [exam]),
    db
      .selectFrom('series')
      .selectAll()
      .where('exam_id', '=', exam.id)
      .orderBy(sql`coalesce(series_number, 2147483647)`)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('instances')
      .select([
        'series_id',
        'sop_instance_uid',
        'instance_number',
        'preview_status',
        'preview_message',
      ])
      .where('exam_id', '=', exam.id)
      .orderBy('series_id')
      .orderBy(sql`coalesce(instance_number, 2147483647)`)
      .orderBy('sop_instance_uid')
      .execute(),
    db
      .selectFrom('exam_files')
      .selectAll()
      .where('exam_id', '=', exam.id)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    reachedOwner(db, cipher, scope.caller, reached),
  ])
  const bySeries = new Map<string, ThumbnailCandidate[]>()
  for (const instance of instances) {
    const list = bySeries.get(instance.series_id) ?? []
    list.push(instance)
    bySeries.set(instance.series_id, list)
  }
  return {
    ...summary!,
    owner,
    patientNameMasked: maskedPatientName(cipher, exam),
    patientSex: exam.patient_sex,
    patientBirthDate: exam.patient_birth_date,
    description: exam.description,
    notes: exam.notes,
    sizeBytes: Number(exam.size_bytes),
    series: series.map((row): SeriesSummary => {
      const { instance, middle } = pickThumbnail(bySeries.get(row.id) ?? [])
      const path =
        instance && exam.study_uid
          ? thumbnailPath(exam.study_uid, row.series_uid, instance.sop_instance_uid)
          : null
      return {
        id: row.id,
        seriesUid: row.series_uid,
        modality: row.modality,
        seriesNumber: row.series_number === null ? null : Number(row.series_number),
        description: row.description,
        bodyPart: row.body_part,
        instanceCount: Number(row.instance_count),
        thumbnailPath: path,
        previewStatus: instance?.preview_status ?? middle?.preview_status ?? 'none',
        previewMessage: path ? null : (middle?.preview_message ?? NO_PREVIEW),
      }
    }),
    files: files.map((file) => ({
      id: file.id,
      kind: file.kind,
      mimeType: file.mime_type,
      sizeBytes: Number(file.size_bytes),
      width: file.width === null ? null : Number(file.width),
      height: file.height === null ? null : Number(file.height),
      createdAt: file.created_at,
    })),
  }
}

// ---------------------------------------------------------------------------------------------------
// Hospitals

/** Hospitals where I have exams, newest exam first. */
export async function listMyHospitals(db: DB, scope: PatientScope): Promise<MyHospital[]> {
  const rows = await db
    .selectFrom('exams')
    .innerJoin('hospitals', 'hospitals.id', 'exams.hospital_id')
    .leftJoin('reports', 'reports.exam_id', 'exams.id')
    .where(visibleTo(scope.caller, scope.identity))
    .where('exams.source', '=', 'hospital')
    .select([
      ...hospitalColumns(MyHospitalSchema),
      sql<number | string>`count(distinct exams.id)`.as('exam_count'),
      sql<number | string>`count(reports.id)`.as('report_count'),
      sql<string | null>`max(exams.study_date)`.as('latest_date'),
      sql<string>`max(exams.created_at)`.as('newest'),
    ])
    .groupBy(hospitalColumns(MyHospitalSchema))
    .execute()
  return rows
    .sort((a, b) => {
      const left = `${a.latest_date ?? ''}${a.newest}`
      const right = `${b.latest_date ?? ''}${b.newest}`
      return left < right ? 1 : left > right ? -1 : a.id.localeCompare(b.id)
    })
    .map((row) => ({
      ...toHospital(row, MyHospitalSchema),
      examCount: Number(row.exam_count),
      reportCount: Number(row.report_count),
      latestStudyDate: row.latest_date,
    }))
}

export const HOSPITAL_NOT_FOUND = '该医院不存在'

export async function hospitalDetail(db: DB, hospitalId: string): Promise<HospitalDetail> {
  const hospital = await db
    .selectFrom('hospitals')
    .selectAll()
    .where('id', '=', hospitalId)
    .executeTakeFirst()
  if (!hospital) throw notFound(HOSPITAL_NOT_FOUND)
  const departments = await db
    .selectFrom('departments')
    .select(['id', 'name'])
    .where('hospital_id', '=', hospitalId)
    .orderBy('sort_order')
    .orderBy('id')
    .execute()
  return { ...toHospital(hospital, HospitalDetailSchema), departments }
}

export { EXAM_NOT_FOUND }
