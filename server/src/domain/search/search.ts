import { type Expression, type SelectQueryBuilder, type SqlBool, sql } from 'kysely'
import {
  CONTENT_PAGE_SIZE,
  SEARCH_KINDS,
  type SearchHit,
  type SearchKind,
} from '@contract/main/content'
import type { Database, DB } from '../../db'
import { contains, isPostgres } from '../../db/contains'
import { countRows, type Page, page, type PageQuery } from '../../db/paging'
import { ARTICLE_SEARCH_TEXT } from '../../db/migrations/0016-search'
import {
  CARD_COLUMNS,
  expertLine,
  expertMatches,
  parseSpecialities,
  publicExperts,
  TITLE_RANK,
} from '../experts'
import { highlightRuns, snippetAround } from './highlight'

/*
 * One search over articles, videos, hospitals and experts (contract `search`). How Chinese
 * substrings are found is migration 0016-search's comment: trigram indexes on both databases for
 * three characters or more, LIKE below that. Only published content and public directory entries
 * are searched; nothing personal (no records, no patients, nothing of an expert but what the
 * public profile shows: name, title, hospital, department, specialities).
 */

/** Without a kind the answer holds this many hits of each kind (the 全部 tab). */
export const HITS_PER_KIND_PREVIEW = 3
const TRIGRAM = 3

function articleMatch(db: DB, q: string): Expression<SqlBool> {
  if (!isPostgres(db)) {
    if ([...q].length >= TRIGRAM) {
      // A quoted FTS5 phrase is a substring match under the trigram tokenizer.
      const phrase = `"${q.replace(/"/g, '""')}"`
      return sql<SqlBool>`articles.rowid in (select rowid from articles_fts where articles_fts match ${phrase})`
    }
    // One or two characters have no trigram: a scan. Without Latin letters there is no case to
    // fold, and instr is several times faster than LIKE over 10,000 bodies (bench/search.ts).
    if (!/[A-Za-z]/.test(q)) {
      return sql<SqlBool>`instr(${sql.raw(ARTICLE_SEARCH_TEXT)}, ${q}) > 0`
    }
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
  /** A page of hits and the total, in one scan (a window count): a long body is read once. */
  hits(query: PageQuery): Promise<Page<SearchHit>>
}

const TOTAL = sql<number | string>`count(*) over ()`.as('total')

/**
 * A kind's search from its matching rows (`base`), what a hit needs of them, in order (`rows`, with
 * TOTAL so the page carries its total), and how a row reads as a hit.
 */
function kindSearch<TB extends keyof Database, B, O extends { total: number | string }>(
  base: () => SelectQueryBuilder<Database, TB, B>,
  rows: (matching: SelectQueryBuilder<Database, TB, B>) => SelectQueryBuilder<Database, TB, O>,
  hit: (row: O) => SearchHit,
): KindSearch {
  return {
    count: () => countRows(base()),
    async hits(query) {
      const found = await page(query, rows(base()), base(), {
        size: CONTENT_PAGE_SIZE,
        totalOf: (row) => row.total,
      })
      return { ...found, items: found.items.map(hit) }
    },
  }
}

function articles(db: DB, q: string): KindSearch {
  const base = () =>
    db.selectFrom('articles').where('articles.state', '=', 'published').where(articleMatch(db, q))
  const titleFirst = sql<number>`case when ${contains(db, 'articles.title', q)} then 0 else 1 end`
  return kindSearch(
    base,
    (matching) =>
      matching
        .select(['articles.id', 'articles.title', 'articles.summary', 'articles.plain_text'])
        .select(TOTAL)
        .orderBy(titleFirst)
        .orderBy('articles.published_at', 'desc')
        .orderBy('articles.id', 'desc'),
    (row) => ({
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
    }),
  )
}

function videos(db: DB, q: string): KindSearch {
  const base = () =>
    db
      .selectFrom('videos')
      .where('state', '=', 'published')
      .where((eb) => eb.or([contains(db, 'title', q), contains(db, 'summary', q)]))
  return kindSearch(
    base,
    (matching) =>
      matching
        .select(['id', 'title', 'summary', 'category'])
        .select(TOTAL)
        .orderBy('published_at', 'desc')
        .orderBy('id', 'desc'),
    (row) => ({
      kind: 'video' as const,
      id: row.id,
      title: highlightRuns(row.title, q),
      snippet: highlightRuns(snippetAround(row.summary, q, 60), q),
      link: {
        route: row.category === 'diet' ? 'videoShowYsDetail' : 'videoShowDetail',
        params: { id: row.id },
      },
    }),
  )
}

function hospitals(db: DB, q: string): KindSearch {
  const base = () =>
    db
      .selectFrom('hospitals')
      .where((eb) =>
        eb.or([contains(db, 'name', q), contains(db, 'address', q), contains(db, 'city', q)]),
      )
  return kindSearch(
    base,
    (matching) =>
      matching
        .select(['id', 'name', 'level', 'province', 'city', 'address'])
        .select(TOTAL)
        .orderBy('sort_order')
        .orderBy('id'),
    (row) => ({
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
    }),
  )
}

function experts(db: DB, q: string): KindSearch {
  // The public experts only (experts/profiles.ts): a suspended expert is gone from 搜索 at once.
  const base = () => publicExperts(db).where(expertMatches(db, q))
  return kindSearch(
    base,
    (matching) =>
      matching
        .select(CARD_COLUMNS)
        .select(TOTAL)
        .orderBy('experts.accepting', 'desc')
        .orderBy(TITLE_RANK)
        .orderBy('experts.certified_at', 'desc')
        .orderBy('experts.user_id'),
    (row) => ({
      kind: 'expert' as const,
      id: row.user_id,
      title: highlightRuns(row.name ?? '', q),
      snippet: highlightRuns(
        [expertLine(row), ...parseSpecialities(row.specialities)].join(' · '),
        q,
      ),
      link: { route: 'personalDetail', params: { id: row.user_id } },
    }),
  )
}

const SEARCHES: Record<SearchKind, (db: DB, q: string) => KindSearch> = {
  article: articles,
  video: videos,
  hospital: hospitals,
  expert: experts,
}

export async function search(
  db: DB,
  input: PageQuery & { q: string; kind?: SearchKind | undefined },
): Promise<{ hits: SearchHit[]; totals: Record<SearchKind, number> }> {
  const pages = await Promise.all(
    SEARCH_KINDS.map(async (kind) => {
      const one = SEARCHES[kind](db, input.q)
      // The kind asked for: its page. The others: a count (for the tabs). No kind: a few of each.
      if (input.kind && input.kind !== kind) return { kind, hits: [], total: await one.count() }
      const found = await one.hits(
        input.kind ? input : { page: 1, pageSize: HITS_PER_KIND_PREVIEW },
      )
      return { kind, hits: found.items, total: found.total }
    }),
  )
  return {
    hits: pages.flatMap((p) => p.hits),
    totals: Object.fromEntries(pages.map((p) => [p.kind, p.total])) as Record<SearchKind, number>,
  }
}
