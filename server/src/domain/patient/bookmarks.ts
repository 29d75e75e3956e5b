import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { type Bookmark, BOOKMARK_MESSAGES, BOOKMARKS_PER_EXAM_MAX } from '@contract/main/bookmarks'
import type { FieldCipher } from '../../crypto/field-cipher'
import type { DB } from '../../db'
import type { BookmarksTable } from '../../db/schema'
import {
  badRequest,
  conflict,
  GONE_MEANWHILE,
  isForeignKeyViolation,
  notFound,
} from '../../http/errors'
import { findVisibleExam } from '../records'

/*
 * A patient's bookmarks of single frames (contract/main/bookmarks.ts). The one access check is
 * findVisibleExam: bookmarks are listed and added only on an exam the caller can see now. A bookmark
 * names an instance of that exam (the row references it, so deleting the exam or the file deletes
 * the bookmark). Deleting needs only ownership: a person may always remove their own note, even
 * on an exam they no longer see.
 */

export interface NewBookmarkInput {
  examId: string
  seriesUid: string
  sopInstanceUid: string
  frame?: number | undefined
  note?: string | undefined
}

interface ImageFacts {
  instance_number: number | null
  description: string | null
}

function toBookmark(row: BookmarksTable, image: ImageFacts): Bookmark {
  return {
    id: row.id,
    examId: row.exam_id,
    seriesUid: row.series_uid,
    sopInstanceUid: row.sop_instance_uid,
    frame: Number(row.frame),
    note: row.note,
    createdAt: row.created_at,
    instanceNumber: image.instance_number === null ? null : Number(image.instance_number),
    seriesDescription: image.description,
  }
}

/** The caller's bookmarks of a visible exam, oldest first. */
export async function listBookmarks(
  db: DB,
  cipher: FieldCipher,
  userId: string,
  examId: string,
): Promise<Bookmark[]> {
  const exam = await findVisibleExam(db, cipher, { kind: 'user', userId }, examId)
  const rows = await db
    .selectFrom('bookmarks')
    .innerJoin('instances', 'instances.id', 'bookmarks.instance_id')
    .innerJoin('series', 'series.id', 'instances.series_id')
    .selectAll('bookmarks')
    .select(['instances.instance_number', 'series.description'])
    .where('bookmarks.user_id', '=', userId)
    .where('bookmarks.exam_id', '=', exam.id)
    .orderBy('bookmarks.created_at')
    .orderBy('bookmarks.id')
    .execute()
  return rows.map((row) => toBookmark(row, row))
}

/**
 * Adds a bookmark on one frame of the exam's image. The person's row in bookmark_counts is locked
 * (UPDATE) before the count: concurrent adds of one person on one exam take turns there, and each
 * counts what the previous one committed, so a burst never passes BOOKMARKS_PER_EXAM_MAX.
 */
export async function addBookmark(
  db: DB,
  cipher: FieldCipher,
  userId: string,
  input: NewBookmarkInput,
  now: Date,
): Promise<Bookmark> {
  const { exam, instance } = await findImage(db, cipher, userId, input)
  try {
    return await insertBookmark(db, userId, exam, instance, input, now)
  } catch (error) {
    if (!isForeignKeyViolation(error)) throw error
    // The exam, the image or the account was deleted after the checks above (another request, a
    // file delete): answer what a retry would get now (404 for the exam, 400 for the image).
    await findImage(db, cipher, userId, input)
    throw conflict(GONE_MEANWHILE)
  }
}

type ImageRow = ImageFacts & { id: string; frame_count: number }

/** The visible exam and its image the input names; 404 / 400 as the contract says otherwise. */
async function findImage(
  db: DB,
  cipher: FieldCipher,
  userId: string,
  input: NewBookmarkInput,
): Promise<{ exam: { id: string }; instance: ImageRow }> {
  const exam = await findVisibleExam(db, cipher, { kind: 'user', userId }, input.examId)
  const instance = await db
    .selectFrom('instances')
    .innerJoin('series', 'series.id', 'instances.series_id')
    .select([
      'instances.id',
      'instances.frame_count',
      'instances.instance_number',
      'series.description',
    ])
    .where('instances.exam_id', '=', exam.id)
    .where('instances.sop_instance_uid', '=', input.sopInstanceUid)
    .where('series.series_uid', '=', input.seriesUid)
    .executeTakeFirst()
  if (!instance) throw badRequest(BOOKMARK_MESSAGES.imageNotFound)
  return { exam, instance }
}

async function insertBookmark(
  db: DB,
  userId: string,
  exam: { id: string },
  instance: ImageRow,
  input: NewBookmarkInput,
  now: Date,
): Promise<Bookmark> {
  const frame = input.frame ?? 1
  if (frame > Math.max(1, Number(instance.frame_count))) {
    throw badRequest(`该图像共 ${Number(instance.frame_count)} 帧，没有第 ${frame} 帧`)
  }

  // Created outside the transaction: racing creators meet on the primary key, one insert wins.
  await db
    .insertInto('bookmark_counts')
    .values({ user_id: userId, exam_id: exam.id, count: 0 })
    .onConflict((clash) => clash.columns(['user_id', 'exam_id']).doNothing())
    .execute()

  const row: BookmarksTable = {
    id: randomUUID(),
    user_id: userId,
    exam_id: exam.id,
    instance_id: instance.id,
    series_uid: input.seriesUid,
    sop_instance_uid: input.sopInstanceUid,
    frame,
    note: input.note ?? '',
    created_at: now.toISOString(),
  }
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('bookmark_counts')
      .set({ count: sql`${sql.ref('count')}` })
      .where('user_id', '=', userId)
      .where('exam_id', '=', exam.id)
      .execute()
    // A statement after the lock: on PostgreSQL it sees every add that held the lock before.
    const { n } = await trx
      .selectFrom('bookmarks')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .where('exam_id', '=', exam.id)
      .executeTakeFirstOrThrow()
    const count = Number(n)
    if (count >= BOOKMARKS_PER_EXAM_MAX) throw badRequest(BOOKMARK_MESSAGES.tooMany)
    await trx.insertInto('bookmarks').values(row).execute()
    await trx
      .updateTable('bookmark_counts')
      .set({ count: count + 1 })
      .where('user_id', '=', userId)
      .where('exam_id', '=', exam.id)
      .execute()
  })
  return toBookmark(row, instance)
}

/** Deletes one of the caller's bookmarks; anyone else's (or a gone one) is 404. */
export async function deleteBookmark(db: DB, userId: string, bookmarkId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const gone = await trx
      .deleteFrom('bookmarks')
      .where('id', '=', bookmarkId)
      .where('user_id', '=', userId)
      .returning(['exam_id'])
      .executeTakeFirst()
    if (!gone) throw notFound(BOOKMARK_MESSAGES.notFound)
    await trx
      .updateTable('bookmark_counts')
      .set({
        count: sql`case when ${sql.ref('count')} > 0 then ${sql.ref('count')} - 1 else 0 end`,
      })
      .where('user_id', '=', userId)
      .where('exam_id', '=', gone.exam_id)
      .execute()
  })
}
