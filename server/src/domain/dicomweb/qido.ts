import { sql } from 'kysely'
import type { DicomJson, DicomJsonAttribute } from '../../dicom'
import type { DB } from '../../db'
import { withoutPatientIdentity } from '../sharing'
import { reachableBy, reachableDirectly, type SearchReach } from '../records'
import { isExact, matches, project, type QidoFilter, type QidoQuery } from './qido-query'

/*
 * QIDO-RS over our tables. Every query starts from the exams the caller could retrieve (access.ts's
 * reachableBy, nothing else), narrowed by what the database can match exactly (UIDs, dates, numbers);
 * the rest (wildcards, patient attributes that live only in the DICOM JSON) is matched on the built
 * rows, scanning in batches so a filtered page never holds more than a batch in memory.
 *
 * One StudyInstanceUID may be two exams of one caller (the hospital pushed it, the patient uploaded
 * it too): rows are per UID, counts over distinct UIDs, so a client sees one study.
 *
 * A row built from an exam reached only through a grant shows the patient as a grant does (masked
 * name, no ID number, birth date, address or phone: sharing/dicom-identity.ts), and it is masked
 * when built, before any filter: a search on PatientID through a grant cannot confirm a guess. The
 * caller's own copy of a study (an upload with the same UID) is preferred as the study's row.
 */

export interface QidoScope {
  /** Who searches and what they could retrieve (access.ts's searchReach). */
  reach: SearchReach
  /** From the path (/studies/{study}/...); the caller's access to it is already checked. */
  studyUid?: string
  seriesUid?: string
  /** Absolute base of RetrieveURL, e.g. https://host/dicomweb */
  baseUrl: string
}

export interface QidoResult {
  rows: DicomJson[]
  /** More matches exist past the limit (a Warning header says so). */
  more: boolean
}

/** Of these exams, those the caller reaches directly (own, family), not only through a grant. */
async function directExams(db: DB, scope: QidoScope, examIds: string[]): Promise<Set<string>> {
  if (examIds.length === 0) return new Set()
  const rows = await db
    .selectFrom('exams')
    .select('exams.id')
    .where('exams.id', 'in', [...new Set(examIds)])
    .where(reachableDirectly(scope.reach))
    .execute()
  return new Set(rows.map((r) => r.id))
}

/** The row as this caller may see it: whole from a direct exam, else as a grant shows it. */
const asSeen = (row: DicomJson, examId: string, direct: Set<string>): DicomJson =>
  direct.has(examId) ? row : withoutPatientIdentity(row)

const BATCH = 500
const LAST = 2147483647

/** The ids of the exams in scope: the caller's, of the path's study when there is one. */
function scopedExamIds(db: DB, scope: QidoScope) {
  let query = db.selectFrom('exams').select('exams.id').where(reachableBy(scope.reach))
  if (scope.studyUid) query = query.where('exams.study_uid', '=', scope.studyUid)
  return query
}

const filterOf = (query: QidoQuery, tag: string): QidoFilter | undefined =>
  query.filters.find((f) => f.tag === tag && !f.universal)

const isoDate = (dicomDate: string) =>
  `${dicomDate.slice(0, 4)}-${dicomDate.slice(4, 6)}-${dicomDate.slice(6, 8)}`

const text = (vr: string, value: string | number | null | undefined): DicomJsonAttribute =>
  value === null || value === undefined || value === '' ? { vr } : { vr, Value: [value] }

/** Study attributes the exam row knows better than one instance (a FHIR push may update them). */
function examOverrides(
  row: DicomJson,
  exam: {
    study_date: string | null
    study_time: string | null
    accession_number: string | null
    description: string | null
  },
): void {
  if (exam.study_date) row['00080020'] = text('DA', exam.study_date.replace(/-/g, ''))
  if (exam.study_time) row['00080030'] = text('TM', exam.study_time.replace(/:/g, ''))
  if (exam.accession_number) row['00080050'] = text('SH', exam.accession_number)
  if (exam.description) row['00081030'] = text('LO', exam.description)
  // Values in DICOM JSON are Unicode whatever the file used (PS3.18 F.2: JSON is UTF-8).
  row['00080005'] = text('CS', 'ISO_IR 192')
  row['00080056'] = text('CS', 'ONLINE')
}

function parseMetadata(json: string | undefined): DicomJson {
  if (!json) return {}
  try {
    return JSON.parse(json) as DicomJson
  } catch {
    return {}
  }
}

/**
 * Pages through keys, builds their rows and keeps the matching ones. When the database already
 * applied every filter exactly, offset and limit go to the database directly.
 *
 * Not db/paging's page(): QIDO-RS (PS3.18) takes any offset and limit and answers no total.
 */
async function collect<K>(
  page: (offset: number, size: number) => Promise<K[]>,
  build: (keys: K[]) => Promise<DicomJson[]>,
  query: QidoQuery,
  exactInDatabase: boolean,
): Promise<QidoResult> {
  if (exactInDatabase) {
    const keys = await page(query.offset, query.limit + 1)
    const rows = await build(keys.slice(0, query.limit))
    return { rows, more: keys.length > query.limit }
  }
  const out: DicomJson[] = []
  let skipped = 0
  for (let cursor = 0; ; cursor += BATCH) {
    const keys = await page(cursor, BATCH)
    if (keys.length === 0) break
    for (const row of await build(keys)) {
      if (!matches(row, query.filters)) continue
      if (skipped < query.offset) skipped += 1
      else if (out.length < query.limit) out.push(row)
      else return { rows: out, more: true }
    }
    if (keys.length < BATCH) break
  }
  return { rows: out, more: false }
}

// ---------------------------------------------------------------------------------------- studies

const STUDY_SQL_TAGS = new Set(['0020000D', '00080020', '00080050'])

export async function searchStudies(
  db: DB,
  scope: QidoScope,
  query: QidoQuery,
): Promise<QidoResult> {
  const uidFilter = filterOf(query, '0020000D')
  const dateFilter = filterOf(query, '00080020')
  const accessionFilter = filterOf(query, '00080050')
  const exact = query.filters.every(
    (f) =>
      f.universal ||
      (STUDY_SQL_TAGS.has(f.tag) && (isExact(f) || (f.tag === '00080020' && f.range))),
  )
  const page = async (offset: number, size: number) => {
    let q = db
      .selectFrom('exams')
      .select('exams.study_uid as uid')
      .select(sql<string>`max(coalesce(exams.study_date, ''))`.as('d'))
      .select(sql<string>`max(coalesce(exams.study_time, ''))`.as('t'))
      .where(reachableBy(scope.reach))
      .where('exams.study_uid', 'is not', null)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('instances')
            .select('instances.id')
            .whereRef('instances.exam_id', '=', 'exams.id'),
        ),
      )
    if (uidFilter && isExact(uidFilter)) q = q.where('exams.study_uid', 'in', uidFilter.values)
    if (accessionFilter && isExact(accessionFilter)) {
      q = q.where('exams.accession_number', 'in', accessionFilter.values)
    }
    if (dateFilter?.range) {
      if (dateFilter.range.from)
        q = q.where('exams.study_date', '>=', isoDate(dateFilter.range.from))
      if (dateFilter.range.to) q = q.where('exams.study_date', '<=', isoDate(dateFilter.range.to))
    } else if (dateFilter && isExact(dateFilter)) {
      q = q.where('exams.study_date', 'in', dateFilter.values.map(isoDate))
    }
    const rows = await q
      .groupBy('exams.study_uid')
      .orderBy('d', 'desc')
      .orderBy('t', 'desc')
      .orderBy('uid')
      .limit(size)
      .offset(offset)
      .execute()
    return rows.map((r) => r.uid!)
  }
  const build = async (uids: string[]) => {
    const built = await studyRows(db, scope, uids)
    return uids.flatMap((uid) => (built.has(uid) ? [built.get(uid)!] : []))
  }
  const result = await collect(page, build, query, exact)
  return { ...result, rows: result.rows.map((row) => project(row, query, ['study'])) }
}

/** Full study rows (before projection) for these UIDs, as the caller sees them. */
export async function studyRows(
  db: DB,
  scope: QidoScope,
  uids: string[],
): Promise<Map<string, DicomJson>> {
  const out = new Map<string, DicomJson>()
  if (uids.length === 0) return out
  const exams = await db
    .selectFrom('exams')
    .selectAll()
    .where(reachableBy(scope.reach))
    .where('exams.study_uid', 'in', uids)
    .orderBy('exams.created_at')
    .orderBy('exams.id')
    .execute()
  const examIds = exams.map((e) => e.id)
  if (examIds.length === 0) return out
  const [counts, modalities, reps] = await Promise.all([
    db
      .selectFrom('instances')
      .innerJoin('series', 'series.id', 'instances.series_id')
      .innerJoin('exams', 'exams.id', 'instances.exam_id')
      .select('exams.study_uid as uid')
      .select(sql<number | string>`count(distinct series.series_uid)`.as('s'))
      .select(sql<number | string>`count(distinct instances.sop_instance_uid)`.as('n'))
      .where('instances.exam_id', 'in', examIds)
      .groupBy('exams.study_uid')
      .execute(),
    db
      .selectFrom('series')
      .select(['series.exam_id', 'series.modality'])
      .where('series.exam_id', 'in', examIds)
      .execute(),
    db
      .selectFrom('instances')
      .select('instances.exam_id')
      .select((eb) => eb.fn.min('instances.id').as('id'))
      .where('instances.exam_id', 'in', examIds)
      .groupBy('instances.exam_id')
      .execute(),
  ])
  const repIds = reps.map((r) => r.id)
  const metadata = repIds.length
    ? await db
        .selectFrom('instances')
        .select(['instances.exam_id', 'instances.metadata_json'])
        .where('instances.id', 'in', repIds)
        .execute()
    : []
  const metadataByExam = new Map(metadata.map((m) => [m.exam_id, m.metadata_json]))
  const countsByUid = new Map(counts.map((c) => [c.uid, c]))
  const direct = await directExams(db, scope, examIds)
  for (const uid of uids) {
    const mine = exams.filter((e) => e.study_uid === uid)
    const withMetadata = mine.filter((e) => metadataByExam.has(e.id))
    const primary = withMetadata.find((e) => direct.has(e.id)) ?? withMetadata[0]
    if (!primary) continue
    const row = asSeen(parseMetadata(metadataByExam.get(primary.id)), primary.id, direct)
    examOverrides(row, primary)
    const mods = new Set<string>()
    for (const m of modalities) {
      if (m.modality && mine.some((e) => e.id === m.exam_id)) mods.add(m.modality)
    }
    const count = countsByUid.get(uid)
    row['0020000D'] = text('UI', uid)
    row['00080061'] = mods.size ? { vr: 'CS', Value: [...mods].sort() } : { vr: 'CS' }
    row['00201206'] = text('IS', Number(count?.s ?? 0))
    row['00201208'] = text('IS', Number(count?.n ?? 0))
    row['00081190'] = text('UR', `${scope.baseUrl}/studies/${uid}`)
    out.set(uid, row)
  }
  return out
}

// ----------------------------------------------------------------------------------------- series

export async function searchSeries(
  db: DB,
  scope: QidoScope,
  query: QidoQuery,
): Promise<QidoResult> {
  const studyFilter = filterOf(query, '0020000D')
  const seriesFilter = filterOf(query, '0020000E')
  const modalityFilter = filterOf(query, '00080060')
  const numberFilter = filterOf(query, '00200011')
  const sqlTags = new Set(['0020000D', '0020000E', '00080060', '00200011'])
  const exact = query.filters.every((f) => f.universal || (sqlTags.has(f.tag) && isExact(f)))
  const page = async (offset: number, size: number) => {
    let q = db
      .selectFrom('series')
      .innerJoin('exams', 'exams.id', 'series.exam_id')
      .select(['exams.study_uid as study', 'series.series_uid as uid'])
      .where('series.exam_id', 'in', scopedExamIds(db, scope))
    if (studyFilter && isExact(studyFilter))
      q = q.where('exams.study_uid', 'in', studyFilter.values)
    if (seriesFilter && isExact(seriesFilter)) {
      q = q.where('series.series_uid', 'in', seriesFilter.values)
    }
    if (modalityFilter && isExact(modalityFilter)) {
      q = q.where('series.modality', 'in', modalityFilter.values)
    }
    if (numberFilter && isExact(numberFilter)) {
      q = q.where('series.series_number', 'in', numberFilter.values.map(Number))
    }
    const rows = await q
      .groupBy(['exams.study_uid', 'series.series_uid'])
      .orderBy('exams.study_uid')
      .orderBy(sql`coalesce(min(series.series_number), ${sql.lit(LAST)})`)
      .orderBy('series.series_uid')
      .limit(size)
      .offset(offset)
      .execute()
    return rows.map((r) => ({ study: r.study!, uid: r.uid }))
  }
  const build = (keys: { study: string; uid: string }[]) => seriesRows(db, scope, keys)
  const result = await collect(page, build, query, exact)
  const levels = scope.studyUid ? (['series'] as const) : (['study', 'series'] as const)
  return { ...result, rows: result.rows.map((row) => project(row, query, [...levels])) }
}

async function seriesRows(
  db: DB,
  scope: QidoScope,
  keys: { study: string; uid: string }[],
): Promise<DicomJson[]> {
  if (keys.length === 0) return []
  const series = await db
    .selectFrom('series')
    .innerJoin('exams', 'exams.id', 'series.exam_id')
    .selectAll('series')
    .select([
      'exams.study_uid',
      'exams.study_date',
      'exams.study_time',
      'exams.accession_number',
      'exams.description as study_description',
    ])
    .where('series.exam_id', 'in', scopedExamIds(db, scope))
    .where('series.series_uid', 'in', [...new Set(keys.map((k) => k.uid))])
    .orderBy('series.created_at')
    .orderBy('series.id')
    .execute()
  const seriesIds = series.map((s) => s.id)
  if (seriesIds.length === 0) return []
  const [counts, reps] = await Promise.all([
    db
      .selectFrom('instances')
      .innerJoin('series', 'series.id', 'instances.series_id')
      .innerJoin('exams', 'exams.id', 'instances.exam_id')
      .select(['exams.study_uid as study', 'series.series_uid as uid'])
      .select(sql<number | string>`count(distinct instances.sop_instance_uid)`.as('n'))
      .where('instances.series_id', 'in', seriesIds)
      .groupBy(['exams.study_uid', 'series.series_uid'])
      .execute(),
    db
      .selectFrom('instances')
      .select('instances.series_id')
      .select((eb) => eb.fn.min('instances.id').as('id'))
      .where('instances.series_id', 'in', seriesIds)
      .groupBy('instances.series_id')
      .execute(),
  ])
  const metadata = reps.length
    ? await db
        .selectFrom('instances')
        .select(['instances.series_id', 'instances.metadata_json'])
        .where(
          'instances.id',
          'in',
          reps.map((r) => r.id),
        )
        .execute()
    : []
  const metadataBySeries = new Map(metadata.map((m) => [m.series_id, m.metadata_json]))
  const direct = await directExams(
    db,
    scope,
    series.map((s) => s.exam_id),
  )
  const out: DicomJson[] = []
  for (const key of keys) {
    const mine = series.filter((s) => s.study_uid === key.study && s.series_uid === key.uid)
    const withMetadata = mine.filter((s) => metadataBySeries.has(s.id))
    const primary = withMetadata.find((s) => direct.has(s.exam_id)) ?? withMetadata[0]
    if (!primary) continue
    const row = asSeen(parseMetadata(metadataBySeries.get(primary.id)), primary.exam_id, direct)
    examOverrides(row, { ...primary, description: primary.study_description })
    const count = counts.find((c) => c.study === key.study && c.uid === key.uid)
    row['0020000D'] = text('UI', key.study)
    row['0020000E'] = text('UI', key.uid)
    if (primary.modality) row['00080060'] = text('CS', primary.modality)
    if (primary.series_number !== null) row['00200011'] = text('IS', primary.series_number)
    if (primary.description) row['0008103E'] = text('LO', primary.description)
    if (primary.body_part) row['00180015'] = text('CS', primary.body_part)
    row['00201209'] = text('IS', Number(count?.n ?? 0))
    row['00081190'] = text('UR', `${scope.baseUrl}/studies/${key.study}/series/${key.uid}`)
    out.push(row)
  }
  return out
}

// -------------------------------------------------------------------------------------- instances

export async function searchInstances(
  db: DB,
  scope: QidoScope,
  query: QidoQuery,
): Promise<QidoResult> {
  const byTag = (tag: string) => {
    const f = filterOf(query, tag)
    return f && isExact(f) ? f.values : undefined
  }
  const studies = byTag('0020000D')
  const seriesUids = byTag('0020000E')
  const sops = byTag('00080018')
  const classes = byTag('00080016')
  const numbers = byTag('00200013')
  const modalities = byTag('00080060')
  const sqlTags = new Set(['0020000D', '0020000E', '00080018', '00080016', '00200013', '00080060'])
  const exact = query.filters.every((f) => f.universal || (sqlTags.has(f.tag) && isExact(f)))
  const page = async (offset: number, size: number) => {
    let q = db
      .selectFrom('instances')
      .innerJoin('series', 'series.id', 'instances.series_id')
      .innerJoin('exams', 'exams.id', 'instances.exam_id')
      .select((eb) => eb.fn.min('instances.id').as('id'))
      .where('instances.exam_id', 'in', scopedExamIds(db, scope))
    if (scope.seriesUid) q = q.where('series.series_uid', '=', scope.seriesUid)
    if (studies) q = q.where('exams.study_uid', 'in', studies)
    if (seriesUids) q = q.where('series.series_uid', 'in', seriesUids)
    if (sops) q = q.where('instances.sop_instance_uid', 'in', sops)
    if (classes) q = q.where('instances.sop_class_uid', 'in', classes)
    if (numbers) q = q.where('instances.instance_number', 'in', numbers.map(Number))
    if (modalities) q = q.where('series.modality', 'in', modalities)
    const rows = await q
      .groupBy(['exams.study_uid', 'series.series_uid', 'instances.sop_instance_uid'])
      .orderBy('exams.study_uid')
      .orderBy(sql`coalesce(min(series.series_number), ${sql.lit(LAST)})`)
      .orderBy('series.series_uid')
      .orderBy(sql`coalesce(min(instances.instance_number), ${sql.lit(LAST)})`)
      .orderBy('instances.sop_instance_uid')
      .limit(size)
      .offset(offset)
      .execute()
    return rows.map((r) => r.id)
  }
  const build = async (ids: string[]) => {
    if (ids.length === 0) return []
    const rows = await db
      .selectFrom('instances')
      .innerJoin('series', 'series.id', 'instances.series_id')
      .innerJoin('exams', 'exams.id', 'instances.exam_id')
      .select([
        'instances.id',
        'instances.exam_id',
        'instances.sop_instance_uid',
        'instances.metadata_json',
        'series.series_uid',
        'series.modality',
        'series.series_number',
        'exams.study_uid',
        'exams.study_date',
        'exams.study_time',
        'exams.accession_number',
        'exams.description',
      ])
      .where('instances.id', 'in', ids)
      .execute()
    const byId = new Map(rows.map((r) => [r.id, r]))
    const direct = await directExams(
      db,
      scope,
      rows.map((r) => r.exam_id),
    )
    return ids.flatMap((id) => {
      const r = byId.get(id)
      if (!r) return []
      const row = asSeen(parseMetadata(r.metadata_json), r.exam_id, direct)
      examOverrides(row, r)
      row['0020000D'] = text('UI', r.study_uid)
      row['0020000E'] = text('UI', r.series_uid)
      row['00080018'] = text('UI', r.sop_instance_uid)
      if (r.modality) row['00080060'] = text('CS', r.modality)
      row['00081190'] = text(
        'UR',
        `${scope.baseUrl}/studies/${r.study_uid}/series/${r.series_uid}/instances/${r.sop_instance_uid}`,
      )
      return [row]
    })
  }
  const result = await collect(page, build, query, exact)
  const levels = scope.seriesUid
    ? (['instance'] as const)
    : scope.studyUid
      ? (['series', 'instance'] as const)
      : (['study', 'series', 'instance'] as const)
  return { ...result, rows: result.rows.map((row) => project(row, query, [...levels])) }
}
