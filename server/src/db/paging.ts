import { type SelectQueryBuilder, sql } from 'kysely'
import type { z } from 'zod/mini'
import type { PageQuerySchema } from '@contract/common'

/*
 * Paging of the contract's kind (`PageQuerySchema` in, `pageOf()` out), in one place. The contract's
 * schema has already refused a page below 1 and a page size above 50 with its own messages before a
 * query gets here, so nothing is checked again.
 */

/** `page` and `pageSize` as the contract's page query has them: both optional. */
export type PageQuery = z.infer<typeof PageQuerySchema>

/** The contract's page answer (`pageOf()`). */
export interface Page<T> {
  items: T[]
  total: number
  page: number
  pageSize: number
}

/** SPEC section 9: lists default to 10 a page; a list that says otherwise passes its own size. */
export const PAGE_SIZE = 10

/** Counts as the databases answer them: PostgreSQL's bigint count arrives as a string. */
type Total = number | string | bigint

/** The page asked for, with the defaults filled in, and where it starts. */
export function pageWindow(
  query: PageQuery,
  size: number = PAGE_SIZE,
): { page: number; pageSize: number; offset: number } {
  const page = query.page ?? 1
  const pageSize = query.pageSize ?? size
  return { page, pageSize, offset: (page - 1) * pageSize }
}

/** How many rows `query` finds: its filter counts, what it selects and its order do not. */
export async function countRows<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
): Promise<number> {
  const row = await query
    .clearSelect()
    .clearOrderBy()
    .select(sql<Total>`count(*)`.as('n'))
    // A generic query's selection does not resolve; this one is known.
    .$castTo<{ n: Total }>()
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/**
 * One page of `rows` (filtered, selected and ordered; the page's limit and offset are added here)
 * and the number of rows `counted` finds. Without `totalOf` both run together. With it, the rows
 * carry the total themselves (a `count(*) over ()` window or a subquery, so a long list is read
 * once), and `counted` runs only for an empty page past the first, which has no row to carry it.
 */
export async function page<O, CDB, CTB extends keyof CDB, CO, RDB, RTB extends keyof RDB>(
  query: PageQuery,
  rows: SelectQueryBuilder<RDB, RTB, O>,
  counted: SelectQueryBuilder<CDB, CTB, CO>,
  options: { size?: number; totalOf?: (row: O) => Total } = {},
): Promise<Page<O>> {
  const { page, pageSize, offset } = pageWindow(query, options.size)
  const paged = rows.limit(pageSize).offset(offset)
  const { totalOf } = options
  if (!totalOf) {
    const [items, total] = await Promise.all([paged.execute(), countRows(counted)])
    return { items, total, page, pageSize }
  }
  const items = await paged.execute()
  const total = items[0] ? Number(totalOf(items[0])) : offset > 0 ? await countRows(counted) : 0
  return { items, total, page, pageSize }
}
