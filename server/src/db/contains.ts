import { type Expression, PostgresAdapter, type SqlBool, sql } from 'kysely'
import type { DB } from './index'

/** The database behind a handle is PostgreSQL (else SQLite). */
export const isPostgres = (db: DB): boolean => db.getExecutor().adapter instanceof PostgresAdapter

/** A LIKE pattern that finds `q` anywhere, with %, _ and \ taken literally. */
export function containsPattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/**
 * `column` contains q, the one "contains the words typed" of every search box (搜索, the hospital
 * pickers). Latin letters match in either case on both databases (SQLite's LIKE folds ASCII;
 * PostgreSQL needs ILIKE). Chinese has no case, and PostgreSQL's LIKE rechecks a long body several
 * times faster than ILIKE, so a query without Latin letters uses LIKE there. `column` is SQL written
 * by us (a column name or an expression such as `coalesce(region_name, '')`), never user input.
 */
export function contains(db: DB, column: string, q: string): Expression<SqlBool> {
  const pattern = containsPattern(q)
  return isPostgres(db) && /[A-Za-z]/.test(q)
    ? sql<SqlBool>`${sql.raw(column)} ilike ${pattern} escape '\\'`
    : sql<SqlBool>`${sql.raw(column)} like ${pattern} escape '\\'`
}
