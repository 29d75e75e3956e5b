import { type ExpressionBuilder, sql } from 'kysely'
import {
  EXAM_STATUS_LABELS,
  type ExamStatus,
  type ExamSummary,
  type ImageGroup,
  type ReportBrief,
  type ReportListItem,
  RECORDS_PAGE_SIZE,
  reportStatusLabel,
  UPLOADS_GROUP,
  type YsReportItem,
} from '@contract/main/records'
import type { FieldCipher } from '../../crypto/field-cipher'
import type { DB } from '../../db'
import { countRows, type Page, page, pageWindow } from '../../db/paging'
import type { Database, ExamsTable } from '../../db/schema'
import type { StoredIdCard } from '../identity'
import {
  assertPersonInReach,
  boundIdentity,
  cardIdentity,
  type PatientIdentity,
  type RecordsCaller,
  visibleTo,
} from '../records'
import { examTitle, modalityList } from '../records'

/*
 * The patient's lists: 我的报告, my uploads (ys), 我的影像 by hospital, the exam info list of one
 * hospital. Every query starts from visibleTo (access.ts), the one authorisation check; the per-person
 * marks (read, private, archived, hidden) come from exam_user_states joined for the caller only.
 *
 * A report counts as read when the person opened it after its last change: an amended report is new
 * to them again.
 */

/**
 * Who asks, resolved once per request. `userId` is the person asking, whose marks (read, private,
 * archived, hidden) the lists show; `caller` and `identity` are whose records are listed: the
 * asker's own, or (当前就诊人, issue 9) those of a family member the asker manages.
 */
export interface PatientScope {
  userId: string
  caller: RecordsCaller
  identity: PatientIdentity | undefined
}

/**
 * The scope of a request by `asker` for `personId`'s records (default their own). A person the
 * asker does not manage now is 403 (access.ts assertPersonInReach), checked at every request. The
 * asker's own card, when authenticate already read it with the session (`idCard`, null for none),
 * is not read again.
 */
export async function patientScope(
  db: DB,
  cipher: FieldCipher,
  asker: { id: string; idCard?: StoredIdCard | null },
  personId: string = asker.id,
): Promise<PatientScope> {
  await assertPersonInReach(db, asker.id, personId)
  return {
    userId: asker.id,
    caller: { kind: 'user', userId: personId },
    identity:
      personId === asker.id && asker.idCard !== undefined
        ? cardIdentity(cipher, asker.idCard)
        : await boundIdentity(db, cipher, personId),
  }
}

/** The person whose records a scope lists, when it is someone other than the asker. */
export function memberOf(scope: PatientScope): string | undefined {
  return scope.caller.kind === 'user' && scope.caller.userId !== scope.userId
    ? scope.caller.userId
    : undefined
}

/**
 * A column compared without its index. The lists must start from the caller's own exams (the
 * indexes visibleTo's branches use: owner, claims, patient key); given an indexed hospital_id
 * equality, SQLite starts from every exam of that hospital instead and tests each against
 * visibleTo, which grows with the hospital, not with the person (100 000 exams of a big hospital
 * for a patient's 10). Wrapping the column keeps the filter and loses only the index.
 */
export function notIndexed(column: 'exams.hospital_id' | 'reports.hospital_id') {
  return sql<string>`coalesce(${sql.ref(column)}, '')`
}

/** The day an exam sorts by: its study date, else the day it reached us. */
const EXAM_DAY = sql<string>`coalesce(exams.study_date, substr(exams.created_at, 1, 10))`

/** The SQL of "the caller has read report r" (s = the caller's exam_user_states row). */
function readSql(report: string) {
  return sql<boolean>`(s.report_read_at is not null and s.report_read_at >= ${sql.ref(`${report}.updated_at`)})`
}

function examStatus(status: string): ExamStatus {
  return (EXAM_STATUS_LABELS as Record<string, string>)[status] ? (status as ExamStatus) : 'ready'
}

const isSet = (value: string | null | undefined) => value !== null && value !== undefined

/**
 * The columns of an exam its list form shows. Lists read only these: turning a row's every column
 * (hashes, encrypted names and phones) into JavaScript strings cost ten times the lookup itself.
 */
const SUMMARY_COLUMNS = [
  'id',
  'source',
  'hospital_id',
  'hospital_text',
  'accession_number',
  'study_uid',
  'study_date',
  'study_time',
  'modalities',
  'body_part',
  'title',
  'description',
  'series_count',
  'instance_count',
  'status',
  'status_message',
  'created_at',
] as const satisfies readonly (keyof ExamsTable)[]

export type ExamSummaryRow = Pick<ExamsTable, (typeof SUMMARY_COLUMNS)[number]>

/** Exams by id in their list form's columns, in the order of `ids` (a page a narrower query chose). */
export async function summaryRowsInOrder(
  db: DB,
  ids: readonly string[],
): Promise<ExamSummaryRow[]> {
  if (ids.length === 0) return []
  const rows = await db.selectFrom('exams').select(SUMMARY_COLUMNS).where('id', 'in', ids).execute()
  const byId = new Map(rows.map((row) => [row.id, row]))
  return ids.map((id) => byId.get(id)).filter((row): row is ExamSummaryRow => row !== undefined)
}

/**
 * The list form of exams: their hospital, newest report (brief, no content) and the caller's marks.
 * Three small queries for the whole page, whatever its length.
 */
export async function summariseExams(
  db: DB,
  userId: string,
  exams: readonly ExamSummaryRow[],
): Promise<ExamSummary[]> {
  if (exams.length === 0) return []
  const ids = exams.map((exam) => exam.id)
  const hospitalIds = [...new Set(exams.map((exam) => exam.hospital_id).filter(isSet))] as string[]
  const [reports, states, hospitals] = await Promise.all([
    db
      .selectFrom('reports')
      .select(['id', 'exam_id', 'status', 'issued_at', 'updated_at'])
      .where('exam_id', 'in', ids)
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .execute(),
    db
      .selectFrom('exam_user_states')
      .selectAll()
      .where('user_id', '=', userId)
      .where('exam_id', 'in', ids)
      .execute(),
    hospitalIds.length === 0
      ? Promise.resolve([])
      : db.selectFrom('hospitals').select(['id', 'name']).where('id', 'in', hospitalIds).execute(),
  ])
  const reportOf = new Map<string, (typeof reports)[number]>()
  for (const report of reports)
    if (!reportOf.has(report.exam_id)) reportOf.set(report.exam_id, report)
  const stateOf = new Map(states.map((state) => [state.exam_id, state]))
  const hospitalOf = new Map(hospitals.map((hospital) => [hospital.id, hospital]))
  return exams.map((exam) => {
    const state = stateOf.get(exam.id)
    const report = reportOf.get(exam.id)
    const status = examStatus(exam.status)
    const hospital = exam.hospital_id ? hospitalOf.get(exam.hospital_id) : undefined
    const brief: ReportBrief | null = report
      ? {
          id: report.id,
          status: report.status,
          statusLabel: reportStatusLabel(report.status),
          issuedAt: report.issued_at,
          read: isSet(state?.report_read_at) && state!.report_read_at! >= report.updated_at,
          private: Number(state?.report_private ?? 0) === 1,
        }
      : null
    return {
      id: exam.id,
      source: exam.source === 'upload' ? 'upload' : 'hospital',
      hospital: hospital ? { id: hospital.id, name: hospital.name } : null,
      hospitalText: exam.hospital_text,
      accessionNumber: exam.accession_number,
      studyUid: exam.study_uid,
      studyDate: exam.study_date,
      studyTime: exam.study_time,
      modalities: modalityList(exam.modalities),
      bodyPart: exam.body_part,
      title: examTitle(exam),
      seriesCount: Number(exam.series_count),
      instanceCount: Number(exam.instance_count),
      status,
      statusLabel: EXAM_STATUS_LABELS[status],
      statusMessage: exam.status_message,
      archived: isSet(state?.archived_at),
      report: brief,
      createdAt: exam.created_at,
    }
  })
}

// ---------------------------------------------------------------------------------------------------
// 我的报告

export interface ReportListFilter {
  page?: number | undefined
  pageSize?: number | undefined
  hospitalId?: string | undefined
  dateFrom?: string | undefined
  dateTo?: string | undefined
  includePrivate?: boolean
  unreadOnly?: boolean
  archivedOnly?: boolean
}

const SUMMARY_LENGTH = 60

function summaryOf(conclusion: string | null): string | null {
  const text = conclusion?.replace(/\s+/g, ' ').trim()
  if (!text) return null
  const chars = [...text]
  return chars.length > SUMMARY_LENGTH ? `${chars.slice(0, SUMMARY_LENGTH).join('')}…` : text
}

/**
 * The caller's hospital reports, newest first. Removed ones (hidden_at) never show; private ones
 * only when asked, and then without their summary.
 */
export async function listPersonalReports(
  db: DB,
  scope: PatientScope,
  filter: ReportListFilter,
): Promise<Page<ReportListItem> & { unread: number }> {
  let base = db
    .selectFrom('reports')
    .innerJoin('exams', 'exams.id', 'reports.exam_id')
    .leftJoin('exam_user_states as s', (join) =>
      join.onRef('s.exam_id', '=', 'exams.id').on('s.user_id', '=', scope.userId),
    )
    .where(visibleTo(scope.caller, scope.identity))
    .where('s.hidden_at', 'is', null)
  if (!filter.includePrivate) {
    base = base.where((eb) =>
      eb.or([eb('s.report_private', 'is', null), eb('s.report_private', '=', 0)]),
    )
  }
  const member = memberOf(scope)
  if (member) {
    // A member's reports they made private or removed stay theirs: not listed to their manager.
    base = base.where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('exam_user_states as ms')
            .select('ms.exam_id')
            .whereRef('ms.exam_id', '=', 'exams.id')
            .where('ms.user_id', '=', member)
            .where((eb) =>
              eb.or([eb('ms.report_private', '=', 1), eb('ms.hidden_at', 'is not', null)]),
            ),
        ),
      ),
    )
  }
  if (filter.archivedOnly) base = base.where('s.archived_at', 'is not', null)
  if (filter.hospitalId)
    base = base.where(notIndexed('reports.hospital_id'), '=', filter.hospitalId)
  if (filter.dateFrom) base = base.where('exams.study_date', '>=', filter.dateFrom)
  if (filter.dateTo) base = base.where('exams.study_date', '<=', filter.dateTo)

  const unreadOnes = base.where(sql<boolean>`not ${readSql('reports')}`)
  const listed = filter.unreadOnly ? unreadOnes : base
  // The page's ids and its totals in one pass (window aggregates over the filtered rows), sorting
  // narrow rows: carrying every column of every report of the caller through the sort cost most of
  // the request. Then the page's 20 rows in full. Only a page past the end, which has no row to
  // carry the totals, asks for them separately.
  const ranked = await page(
    filter,
    listed
      .select([
        'reports.id',
        sql<number | string>`count(*) over ()`.as('total_rows'),
        sql<number | string>`sum(case when ${readSql('reports')} then 0 else 1 end) over ()`.as(
          'unread_rows',
        ),
      ])
      .orderBy(sql`coalesce(reports.issued_at, reports.created_at)`, 'desc')
      .orderBy('reports.id', 'desc'),
    listed,
    { size: RECORDS_PAGE_SIZE, totalOf: (row) => row.total_rows },
  )
  const { total } = ranked
  const first = ranked.items[0]
  // Without a row to carry it, unread is the total when only unread ones are listed (or none are).
  const unread = first
    ? Number(first.unread_rows)
    : total === 0 || filter.unreadOnly
      ? total
      : await countRows(unreadOnes)

  const ids = ranked.items.map((row) => row.id)
  const details =
    ids.length === 0
      ? []
      : await db
          .selectFrom('reports')
          .innerJoin('exams', 'exams.id', 'reports.exam_id')
          .innerJoin('hospitals', 'hospitals.id', 'reports.hospital_id')
          .leftJoin('exam_user_states as s', (join) =>
            join.onRef('s.exam_id', '=', 'exams.id').on('s.user_id', '=', scope.userId),
          )
          .where('reports.id', 'in', ids)
          .select([
            'reports.id',
            'reports.exam_id',
            'reports.hospital_id',
            'hospitals.name as hospital_name',
            'reports.code_text',
            'reports.status',
            'reports.issued_at',
            // Enough for the 60-character summary, without carrying whole reports.
            sql<string | null>`substr(reports.conclusion, 1, 200)`.as('conclusion_head'),
            'exams.title',
            'exams.description',
            'exams.modalities',
            'exams.study_date',
            's.report_private',
            's.archived_at',
            readSql('reports').as('is_read'),
          ])
          .execute()
  const detailOf = new Map(details.map((row) => [row.id, row]))
  const rows = ids
    .map((id) => detailOf.get(id))
    .filter((row): row is (typeof details)[number] => row !== undefined)

  const items = rows.map((row): ReportListItem => {
    const isPrivate = Number(row.report_private ?? 0) === 1
    return {
      id: row.id,
      examId: row.exam_id,
      hospital: { id: row.hospital_id, name: row.hospital_name },
      title: row.code_text?.trim() || examTitle(row),
      modalities: modalityList(row.modalities),
      studyDate: row.study_date,
      status: row.status,
      statusLabel: reportStatusLabel(row.status),
      issuedAt: row.issued_at,
      // SQLite answers 0/1, PostgreSQL a boolean.
      read: row.is_read === true || Number(row.is_read) === 1,
      private: isPrivate,
      archived: row.archived_at !== null,
      summary: isPrivate ? null : summaryOf(row.conclusion_head),
    }
  })
  return { ...ranked, items, unread }
}

// ---------------------------------------------------------------------------------------------------
// My uploads (ys)

/** How an upload job's state reads to the person (jobs that became exams are listed as exams). */
const JOB_STATUS: Record<string, ExamStatus> = {
  receiving: 'receiving',
  queued: 'processing',
  running: 'processing',
  failed: 'failed',
}
/** Uploads not yet an exam are few (one person's, in flight or failed); the list shows them all. */
const MAX_PENDING_UPLOADS = 100

/**
 * The caller's uploads: first those not yet (or never) an exam — in flight, or failed with their
 * reason, which need the person's attention — newest first, then the exams uploads became, newest
 * first.
 */
export async function listYsReports(
  db: DB,
  scope: PatientScope,
  options: { page?: number | undefined; pageSize?: number | undefined },
): Promise<Page<YsReportItem>> {
  // Not page(): the page runs across two lists, the uploads in flight and then the exams.
  const { page, pageSize, offset } = pageWindow(options, RECORDS_PAGE_SIZE)
  const examsQuery = db
    .selectFrom('exams')
    .where(visibleTo(scope.caller, scope.identity))
    .where('exams.source', '=', 'upload')
  const [jobs, counted] = await Promise.all([
    db
      .selectFrom('ingest_jobs')
      .selectAll()
      .where('kind', '=', 'upload')
      // The listed person's uploads in flight (a member's, when the asker manages them).
      .where('user_id', '=', memberOf(scope) ?? scope.userId)
      .where('exam_id', 'is', null)
      .where('status', 'in', Object.keys(JOB_STATUS))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(MAX_PENDING_UPLOADS)
      .execute(),
    examsQuery
      .select((eb) => eb.fn.countAll<number | string>().as('total'))
      .executeTakeFirstOrThrow(),
  ])
  const examTotal = Number(counted.total)
  const pageJobs = jobs.slice(offset, offset + pageSize)
  const examOffset = Math.max(0, offset - jobs.length)
  const examLimit = pageSize - pageJobs.length
  const exams =
    examLimit > 0 && examOffset < examTotal
      ? await examsQuery
          .selectAll('exams')
          .orderBy('exams.created_at', 'desc')
          .orderBy('exams.id', 'desc')
          .limit(examLimit)
          .offset(examOffset)
          .execute()
      : []

  const examIds = exams.map((exam) => exam.id)
  const [uploads, photos] =
    examIds.length === 0
      ? [[], []]
      : await Promise.all([
          db
            .selectFrom('ingest_jobs')
            .select(['id', 'exam_id'])
            .where('exam_id', 'in', examIds)
            .where('kind', '=', 'upload')
            .orderBy('created_at', 'desc')
            .execute(),
          db
            .selectFrom('exam_files')
            .select(['exam_id', (eb) => eb.fn.countAll<number | string>().as('n')])
            .where('exam_id', 'in', examIds)
            .groupBy('exam_id')
            .execute(),
        ])
  const uploadOf = new Map<string, string>()
  for (const upload of uploads) {
    if (upload.exam_id && !uploadOf.has(upload.exam_id)) uploadOf.set(upload.exam_id, upload.id)
  }
  const photosOf = new Map(photos.map((row) => [row.exam_id, Number(row.n)]))

  const items: YsReportItem[] = [
    ...pageJobs.map((job): YsReportItem => {
      const status = JOB_STATUS[job.status] ?? 'processing'
      return {
        examId: null,
        uploadId: job.id,
        title: job.file_name?.trim() || '上传的影像',
        hospitalText: null,
        studyDate: null,
        modalities: [],
        seriesCount: 0,
        instanceCount: 0,
        sizeBytes: Number(job.total_bytes ?? job.received_bytes),
        photoCount: 0,
        status,
        statusLabel: EXAM_STATUS_LABELS[status],
        statusMessage: job.message,
        createdAt: job.created_at,
        updatedAt: job.updated_at,
      }
    }),
    ...exams.map((exam): YsReportItem => {
      const status = examStatus(exam.status)
      return {
        examId: exam.id,
        uploadId: uploadOf.get(exam.id) ?? null,
        title: examTitle(exam),
        hospitalText: exam.hospital_text,
        studyDate: exam.study_date,
        modalities: modalityList(exam.modalities),
        seriesCount: Number(exam.series_count),
        instanceCount: Number(exam.instance_count),
        sizeBytes: Number(exam.size_bytes),
        photoCount: photosOf.get(exam.id) ?? 0,
        status,
        statusLabel: EXAM_STATUS_LABELS[status],
        statusMessage: exam.status_message,
        createdAt: exam.created_at,
        updatedAt: exam.updated_at,
      }
    }),
  ]
  return { items, total: jobs.length + examTotal, page, pageSize }
}

// ---------------------------------------------------------------------------------------------------
// 我的影像 (grouped by hospital) and the exam info list

/** Exams shown per group on 我的影像; the rest are one tap away (listExams). */
export const GROUP_PREVIEW = 3

/** The hospital ids of a 选择 filter (`upload` names the uploads group). */
export function parseHospitalIds(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined
  const ids = [
    ...new Set(
      text
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean),
    ),
  ]
  return ids.length > 0 ? ids : undefined
}

function groupFilter(ids: string[] | undefined) {
  return (eb: ExpressionBuilder<Database, 'exams'>) => {
    if (!ids) return sql<boolean>`1 = 1`
    const hospitals = ids.filter((id) => id !== UPLOADS_GROUP)
    const ways = []
    if (hospitals.length > 0) ways.push(eb('exams.hospital_id', 'in', hospitals))
    if (ids.includes(UPLOADS_GROUP)) ways.push(eb('exams.source', '=', 'upload'))
    return ways.length > 0 ? eb.or(ways) : sql<boolean>`1 = 0`
  }
}

/**
 * 我的影像: one group per hospital with exams of mine (newest exam first), then my uploads, each
 * with its newest GROUP_PREVIEW exams in full.
 */
export async function listMyImages(
  db: DB,
  scope: PatientScope,
  options: { hospitalIds?: string[] | undefined },
): Promise<ImageGroup[]> {
  // One pass over the caller's exams (a few columns each, one row per exam), grouped here: cheaper
  // than a GROUP BY with distinct counts plus a window query over the same rows.
  const rows = await db
    .selectFrom('exams')
    .leftJoin('exam_user_states as s', (join) =>
      join.onRef('s.exam_id', '=', 'exams.id').on('s.user_id', '=', scope.userId),
    )
    .where(visibleTo(scope.caller, scope.identity))
    .where(groupFilter(options.hospitalIds))
    .select([
      'exams.id',
      'exams.hospital_id',
      'exams.study_date',
      sql<string>`${EXAM_DAY} || exams.created_at`.as('sort_key'),
      // An unread report (private ones do not count: they are out of sight until asked for).
      sql<number | boolean>`exists (select 1 from reports as r where r.exam_id = exams.id
        and coalesce(s.report_private, 0) = 0 and not ${readSql('r')})`.as('unread'),
    ])
    .execute()
  if (rows.length === 0) return []

  interface Group {
    hospitalId: string | null
    rows: typeof rows
    unread: number
    latestDate: string | null
  }
  const groups = new Map<string, Group>()
  for (const row of rows) {
    const key = row.hospital_id ?? UPLOADS_GROUP
    let group = groups.get(key)
    if (!group) {
      group = { hospitalId: row.hospital_id, rows: [], unread: 0, latestDate: null }
      groups.set(key, group)
    }
    group.rows.push(row)
    if (row.unread === true || Number(row.unread) === 1) group.unread += 1
    if (row.study_date && (!group.latestDate || row.study_date > group.latestDate)) {
      group.latestDate = row.study_date
    }
  }
  const newestFirst = (a: (typeof rows)[number], b: (typeof rows)[number]) =>
    a.sort_key < b.sort_key ? 1 : a.sort_key > b.sort_key ? -1 : a.id < b.id ? 1 : -1
  for (const group of groups.values()) group.rows.sort(newestFirst)
  const previewIds = [...groups.values()].flatMap((group) =>
    group.rows.slice(0, GROUP_PREVIEW).map((row) => row.id),
  )
  const previewRows = await summaryRowsInOrder(db, previewIds)
  const summaries = new Map(
    (await summariseExams(db, scope.userId, previewRows)).map((summary) => [summary.id, summary]),
  )
  const sorted = [...groups.values()].sort((a, b) => {
    if ((a.hospitalId === null) !== (b.hospitalId === null)) return a.hospitalId === null ? 1 : -1
    return newestFirst(a.rows[0]!, b.rows[0]!)
  })
  return sorted.map((group): ImageGroup => {
    const latest = group.rows
      .slice(0, GROUP_PREVIEW)
      .map((row) => summaries.get(row.id))
      .filter((summary): summary is ExamSummary => summary !== undefined)
    return {
      hospital:
        group.hospitalId === null
          ? null
          : (latest[0]?.hospital ?? { id: group.hospitalId, name: '' }),
      examCount: group.rows.length,
      unreadReports: group.unread,
      latestStudyDate: group.latestDate,
      latest,
    }
  })
}

/** Codes one filter chip stands for (the app's X线 chip sends DX). */
const MODALITY_FAMILIES: Record<string, string[]> = {
  CR: ['CR', 'DX', 'DR'],
  DX: ['CR', 'DX', 'DR'],
  DR: ['CR', 'DX', 'DR'],
}

export interface ExamListFilter {
  page?: number | undefined
  pageSize?: number | undefined
  hospitalId?: string | undefined
  modality?: string | undefined
  dateFrom?: string | undefined
  dateTo?: string | undefined
}

/** The exam info list: my exams (of one hospital, or my uploads), newest first. */
export async function listExams(
  db: DB,
  scope: PatientScope,
  filter: ExamListFilter,
): Promise<Page<ExamSummary>> {
  let base = db.selectFrom('exams').where(visibleTo(scope.caller, scope.identity))
  if (filter.hospitalId === UPLOADS_GROUP) base = base.where('exams.source', '=', 'upload')
  else if (filter.hospitalId) {
    base = base.where(notIndexed('exams.hospital_id'), '=', filter.hospitalId)
  }
  if (filter.modality) {
    // modalities is a comma list ('CT,SR'): match whole entries only. A radiograph is X线 to a
    // patient whichever of CR, DX or DR the machine wrote.
    const asked = filter.modality.toUpperCase()
    const codes = MODALITY_FAMILIES[asked] ?? [asked]
    base = base.where((eb) =>
      eb.or(
        codes.map((code) => sql<boolean>`(',' || exams.modalities || ',') like ${`%,${code},%`}`),
      ),
    )
  }
  if (filter.dateFrom) base = base.where('exams.study_date', '>=', filter.dateFrom)
  if (filter.dateTo) base = base.where('exams.study_date', '<=', filter.dateTo)
  // The page's ids and the total in one pass over narrow rows (sorting the caller's every exam with
  // all its columns cost most of the request), then the page's rows in full; a page past the end
  // counts separately.
  const ranked = await page(
    filter,
    base
      .select(['exams.id', sql<number | string>`count(*) over ()`.as('total_rows')])
      .orderBy(EXAM_DAY, 'desc')
      .orderBy('exams.created_at', 'desc')
      .orderBy('exams.id', 'desc'),
    base,
    { size: RECORDS_PAGE_SIZE, totalOf: (row) => row.total_rows },
  )
  const rows = await summaryRowsInOrder(
    db,
    ranked.items.map((row) => row.id),
  )
  return { ...ranked, items: await summariseExams(db, scope.userId, rows) }
}
