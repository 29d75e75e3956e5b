import { randomUUID } from 'node:crypto'
import {
  FEEDBACK_MESSAGES,
  FEEDBACK_STATUS_LABELS,
  FEEDBACK_TYPE_LABELS,
  type Feedback,
  type FeedbackType,
} from '@contract/main/feedback'
import type { DB } from '../db'
import { page, type PageQuery } from '../db/paging'
import type { FeedbackTable } from '../db/schema'
import { badRequest, notFound } from '../http/errors'
import type { ObjectStore } from '../storage/object-store'
import { cleanPhoto, type PhotoProblem } from '../images'
import { removeUnattachedFiles } from './content'

/*
 * 意见反馈 (contract/main/feedback.ts). Images go up one by one first, are sniffed, decoded and
 * re-encoded as JPEG (nothing but their pixels survives: no EXIF, no location), and are read only
 * by their sender and operators. An image nobody's feedback names in time is removed
 * (removeUnattachedFeedbackImages, run by the retention purge: domain/retention).
 */

export const FEEDBACK_IMAGE_NOT_FOUND = '图片不存在或已删除'
export const FEEDBACK_NOT_FOUND = '反馈不存在'
export const FEEDBACK_IMAGE_URL = (id: string) => `/main/feedback/images/${id}`

/** The report-photo cleaner's refusals, said about a feedback picture. */
const FEEDBACK_IMAGE_WORDS: Record<PhotoProblem, string> = {
  type: '反馈图片只支持 JPG 或 PNG 格式',
  'too-large': '单张图片不能超过 10 MB，请压缩后重试',
  'too-many-pixels': '图片尺寸过大，请缩小后重试',
  unreadable: '图片无法识别，请换一张重试',
  'too-small': '图片太小，请换一张清晰的截图或照片',
}

export async function uploadFeedbackImage(
  db: DB,
  store: ObjectStore,
  userId: string,
  bytes: Buffer,
  now: Date,
): Promise<{ id: string; path: string }> {
  const clean = await cleanPhoto(bytes, FEEDBACK_IMAGE_WORDS)
  const id = randomUUID()
  const key = `feedback/${userId}/${id}.jpg`
  await store.put(key, clean.bytes, { contentType: 'image/jpeg' })
  await db
    .insertInto('content_files')
    .values({
      id,
      kind: 'feedback',
      storage_key: key,
      mime_type: 'image/jpeg',
      size_bytes: clean.bytes.length,
      width: clean.width,
      height: clean.height,
      uploaded_by_user_id: userId,
      created_at: now.toISOString(),
      attached_at: null,
    })
    .execute()
  return { id, path: FEEDBACK_IMAGE_URL(id) }
}

/** A feedback image for its sender or an operator; anyone else gets the answer for a missing one. */
export async function readFeedbackImage(
  db: DB,
  caller: { userId: string; operator: boolean },
  fileId: string,
) {
  const row = await db
    .selectFrom('content_files')
    .select(['storage_key', 'size_bytes', 'uploaded_by_user_id'])
    .where('id', '=', fileId)
    .where('kind', '=', 'feedback')
    .executeTakeFirst()
  if (!row || (!caller.operator && row.uploaded_by_user_id !== caller.userId)) {
    throw notFound(FEEDBACK_IMAGE_NOT_FOUND)
  }
  return { key: row.storage_key, size: Number(row.size_bytes) }
}

async function imagesOf(db: DB, feedbackIds: string[]): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>()
  if (feedbackIds.length === 0) return map
  const rows = await db
    .selectFrom('feedback_images')
    .select(['feedback_id', 'file_id'])
    .where('feedback_id', 'in', feedbackIds)
    .orderBy('position')
    .execute()
  for (const row of rows) {
    map.set(row.feedback_id, [...(map.get(row.feedback_id) ?? []), FEEDBACK_IMAGE_URL(row.file_id)])
  }
  return map
}

export function toFeedback(row: FeedbackTable, imagePaths: string[]): Feedback {
  const type = row.type as FeedbackType
  return {
    id: row.id,
    type,
    typeLabel: FEEDBACK_TYPE_LABELS[type] ?? row.type,
    text: row.text,
    imagePaths,
    contact: row.contact,
    status: row.status,
    statusLabel: FEEDBACK_STATUS_LABELS[row.status],
    createdAt: row.created_at,
    reply: row.reply_text && row.replied_at ? { text: row.reply_text, at: row.replied_at } : null,
  }
}

/** One feedback with its pictures (after an operator's reply), or 404. */
export async function getFeedback(db: DB, feedbackId: string): Promise<Feedback> {
  const row = await db
    .selectFrom('feedback')
    .selectAll()
    .where('id', '=', feedbackId)
    .executeTakeFirst()
  if (!row) throw notFound(FEEDBACK_NOT_FOUND)
  const images = await imagesOf(db, [row.id])
  return toFeedback(row, images.get(row.id) ?? [])
}

export async function addFeedback(
  db: DB,
  userId: string,
  input: { type: FeedbackType; text: string; imageIds: string[]; contact?: string },
  now: Date,
): Promise<Feedback> {
  const imageIds = [...new Set(input.imageIds)]
  const at = now.toISOString()
  const id = randomUUID()
  const row = await db.transaction().execute(async (trx) => {
    // The images must be the sender's own, not yet used: claimed by one UPDATE, so two feedbacks
    // racing for one image cannot both have it.
    if (imageIds.length > 0) {
      const claimed = await trx
        .updateTable('content_files')
        .set({ attached_at: at })
        .where('id', 'in', imageIds)
        .where('kind', '=', 'feedback')
        .where('uploaded_by_user_id', '=', userId)
        .where('attached_at', 'is', null)
        .executeTakeFirst()
      if (Number(claimed.numUpdatedRows) !== imageIds.length) {
        throw badRequest(FEEDBACK_MESSAGES.imageNotFound)
      }
    }
    const values: FeedbackTable = {
      id,
      user_id: userId,
      type: input.type,
      text: input.text,
      contact: input.contact ? input.contact : null,
      status: 'open',
      created_at: at,
      reply_text: null,
      replied_at: null,
      replied_by_user_id: null,
      adopted: 0,
    }
    await trx.insertInto('feedback').values(values).execute()
    if (imageIds.length > 0) {
      await trx
        .insertInto('feedback_images')
        .values(
          imageIds.map((fileId, position) => ({ feedback_id: id, position, file_id: fileId })),
        )
        .execute()
    }
    return values
  })
  return toFeedback(row, imageIds.map(FEEDBACK_IMAGE_URL))
}

export async function listFeedback(
  db: DB,
  filter: { userId?: string; status?: Feedback['status'] },
  query: PageQuery,
  size?: number,
) {
  let base = db.selectFrom('feedback')
  if (filter.userId) base = base.where('user_id', '=', filter.userId)
  if (filter.status) base = base.where('status', '=', filter.status)
  const found = await page(
    query,
    base.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'),
    base,
    { size },
  )
  const images = await imagesOf(
    db,
    found.items.map((row) => row.id),
  )
  return { ...found, items: found.items.map((row) => toFeedback(row, images.get(row.id) ?? [])) }
}

/** Images uploaded before `uploadedBefore` but never sent with a feedback: rows and bytes go. */
export function removeUnattachedFeedbackImages(
  db: DB,
  store: ObjectStore,
  uploadedBefore: Date,
): Promise<number> {
  return removeUnattachedFiles(db, store, ['feedback'], uploadedBefore)
}
