import { z } from 'zod/mini'
import { IdSchema, OkSchema } from '../common'
import { defineEndpoint } from '../endpoint'
import { safeDisplayText } from '../text'

/*
 * A patient's bookmarks (书签): slices of an exam they want to find again, with a note. Each belongs
 * to one person and one exam; only exams the caller can see take bookmarks (any other id answers 404
 * 检查不存在或您无权查看), and the image must be one of that exam's (else 400 找不到该图像).
 * Deleting the exam (an upload deleted) deletes its bookmarks.
 */

export const BOOKMARK_NOTE_MAX_LENGTH = 200
/** Per person per exam: more than anyone marks by hand, few enough to list in one answer. */
export const BOOKMARKS_PER_EXAM_MAX = 100

export const BOOKMARK_MESSAGES = {
  noteTooLong: `备注最多 ${BOOKMARK_NOTE_MAX_LENGTH} 个字`,
  noteUnsafe: '备注不能包含控制字符或不可见字符',
  uid: '图像编号格式不正确',
  frame: '帧号应为从 1 开始的整数',
  imageNotFound: '找不到该图像',
  tooMany: `每个检查最多保存 ${BOOKMARKS_PER_EXAM_MAX} 个书签，请先删除不需要的书签`,
  notFound: '书签不存在或已删除',
} as const

/** A DICOM UID (PS3.5 9.1): digits and dots, at most 64 characters. */
export const DicomUidSchema = z
  .string({ error: BOOKMARK_MESSAGES.uid })
  .check(
    z.regex(/^[0-9]+(\.[0-9]+)*$/, BOOKMARK_MESSAGES.uid),
    z.maxLength(64, BOOKMARK_MESSAGES.uid),
  )

/**
 * 1-based frame of a multi-frame instance (1 for a single-frame image): a JSON integer, or its
 * decimal digits as a query string carries them. Nothing else is read as a number (a bare
 * z.coerce took `true` as 1, "0x10" as 16, "1e2" as 100 and [3] as 3).
 */
export const FrameNumberSchema = z.pipe(
  z.union([z.number(), z.string().check(z.regex(/^[1-9][0-9]*$/, BOOKMARK_MESSAGES.frame))], {
    error: BOOKMARK_MESSAGES.frame,
  }),
  z.coerce
    .number<string | number>({ error: BOOKMARK_MESSAGES.frame })
    .check(
      z.int(BOOKMARK_MESSAGES.frame),
      z.minimum(1, BOOKMARK_MESSAGES.frame),
      z.maximum(100000, BOOKMARK_MESSAGES.frame),
    ),
)

/** Trimmed, multi-line allowed, at most 200 characters (an emoji counts as one), may be empty. */
export const BookmarkNoteSchema = z.string().check(
  z.trim(),
  z.refine(
    (text: string) => [...text].length <= BOOKMARK_NOTE_MAX_LENGTH,
    BOOKMARK_MESSAGES.noteTooLong,
  ),
  safeDisplayText(BOOKMARK_MESSAGES.noteUnsafe, { multiline: true }),
)

export const BookmarkSchema = z.object({
  id: z.string(),
  examId: z.string(),
  seriesUid: z.string(),
  sopInstanceUid: z.string(),
  /** 1-based. */
  frame: z.number(),
  /** '' when none was given. */
  note: z.string(),
  /** ISO time. */
  createdAt: z.string(),
  /** The image's InstanceNumber and its series' description, for 第 N 层 in lists (null: none). */
  instanceNumber: z.optional(z.nullable(z.number())),
  seriesDescription: z.optional(z.nullable(z.string())),
})
export type Bookmark = z.infer<typeof BookmarkSchema>

export const listBookmarks = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/exams/:examId/bookmarks',
  input: z.object({ examId: IdSchema }),
  /** The caller's bookmarks of the exam, oldest first (at most BOOKMARKS_PER_EXAM_MAX). */
  output: z.array(BookmarkSchema),
  auth: true,
  summary: '我的书签（一个检查中我标记的图像）',
})

export const addBookmark = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/exams/:examId/bookmarks',
  input: z.object({
    examId: IdSchema,
    seriesUid: DicomUidSchema,
    sopInstanceUid: DicomUidSchema,
    frame: z.optional(FrameNumberSchema),
    note: z.optional(BookmarkNoteSchema),
  }),
  output: BookmarkSchema,
  auth: true,
  summary: '添加书签（标记一幅图像，可附备注）',
})

export const deleteBookmark = defineEndpoint({
  service: 'main',
  method: 'DELETE',
  path: '/bookmarks/:bookmarkId',
  input: z.object({ bookmarkId: IdSchema }),
  output: OkSchema,
  auth: true,
  summary: '删除书签',
})
