import { randomUUID } from 'node:crypto'
import type { Readable } from 'node:stream'
import { REPORT_PHOTOS_PER_EXAM, REPORT_PHOTOS_PER_REQUEST } from '@contract/main/dicom-upload'
import type { ExamFile } from '@contract/main/records'
import type { FieldCipher } from '../../crypto/field-cipher'
import { ApiError, badRequest, notFound } from '../../http/errors'
import { cleanPhoto, type CleanPhoto } from '../../images'
import { reachStudy, type RecordsCaller } from '../records'
import {
  ownUploadExam,
  quotaExceeded,
  releaseStorage,
  reserveStorage,
  storageQuota,
} from './uploads'
import type { UploadsContext } from './uploads'

/*
 * Photos of a paper report, attached to an uploaded study. A phone photo carries EXIF: the place it
 * was taken (GPS), the device, sometimes a thumbnail of the uncropped picture. None of it belongs on
 * our disks, and a file that only claims to be an image must not be stored at all. So every photo is
 * sniffed by its bytes (not its name or Content-Type), decoded to pixels, turned upright by its EXIF
 * orientation, and encoded afresh as a baseline JPEG: only pixels survive.
 */

export const PHOTOS_TOO_MANY = `一次最多上传 ${REPORT_PHOTOS_PER_REQUEST} 张照片`
export const photosPerExamExceeded = (left: number) =>
  `每个检查最多保存 ${REPORT_PHOTOS_PER_EXAM} 张照片，还可以上传 ${left} 张`
export const PHOTO_NOT_FOUND = '照片不存在或已删除'

const photoKey = (examId: string, fileId: string) => `exam-files/${examId}/${fileId}.jpg`

function toExamFile(row: {
  id: string
  kind: string
  mime_type: string
  size_bytes: number
  width: number | null
  height: number | null
  created_at: string
}): ExamFile {
  return {
    id: row.id,
    kind: row.kind,
    mimeType: row.mime_type,
    sizeBytes: Number(row.size_bytes),
    width: row.width === null ? null : Number(row.width),
    height: row.height === null ? null : Number(row.height),
    createdAt: row.created_at,
  }
}

/**
 * Adds photos to the caller's own uploaded study. All are checked and cleaned before any is stored
 * (one bad file refuses the request, nothing half-added); their bytes are reserved against the
 * quota first and given back if storing fails.
 */
export async function addReportPhotos(
  ctx: UploadsContext,
  userId: string,
  examId: string,
  files: Buffer[],
): Promise<ExamFile[]> {
  await ownUploadExam(ctx, userId, examId)
  if (files.length > REPORT_PHOTOS_PER_REQUEST) throw badRequest(PHOTOS_TOO_MANY)
  const existing = await ctx.db
    .selectFrom('exam_files')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('exam_id', '=', examId)
    .executeTakeFirst()
  const left = REPORT_PHOTOS_PER_EXAM - Number(existing?.count ?? 0)
  if (files.length > left) throw badRequest(photosPerExamExceeded(Math.max(left, 0)))

  const cleaned: CleanPhoto[] = []
  for (const file of files) cleaned.push(await cleanPhoto(file))
  const total = cleaned.reduce((sum, photo) => sum + photo.bytes.length, 0)
  const now = ctx.now()
  if (!(await reserveStorage(ctx.db, userId, total, ctx.quotaBytes, now))) {
    const { usedBytes } = await storageQuota(ctx.db, userId, ctx.quotaBytes)
    throw badRequest(quotaExceeded(usedBytes, ctx.quotaBytes, total))
  }
  const at = now.toISOString()
  const rows = cleaned.map((photo) => {
    const id = randomUUID()
    return {
      id,
      exam_id: examId,
      user_id: userId,
      kind: 'report-photo',
      file_key: photoKey(examId, id),
      mime_type: 'image/jpeg',
      size_bytes: photo.bytes.length,
      width: photo.width,
      height: photo.height,
      created_at: at,
    }
  })
  try {
    for (const [index, row] of rows.entries()) {
      await ctx.store.put(row.file_key, cleaned[index]!.bytes, { contentType: 'image/jpeg' })
    }
    await ctx.db.insertInto('exam_files').values(rows).execute()
  } catch (error) {
    for (const row of rows) await ctx.store.delete(row.file_key).catch(() => undefined)
    await releaseStorage(ctx.db, userId, total, now)
    throw error
  }
  return rows.map(toExamFile)
}

async function ownPhoto(ctx: UploadsContext, userId: string, fileId: string) {
  const row = await ctx.db
    .selectFrom('exam_files')
    .innerJoin('exams', 'exams.id', 'exam_files.exam_id')
    .select([
      'exam_files.id',
      'exam_files.exam_id',
      'exam_files.file_key',
      'exam_files.size_bytes',
      'exam_files.mime_type',
    ])
    .where('exam_files.id', '=', fileId)
    .where('exams.owner_user_id', '=', userId)
    .where('exams.source', '=', 'upload')
    .executeTakeFirst()
  if (!row) throw notFound(PHOTO_NOT_FOUND)
  return row
}

/**
 * A report photo for whoever may see its exam (issue 9): the owner, a family manager, a grantee or a
 * link visitor of a grant covering the exam's images, judged by access.ts's reachStudy at `now`.
 * Anyone else: the same 404 as for a photo that does not exist. `grantId` says the read went through
 * a grant (to be logged as a view of the exam, and never cached).
 */
export async function readReportPhoto(
  ctx: UploadsContext,
  cipher: FieldCipher,
  caller: RecordsCaller,
  fileId: string,
): Promise<{
  body: Readable
  size: number
  contentType: string
  examId: string
  grantId: string | null
}> {
  const row = await ctx.db
    .selectFrom('exam_files')
    .innerJoin('exams', 'exams.id', 'exam_files.exam_id')
    .select([
      'exam_files.exam_id',
      'exam_files.file_key',
      'exam_files.mime_type',
      'exams.study_uid',
      'exams.source',
    ])
    .where('exam_files.id', '=', fileId)
    .executeTakeFirst()
  // A patient's upload is never a hospital's to read.
  if (!row || row.source !== 'upload' || !row.study_uid || caller.kind === 'hospital') {
    throw notFound(PHOTO_NOT_FOUND)
  }
  const reach = await reachStudy(ctx.db, cipher, caller, row.study_uid, ctx.now()).catch(
    (error: unknown) => {
      // An ended grant's holder is told so (403 授权已失效); anything else is not found.
      if (error instanceof ApiError && error.statusCode === 403) throw error
      throw notFound(PHOTO_NOT_FOUND)
    },
  )
  if (!reach.exams.some((exam) => exam.id === row.exam_id)) throw notFound(PHOTO_NOT_FOUND)
  const object = await ctx.store.get(row.file_key).catch(() => {
    throw notFound(PHOTO_NOT_FOUND)
  })
  return {
    body: object.body,
    size: object.length,
    contentType: row.mime_type,
    examId: row.exam_id,
    grantId: reach.grantId,
  }
}

export async function deleteReportPhotoFile(
  ctx: UploadsContext,
  userId: string,
  fileId: string,
): Promise<void> {
  const row = await ownPhoto(ctx, userId, fileId)
  const now = ctx.now()
  const gone = await ctx.db.transaction().execute(async (trx) => {
    const result = await trx.deleteFrom('exam_files').where('id', '=', row.id).executeTakeFirst()
    if (Number(result.numDeletedRows) !== 1) return false
    await releaseStorage(trx, userId, Number(row.size_bytes), now)
    return true
  })
  if (!gone) throw notFound(PHOTO_NOT_FOUND)
  await ctx.store.delete(row.file_key)
}
