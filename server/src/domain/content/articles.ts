import {
  type ArticleDetail,
  type ArticleSummary,
  type ArticleType,
  CONTENT_PAGE_SIZE,
} from '@contract/main/content'
import type { DB } from '../../db'
import { type Page, page, type PageQuery } from '../../db/paging'
import type { ArticlesTable } from '../../db/schema'
import { notFound } from '../../http/errors'
import { award, POINT_AWARDS } from '../points'

/*
 * Health articles (contract/main/content.ts). Readers see published articles only; a draft or an
 * unpublished one answers 404 like a missing one. Counters move in the same transaction as the row
 * that justifies them and only when that row was inserted or deleted, so concurrent taps never
 * count twice and a count always equals its rows.
 */

export const ARTICLE_NOT_FOUND = '文章不存在或已下架'

/** China's calendar day (UTC+8, no daylight saving): a read counts once per reader per day. */
export function chinaDay(now: Date): string {
  return new Date(now.getTime() + 8 * 3600_000).toISOString().slice(0, 10)
}

export function mediaPath(fileId: string | null): string | null {
  return fileId === null ? null : `/media/${fileId}`
}

/** The columns an article's summary shows: a list reads these, never the body. */
const SUMMARY_COLUMNS = [
  'articles.id',
  'articles.type_id',
  'articles.title',
  'articles.summary',
  'articles.cover_file_id',
  'articles.published_at',
  'articles.updated_at',
  'articles.read_count',
  'articles.like_count',
  'articles.demo',
] as const

type SummaryRow = Pick<
  ArticlesTable,
  | 'id'
  | 'type_id'
  | 'title'
  | 'summary'
  | 'cover_file_id'
  | 'published_at'
  | 'updated_at'
  | 'read_count'
  | 'like_count'
  | 'demo'
> & { type_name: string }

export function toArticleSummary(row: SummaryRow): ArticleSummary {
  return {
    id: row.id,
    typeId: row.type_id,
    typeName: row.type_name,
    title: row.title,
    summary: row.summary,
    coverPath: mediaPath(row.cover_file_id),
    publishedAt: row.published_at ?? row.updated_at,
    readCount: Number(row.read_count),
    likeCount: Number(row.like_count),
    demo: Number(row.demo) === 1,
  }
}

function published(db: DB) {
  return db
    .selectFrom('articles')
    .innerJoin('article_types', 'article_types.id', 'articles.type_id')
    .selectAll('articles')
    .select('article_types.name as type_name')
    .where('articles.state', '=', 'published')
}

export async function listArticleTypes(db: DB): Promise<ArticleType[]> {
  const rows = await db
    .selectFrom('article_types')
    .innerJoin('articles', 'articles.type_id', 'article_types.id')
    .where('articles.state', '=', 'published')
    .select(['article_types.id', 'article_types.name', 'article_types.sort_order'])
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .groupBy(['article_types.id', 'article_types.name', 'article_types.sort_order'])
    .orderBy('article_types.sort_order')
    .orderBy('article_types.id')
    .execute()
  return rows.map((row) => ({ id: row.id, name: row.name, count: Number(row.n) }))
}

/**
 * One page of published articles, newest first, and how many there are, in one round trip: the
 * count is an uncorrelated subquery (run once, on its own index), so the page itself still stops
 * after its rows instead of sorting every article as `count(*) over ()` would.
 */
export async function listArticles(
  db: DB,
  query: PageQuery & { typeId?: string | undefined },
): Promise<Page<ArticleSummary>> {
  const { typeId } = query
  const found = await page(
    query,
    db
      .selectFrom('articles')
      .innerJoin('article_types', 'article_types.id', 'articles.type_id')
      .select(SUMMARY_COLUMNS)
      .select(['article_types.name as type_name', countPublished(db, typeId).as('total')])
      .where('articles.state', '=', 'published')
      .$if(typeId !== undefined, (qb) => qb.where('articles.type_id', '=', typeId!))
      .orderBy('articles.published_at', 'desc')
      .orderBy('articles.id', 'desc'),
    countPublished(db, typeId),
    { size: CONTENT_PAGE_SIZE, totalOf: (row) => row.total ?? 0 },
  )
  return { ...found, items: found.items.map(toArticleSummary) }
}

/** How many articles are published (of one type). */
function countPublished(db: DB, typeId: string | undefined) {
  return db
    .selectFrom('articles')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('articles.state', '=', 'published')
    .$if(typeId !== undefined, (qb) => qb.where('articles.type_id', '=', typeId!))
}

async function findPublished(db: DB, articleId: string) {
  const row = await published(db).where('articles.id', '=', articleId).executeTakeFirst()
  if (!row) throw notFound(ARTICLE_NOT_FOUND)
  return row
}

export async function getArticle(
  db: DB,
  articleId: string,
  userId: string | undefined,
): Promise<ArticleDetail> {
  const row = await findPublished(db, articleId)
  const [liked, favourited] = userId
    ? await Promise.all([
        db
          .selectFrom('article_likes')
          .select('user_id')
          .where('article_id', '=', articleId)
          .where('user_id', '=', userId)
          .executeTakeFirst(),
        db
          .selectFrom('favourites')
          .select('user_id')
          .where('user_id', '=', userId)
          .where('kind', '=', 'article')
          .where('target_id', '=', articleId)
          .executeTakeFirst(),
      ])
    : [undefined, undefined]
  return {
    ...toArticleSummary(row),
    html: row.html,
    author: row.author,
    source: row.source,
    favouriteCount: Number(row.favourite_count),
    liked: liked !== undefined,
    favourited: favourited !== undefined,
  }
}

/** A signed-out reader's id (X-Reader-Id): 32 URL-safe characters the app made at random. */
export const READER_ID = /^[A-Za-z0-9_-]{32}$/

/**
 * Counts a read once per reader per China day. Without an account and without a valid reader id
 * there is nobody to count once, so nothing is counted (`counted: false`), never an error.
 * A signed-in reader's first read of an article earns points once.
 */
export async function addArticleRead(
  db: DB,
  input: { articleId: string; userId?: string; readerId?: string },
  now: Date,
): Promise<{ readCount: number; counted: boolean }> {
  const reader = input.userId
    ? `u:${input.userId}`
    : input.readerId && READER_ID.test(input.readerId)
      ? `r:${input.readerId}`
      : null
  return db.transaction().execute(async (trx) => {
    const row = await findPublished(trx, input.articleId)
    if (reader === null) return { readCount: Number(row.read_count), counted: false }
    const inserted = await trx
      .insertInto('article_reads')
      .values({
        article_id: input.articleId,
        reader,
        day: chinaDay(now),
        user_id: input.userId ?? null,
        created_at: now.toISOString(),
      })
      .onConflict((oc) => oc.columns(['article_id', 'reader', 'day']).doNothing())
      .executeTakeFirst()
    const counted = Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1
    if (!counted) return { readCount: Number(row.read_count), counted }
    const updated = await trx
      .updateTable('articles')
      .set((eb) => ({ read_count: eb('read_count', '+', 1) }))
      .where('id', '=', input.articleId)
      .returning('read_count')
      .executeTakeFirstOrThrow()
    if (input.userId) {
      await award(
        trx,
        { userId: input.userId, reason: 'read', ref: input.articleId, delta: POINT_AWARDS.read },
        now,
      )
    }
    return { readCount: Number(updated.read_count), counted }
  })
}

export async function likeArticle(
  db: DB,
  input: { articleId: string; userId: string; liked: boolean },
  now: Date,
): Promise<{ liked: boolean; likeCount: number }> {
  return db.transaction().execute(async (trx) => {
    await findPublished(trx, input.articleId)
    const changed = input.liked
      ? await trx
          .insertInto('article_likes')
          .values({
            article_id: input.articleId,
            user_id: input.userId,
            created_at: now.toISOString(),
          })
          .onConflict((oc) => oc.columns(['article_id', 'user_id']).doNothing())
          .executeTakeFirst()
          .then((result) => Number(result.numInsertedOrUpdatedRows ?? 0n))
      : await trx
          .deleteFrom('article_likes')
          .where('article_id', '=', input.articleId)
          .where('user_id', '=', input.userId)
          .executeTakeFirst()
          .then((result) => Number(result.numDeletedRows))
    const row =
      changed > 0
        ? await trx
            .updateTable('articles')
            .set((eb) => ({ like_count: eb('like_count', '+', input.liked ? 1 : -1) }))
            .where('id', '=', input.articleId)
            .returning('like_count')
            .executeTakeFirstOrThrow()
        : await trx
            .selectFrom('articles')
            .select('like_count')
            .where('id', '=', input.articleId)
            .executeTakeFirstOrThrow()
    return { liked: input.liked, likeCount: Number(row.like_count) }
  })
}

export async function myArticleCounts(
  db: DB,
  userId: string,
): Promise<{ read: number; liked: number; favourited: number }> {
  const [read, liked, favourited] = await Promise.all([
    db
      .selectFrom('article_reads')
      .select((eb) => eb.fn.count<number>('article_id').distinct().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('article_likes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('favourites')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('kind', '=', 'article')
      .executeTakeFirstOrThrow(),
  ])
  return { read: Number(read.n), liked: Number(liked.n), favourited: Number(favourited.n) }
}
