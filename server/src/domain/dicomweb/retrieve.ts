import type { FieldCipher } from '../../crypto/field-cipher'
import { NO_SUCH_FRAME_MESSAGE } from '../../dicom'
import type { DB } from '../../db'
import type { ExamsTable } from '../../db/schema'
import { badRequest, notFound } from '../../http/errors'
import { EXAM_NOT_FOUND, findVisibleStudy, type InstanceRow, type RecordsCaller } from '../records'

/*
 * WADO-RS reads: which instances a path names (after records/access.ts said the study is the
 * caller's) and which frames. Their metadata, frames and rendered images are records/images.ts,
 * which ingest shares.
 */

export const SERIES_NOT_FOUND = '序列不存在'
export const INSTANCE_NOT_FOUND = '图像不存在'

/** The caller's exams carrying this StudyInstanceUID; 404 (never 403) when there is none. */
export async function visibleStudyExams(
  db: DB,
  cipher: FieldCipher,
  caller: RecordsCaller,
  studyUid: string,
): Promise<ExamsTable[]> {
  const exams = await findVisibleStudy(db, cipher, caller, studyUid)
  if (exams.length === 0) throw notFound(EXAM_NOT_FOUND)
  return exams
}

/**
 * Instances of the given (already authorised) exams, optionally of one series or one SOP instance,
 * in viewing order. An instance present in two of the caller's exams is answered once.
 */
export async function findInstances(
  db: DB,
  exams: ExamsTable[],
  where: { seriesUid?: string; sopInstanceUid?: string } = {},
): Promise<InstanceRow[]> {
  let query = db
    .selectFrom('instances')
    .innerJoin('series', 'series.id', 'instances.series_id')
    .innerJoin('exams', 'exams.id', 'instances.exam_id')
    .selectAll('instances')
    .select(['series.series_uid', 'series.series_number', 'exams.study_uid'])
    .where(
      'instances.exam_id',
      'in',
      exams.map((e) => e.id),
    )
  if (where.seriesUid) query = query.where('series.series_uid', '=', where.seriesUid)
  if (where.sopInstanceUid) {
    query = query.where('instances.sop_instance_uid', '=', where.sopInstanceUid)
  }
  const rows = await query.execute()
  const seen = new Set<string>()
  const unique = rows.filter((row) => {
    const key = `${row.series_uid}\u0000${row.sop_instance_uid}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  }) as InstanceRow[]
  const last = Number.MAX_SAFE_INTEGER
  return unique.sort(
    (a, b) =>
      (a.series_number ?? last) - (b.series_number ?? last) ||
      a.series_uid.localeCompare(b.series_uid) ||
      (a.instance_number ?? last) - (b.instance_number ?? last) ||
      a.sop_instance_uid.localeCompare(b.sop_instance_uid),
  )
}

/** Instances of a path: study, series, or one instance; 404 in Chinese when the path names none. */
export async function instancesOfPath(
  db: DB,
  cipher: FieldCipher,
  caller: RecordsCaller,
  path: { studyUid: string; seriesUid?: string; sopInstanceUid?: string },
): Promise<InstanceRow[]> {
  return instancesOfExams(db, await visibleStudyExams(db, cipher, caller, path.studyUid), path)
}

/** Instances of a path within exams already authorised (reachStudy); 404 when it names none. */
export async function instancesOfExams(
  db: DB,
  exams: ExamsTable[],
  path: { studyUid: string; seriesUid?: string; sopInstanceUid?: string },
): Promise<InstanceRow[]> {
  if (exams.length === 0) throw notFound(EXAM_NOT_FOUND)
  const rows = await findInstances(db, exams, path)
  if (rows.length === 0) {
    if (path.sopInstanceUid) throw notFound(INSTANCE_NOT_FOUND)
    if (path.seriesUid) throw notFound(SERIES_NOT_FOUND)
    // A study known only from a FHIR report has no images yet.
    throw notFound('该检查暂无影像')
  }
  return rows
}

/** 1-based frame numbers of a /frames/{list} path: "1", "1,3,5"; 400 or 404 in Chinese. */
export function parseFrameList(text: string, frameCount: number): number[] {
  const parts = text.split(',').map((p) => p.trim())
  if (parts.length === 0 || parts.length > 1000 || parts.some((p) => !/^\d{1,7}$/.test(p))) {
    throw badRequest('帧号格式不正确：应为从 1 开始的整数，多个帧用逗号分隔（如 1,2,3）')
  }
  const numbers = parts.map(Number)
  if (numbers.some((n) => n < 1)) throw badRequest('帧号从 1 开始')
  if (numbers.some((n) => n > frameCount)) {
    throw notFound(`${NO_SUCH_FRAME_MESSAGE}（共 ${frameCount} 帧）`)
  }
  return numbers
}
