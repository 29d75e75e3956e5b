import { randomUUID } from 'node:crypto'
import type { z } from 'zod/mini'
import type { Kysely } from 'kysely'
import { ARTICLE_BODY_MAX_BYTES, type VideoCategory } from '@contract/main/content'
import {
  OPERATOR_VIDEO_MAX_BYTES,
  PUBLISH_STATE_LABELS,
  type OperatorFileSchema,
} from '@contract/main/operator'
import type { DB } from '../../db'
import { page, type PageQuery } from '../../db/paging'
import type { ArticlesTable, Database, VideosTable } from '../../db/schema'
import { ApiError, badRequest, notFound } from '../../http/errors'
import type { ObjectStore } from '../../storage/object-store'
import {
  mediaPath,
  toArticleSummary,
  removeUnattachedFiles,
  sanitiseArticleHtml,
  toVideoSummary,
} from '../content'
import { cleanPhoto, type PhotoProblem } from '../../images'
import { OPERATOR_PAGE_SIZE, recordOperatorAction } from './audit'
import { mp4DurationSeconds } from './mp4'

/*
 * Operators' articles and videos (contract/main/operator.ts). A save is always a draft or an edit
 * of what is there; publishing is its own step. The body goes through the same allow-list as the
 * demo articles, and what it removed is kept and shown, so nothing vanishes silently. Every change
 * writes its audit line in the same transaction.
 */

export const OPERATOR_ARTICLE_NOT_FOUND = '文章不存在'
export const OPERATOR_VIDEO_NOT_FOUND = '视频不存在'
export const ARTICLE_TYPE_NOT_FOUND = '请选择文章分类'
export const ARTICLE_BODY_TOO_LONG = '正文过长（最多约 20 万字节），请分成几篇'
export const ARTICLE_BODY_EMPTY = '正文没有可显示的内容（可能全部被安全过滤移除）'
export const FILE_NOT_FOUND = '文件不存在或已被使用，请重新上传'
export const VIDEO_NOT_MP4 = '视频只支持 MP4 格式（H.264 编码）'
export const VIDEO_TOO_LARGE = `视频不能超过 ${OPERATOR_VIDEO_MAX_BYTES / 1024 / 1024} MB，请压缩后上传`

type OperatorFile = z.infer<typeof OperatorFileSchema>

const PICTURE_WORDS: Partial<Record<PhotoProblem, string>> = {
  type: '封面只支持 JPG 或 PNG 图片',
  'too-large': '封面不能超过 10 MB',
  unreadable: '图片无法识别，请换一张',
}

/** Stores an operator's upload, not yet public: an article or a video names it, then it is. */
export async function uploadOperatorFile(
  db: DB,
  store: ObjectStore,
  operatorId: string,
  kind: 'cover' | 'poster' | 'video',
  bytes: Buffer,
  now: Date,
): Promise<OperatorFile> {
  const id = randomUUID()
  let body: Buffer
  let mime: string
  let width: number | null = null
  let height: number | null = null
  let durationSeconds: number | null = null
  if (kind === 'video') {
    if (bytes.length > OPERATOR_VIDEO_MAX_BYTES) throw new ApiError(413, VIDEO_TOO_LARGE)
    const duration = mp4DurationSeconds(bytes)
    if (duration === null) throw badRequest(VIDEO_NOT_MP4)
    body = bytes
    mime = 'video/mp4'
    durationSeconds = duration
  } else {
    const clean = await cleanPhoto(bytes, PICTURE_WORDS)
    body = clean.bytes
    mime = 'image/jpeg'
    width = clean.width
    height = clean.height
  }
  const key = `content/${kind}/${id}.${kind === 'video' ? 'mp4' : 'jpg'}`
  await store.put(key, body, { contentType: mime })
  await db
    .insertInto('content_files')
    .values({
      id,
      kind,
      storage_key: key,
      mime_type: mime,
      size_bytes: body.length,
      width,
      height,
      uploaded_by_user_id: operatorId,
      created_at: now.toISOString(),
      attached_at: null,
      duration_seconds: durationSeconds,
    })
    .execute()
  return { id, path: mediaPath(id)!, durationSeconds }
}

/** Names an uploaded file from an article or a video; a file of another kind or unknown is refused. */
async function attach(
  db: DB,
  fileId: string,
  kind: 'cover' | 'poster' | 'video',
  now: Date,
): Promise<void> {
  const done = await db
    .updateTable('content_files')
    .set((eb) => ({ attached_at: eb.fn.coalesce('attached_at', eb.val(now.toISOString())) }))
    .where('id', '=', fileId)
    .where('kind', '=', kind)
    .executeTakeFirst()
  if (Number(done.numUpdatedRows) !== 1) throw badRequest(FILE_NOT_FOUND)
}

// --- Articles -------------------------------------------------------------------------------------

function articlesWithType(db: DB) {
  return db
    .selectFrom('articles')
    .innerJoin('article_types', 'article_types.id', 'articles.type_id')
    .selectAll('articles')
    .select('article_types.name as type_name')
}

function toOperatorArticle(row: ArticlesTable & { type_name: string }) {
  let removed: string[] = []
  try {
    removed = JSON.parse(row.removed) as string[]
  } catch {
    removed = []
  }
  return {
    ...toArticleSummary(row),
    html: row.html,
    author: row.author,
    source: row.source,
    favouriteCount: Number(row.favourite_count),
    liked: false,
    favourited: false,
    state: row.state,
    stateLabel: PUBLISH_STATE_LABELS[row.state],
    updatedAt: row.updated_at,
    removed,
  }
}

export async function listOperatorArticleTypes(db: DB) {
  const rows = await db
    .selectFrom('article_types')
    .leftJoin('articles', 'articles.type_id', 'article_types.id')
    .select(['article_types.id', 'article_types.name', 'article_types.sort_order'])
    .select((eb) => eb.fn.count<number>('articles.id').as('n'))
    .groupBy(['article_types.id', 'article_types.name', 'article_types.sort_order'])
    .orderBy('article_types.sort_order')
    .orderBy('article_types.id')
    .execute()
  return rows.map((row) => ({ id: row.id, name: row.name, count: Number(row.n) }))
}

export async function listOperatorArticles(
  db: DB,
  query: PageQuery & { state?: ArticlesTable['state'] },
) {
  let base = articlesWithType(db)
  if (query.state) base = base.where('articles.state', '=', query.state)
  const found = await page(
    query,
    base.orderBy('articles.updated_at', 'desc').orderBy('articles.id', 'desc'),
    base,
    { size: OPERATOR_PAGE_SIZE },
  )
  return { ...found, items: found.items.map(toOperatorArticle) }
}

export async function getOperatorArticle(db: DB, articleId: string) {
  const row = await articlesWithType(db).where('articles.id', '=', articleId).executeTakeFirst()
  if (!row) throw notFound(OPERATOR_ARTICLE_NOT_FOUND)
  return toOperatorArticle(row)
}

export interface ArticleDraft {
  id?: string | undefined
  typeId: string
  title: string
  summary: string
  html: string
  author?: string | undefined
  source?: string | undefined
  coverImageId?: string | undefined
}

export async function saveArticle(db: DB, operatorId: string, draft: ArticleDraft, now: Date) {
  if (Buffer.byteLength(draft.html) > ARTICLE_BODY_MAX_BYTES)
    throw badRequest(ARTICLE_BODY_TOO_LONG)
  const clean = sanitiseArticleHtml(draft.html)
  if (clean.plainText.trim() === '' && !/<img\s/i.test(clean.html)) {
    throw badRequest(ARTICLE_BODY_EMPTY)
  }
  const at = now.toISOString()
  // A summary left empty is the start of the text, as a reader's list needs one.
  const summary = draft.summary || clean.plainText.replace(/\s+/g, ' ').trim().slice(0, 80)
  const id = await db.transaction().execute(async (trx) => {
    const type = await trx
      .selectFrom('article_types')
      .select('id')
      .where('id', '=', draft.typeId)
      .executeTakeFirst()
    if (!type) throw badRequest(ARTICLE_TYPE_NOT_FOUND)
    if (draft.coverImageId) await attach(trx, draft.coverImageId, 'cover', now)
    const fields = {
      type_id: draft.typeId,
      title: draft.title,
      summary,
      html: clean.html,
      plain_text: clean.plainText,
      // No cover named: an edit keeps the one it has.
      ...(draft.coverImageId ? { cover_file_id: draft.coverImageId } : {}),
      author: draft.author || null,
      source: draft.source || null,
      removed: JSON.stringify(clean.removed),
      updated_at: at,
      updated_by_user_id: operatorId,
    }
    let articleId: string
    if (draft.id) {
      articleId = draft.id
      const done = await trx
        .updateTable('articles')
        .set(fields)
        .where('id', '=', articleId)
        .executeTakeFirst()
      if (Number(done.numUpdatedRows) !== 1) throw notFound(OPERATOR_ARTICLE_NOT_FOUND)
    } else {
      articleId = randomUUID()
      await trx
        .insertInto('articles')
        .values({
          cover_file_id: null,
          ...fields,
          id: articleId,
          state: 'draft',
          demo: 0,
          published_at: null,
          created_at: at,
          read_count: 0,
          like_count: 0,
          favourite_count: 0,
        })
        .execute()
    }
    await recordOperatorAction(
      trx,
      { operatorId, action: 'article-save', targetId: articleId, detail: draft.title },
      now,
    )
    return articleId
  })
  return getOperatorArticle(db, id)
}

/**
 * Publishes or unpublishes an article or a video, with its audit line, in one transaction. The first
 * publication dates it; unpublishing and publishing again keeps that date.
 */
async function setPublishState(
  db: DB,
  table: 'articles' | 'videos',
  input: { operatorId: string; id: string; state: 'published' | 'unpublished'; now: Date },
): Promise<void> {
  const at = input.now.toISOString()
  const kind = table === 'articles' ? 'article' : 'video'
  await db.transaction().execute(async (trx) => {
    // Both tables have these columns; Kysely types the update against one of them.
    const done = await (trx as unknown as Kysely<Pick<Database, 'articles'>>)
      .updateTable(table as 'articles')
      .set((eb) => ({
        state: input.state,
        updated_at: at,
        updated_by_user_id: input.operatorId,
        published_at:
          input.state === 'published'
            ? eb.fn.coalesce('published_at', eb.val(at))
            : eb.ref('published_at'),
      }))
      .where('id', '=', input.id)
      .executeTakeFirst()
    if (Number(done.numUpdatedRows) !== 1) {
      throw notFound(table === 'articles' ? OPERATOR_ARTICLE_NOT_FOUND : OPERATOR_VIDEO_NOT_FOUND)
    }
    await recordOperatorAction(
      trx,
      {
        operatorId: input.operatorId,
        action: `${kind}-${input.state === 'published' ? 'publish' : 'unpublish'}`,
        targetId: input.id,
      },
      input.now,
    )
  })
}

export async function setArticleState(
  db: DB,
  operatorId: string,
  articleId: string,
  state: 'published' | 'unpublished',
  now: Date,
) {
  await setPublishState(db, 'articles', { operatorId, id: articleId, state, now })
  return getOperatorArticle(db, articleId)
}

// --- Videos ---------------------------------------------------------------------------------------

function videosWithFile(db: DB) {
  return db
    .selectFrom('videos')
    .innerJoin('content_files', 'content_files.id', 'videos.video_file_id')
    .selectAll('videos')
    .select('content_files.mime_type')
}

function toOperatorVideo(row: VideosTable & { mime_type: string }) {
  return {
    ...toVideoSummary(row),
    videoPath: mediaPath(row.video_file_id)!,
    fileId: row.video_file_id,
    mimeType: row.mime_type,
    resumeAt: 0,
    favourited: false,
    state: row.state,
    stateLabel: PUBLISH_STATE_LABELS[row.state],
    updatedAt: row.updated_at,
  }
}

export async function listOperatorVideos(db: DB, query: PageQuery & { category?: VideoCategory }) {
  let base = videosWithFile(db)
  if (query.category) base = base.where('videos.category', '=', query.category)
  const found = await page(
    query,
    base.orderBy('videos.updated_at', 'desc').orderBy('videos.id', 'desc'),
    base,
    { size: OPERATOR_PAGE_SIZE },
  )
  return { ...found, items: found.items.map(toOperatorVideo) }
}

async function getOperatorVideo(db: DB, videoId: string) {
  const row = await videosWithFile(db).where('videos.id', '=', videoId).executeTakeFirst()
  if (!row) throw notFound(OPERATOR_VIDEO_NOT_FOUND)
  return toOperatorVideo(row)
}

export interface VideoDraft {
  id?: string | undefined
  category: VideoCategory
  title: string
  summary: string
  fileId: string
  posterImageId?: string | undefined
}

export async function saveVideo(db: DB, operatorId: string, draft: VideoDraft, now: Date) {
  const at = now.toISOString()
  const id = await db.transaction().execute(async (trx) => {
    const file = await trx
      .selectFrom('content_files')
      .select(['id', 'duration_seconds'])
      .where('id', '=', draft.fileId)
      .where('kind', '=', 'video')
      .executeTakeFirst()
    if (!file) throw badRequest(FILE_NOT_FOUND)
    await attach(trx, draft.fileId, 'video', now)
    if (draft.posterImageId) await attach(trx, draft.posterImageId, 'poster', now)
    const fields = {
      category: draft.category,
      title: draft.title,
      summary: draft.summary,
      video_file_id: draft.fileId,
      duration_seconds: Math.round(Number(file.duration_seconds ?? 0)),
      // No poster named: an edit keeps the one it has.
      ...(draft.posterImageId ? { poster_file_id: draft.posterImageId } : {}),
      updated_at: at,
      updated_by_user_id: operatorId,
    }
    let videoId: string
    if (draft.id) {
      videoId = draft.id
      const done = await trx
        .updateTable('videos')
        .set(fields)
        .where('id', '=', videoId)
        .executeTakeFirst()
      if (Number(done.numUpdatedRows) !== 1) throw notFound(OPERATOR_VIDEO_NOT_FOUND)
    } else {
      videoId = randomUUID()
      await trx
        .insertInto('videos')
        .values({
          poster_file_id: null,
          ...fields,
          id: videoId,
          state: 'draft',
          demo: 0,
          published_at: null,
          created_at: at,
          play_count: 0,
          favourite_count: 0,
        })
        .execute()
    }
    await recordOperatorAction(
      trx,
      { operatorId, action: 'video-save', targetId: videoId, detail: draft.title },
      now,
    )
    return videoId
  })
  return getOperatorVideo(db, id)
}

export async function setVideoState(
  db: DB,
  operatorId: string,
  videoId: string,
  state: 'published' | 'unpublished',
  now: Date,
) {
  await setPublishState(db, 'videos', { operatorId, id: videoId, state, now })
  return getOperatorVideo(db, videoId)
}

/** Operators' uploads made before `uploadedBefore` that nothing named: rows and bytes go (retention purge). */
export function removeUnattachedOperatorFiles(
  db: DB,
  store: ObjectStore,
  uploadedBefore: Date,
): Promise<number> {
  return removeUnattachedFiles(db, store, ['cover', 'poster', 'video'], uploadedBefore)
}
