import { type Expression, PostgresAdapter, type SqlBool, sql } from 'kysely'
import { SEARCH_KINDS, type SearchHit, type SearchKind } from '@contract/main/content'
import type { DB } from '../../db'
import { ARTICLE_SEARCH_TEXT } from '../../db/migrations/0016-search'
import { highlightRuns, snippetAround } from './highlight'

/*
 * One search over articles, videos, hospitals and experts (contract `search`). How Chinese
 * substrings are found is migration 0016-search's comment: trigram indexes on both databases for
 * three characters or more, LIKE below that. Only published content and public directory entries
 * are searched; nothing personal (no records, no patients, nothing of an expert but the public
 * name).
 */

/** Without a kind the answer holds this many hits of each kind (the 全部 tab). */
export const HITS_PER_KIND_PREVIEW = 3
const TRIGRAM = 3

const isPostgres = (db: DB) => db.getExecutor().adapter instanceof PostgresAdapter

/** A LIKE pattern that finds `q` anywhere, with %, _ and \ taken literally. */
export function containsPattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/** `column` contains q: ILIKE on PostgreSQL (Latin case-insensitive, as SQLite's LIKE is). */
function contains(db: DB, column: string, q: string): Expression<SqlBool> {
  const pattern = containsPattern(q)
  return isPostgres(db)
    ? sql<SqlBool>`${sql.raw(column)} ilike ${pattern} escape '\\'`
    : sql<SqlBool>`${sql.raw(column)} like ${pattern} escape '\\'`
}

function articleMatch(db: DB, q: string): Expression<SqlBool> {
  if (!isPostgres(db) && [...q].length >= TRIGRAM) {
    // A quoted FTS5 phrase is a substring match under the trigram tokenizer.
    const phrase = `"${q.replace(/"/g, '""')}"`
    return sql<SqlBool>`articles.rowid in (select rowid from articles_fts where articles_fts match ${phrase})`
  }
  return contains(
    db,
    `(articles.title || ' ' || articles.summary || ' ' || articles.plain_text)`,
    q,
  )
}
void ARTICLE_SEARCH_TEXT

interface KindSearch {
  count(): Promise<number>
  hits(limit: number, offset: number): Promise<SearchHit[]>
}

function articles(db: DB, q: string): KindSearch {
  const base = () =>
    db.selectFrom('articles').where('articles.state', '=', 'published').where(articleMatch(db, q))
  return {
    async count() {
      const row = await base()
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
      return Number(row.n)
    },
    async hits(limit, offset) {
      const titleFirst = sql<number>`case when ${contains(db, 'articles.title', q)} then 0 else 1 end`
      const rows = await base()
        .select(['articles.id', 'articles.title', 'articles.summary', 'articles.plain_text'])
        .orderBy(titleFirst)
        .orderBy('articles.published_at', 'desc')
        .orderBy('articles.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute()
      return rows.map((row) => ({
        kind: 'article' as const,
        id: row.id,
        title: highlightRuns(row.title, q),
        snippet: highlightRuns(
          row.summary.toLowerCase().includes(q.toLowerCase()) || !row.plain_text
            ? snippetAround(row.summary, q, 60)
            : snippetAround(row.plain_text, q),
          q,
        ),
        link: { route: 'infoDetail', params: { id: row.id } },
      }))
    },
  }
}

function videos(db: DB, q: string): KindSearch {
  const base = () =>
    db
      .selectFrom('videos')
      .where('state', '=', 'published')
      .where((eb) => eb.or([contains(db, 'title', q), contains(db, 'summary', q)]))
  return {
    async count() {
      const row = await base()
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
      return Number(row.n)
    },
    async hits(limit, offset) {
      const rows = await base()
        .select(['id', 'title', 'summary', 'category'])
        .orderBy('published_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute()
      return rows.map((row) => ({
        kind: 'video' as const,
        id: row.id,
        title: highlightRuns(row.title, q),
        snippet: highlightRuns(snippetAround(row.summary, q, 60), q),
        link: {
          route: row.category === 'diet' ? 'videoShowYsDetail' : 'videoShowDetail',
          params: { id: row.id },
        },
      }))
    },
  }
}

function hospitals(db: DB, q: string): KindSearch {
  const base = () =>
    db
      .selectFrom('hospitals')
      .where((eb) =>
        eb.or([contains(db, 'name', q), contains(db, 'address', q), contains(db, 'city', q)]),
      )
  return {
    async count() {
      const row = await base()
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
      return Number(row.n)
    },
    async hits(limit, offset) {
      const rows = await base()
        .select(['id', 'name', 'level', 'province', 'city', 'address'])
        .orderBy('sort_order')
        .orderBy('id')
        .limit(limit)
        .offset(offset)
        .execute()
      return rows.map((row) => ({
        kind: 'hospital' as const,
        id: row.id,
        title: highlightRuns(row.name, q),
        snippet: highlightRuns(
          [row.level, `${row.province}${row.city === row.province ? '' : row.city}`, row.address]
            .filter(Boolean)
            .join(' · '),
          q,
        ),
        link: { route: 'hospitalList', params: { hospitalId: row.id } },
      }))
    },
  }
}

function experts(db: DB, q: string): KindSearch {
  const base = () =>
    db
      .selectFrom('users')
      .where('role', '=', 'expert')
      .where('deleted_at', 'is', null)
      .where(contains(db, 'nickname', q))
  return {
    async count() {
      const row = await base()
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
      return Number(row.n)
    },
    async hits(limit, offset) {
      const rows = await base()
        .select(['id', 'nickname'])
        .orderBy('nickname')
        .orderBy('id')
        .limit(limit)
        .offset(offset)
        .execute()
      return rows.map((row) => ({
        kind: 'expert' as const,
        id: row.id,
        title: highlightRuns(row.nickname, q),
        snippet: [['认证专家', false]],
        link: { route: 'personalDetail', params: { id: row.id } },
      }))
    },
  }
}

const SEARCHES: Record<SearchKind, (db: DB, q: string) => KindSearch> = {
  article: articles,
  video: videos,
  hospital: hospitals,
  expert: experts,
}

export async function search(
  db: DB,
  input: { q: string; kind?: SearchKind; page: number; pageSize: number },
): Promise<{ hits: SearchHit[]; totals: Record<SearchKind, number> }> {
  const searches = SEARCH_KINDS.map((kind) => [kind, SEARCHES[kind](db, input.q)] as const)
  const totals = Object.fromEntries(
    await Promise.all(searches.map(async ([kind, s]) => [kind, await s.count()] as const)),
  ) as Record<SearchKind, number>
  if (input.kind) {
    const one = SEARCHES[input.kind](db, input.q)
    return { hits: await one.hits(input.pageSize, (input.page - 1) * input.pageSize), totals }
  }
  const hits = await Promise.all(
    searches.map(([kind, s]) => (totals[kind] > 0 ? s.hits(HITS_PER_KIND_PREVIEW, 0) : [])),
  )
  return { hits: hits.flat(), totals }
}
