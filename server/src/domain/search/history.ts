import { randomUUID } from 'node:crypto'
import { SEARCH_HISTORY_MAX } from '@contract/main/content'
import type { DB } from '../../db'
import { chinaDay } from '../content'

/*
 * A person's own search history (newest first, one row per distinct query, SEARCH_HISTORY_MAX at
 * most) and 热门搜索. A query becomes a hot word only when at least HOT_MIN_PEOPLE different people
 * searched it in the last week: what one person types (a name, an illness) is never shown to
 * everyone else. Operators' picks (hot_words) come first.
 */

export const HOT_MIN_PEOPLE = 3
export const HOT_MAX = 10
const WEEK_MS = 7 * 24 * 3600_000

export async function recordSearch(
  db: DB,
  input: { userId?: string; q: string },
  now: Date,
): Promise<void> {
  const at = now.toISOString()
  await db
    .insertInto('search_counts')
    .values({ q: input.q, day: chinaDay(now), count: 1 })
    .onConflict((oc) =>
      oc.columns(['q', 'day']).doUpdateSet((eb) => ({ count: eb('search_counts.count', '+', 1) })),
    )
    .execute()
  if (!input.userId) return
  await db
    .insertInto('search_history')
    .values({ id: randomUUID(), user_id: input.userId, q: input.q, searched_at: at })
    .onConflict((oc) => oc.columns(['user_id', 'q']).doUpdateSet({ searched_at: at }))
    .execute()
  const keep = db
    .selectFrom('search_history')
    .select('id')
    .where('user_id', '=', input.userId)
    .orderBy('searched_at', 'desc')
    .orderBy('id', 'desc')
    .limit(SEARCH_HISTORY_MAX)
  await db
    .deleteFrom('search_history')
    .where('user_id', '=', input.userId)
    .where('id', 'not in', keep)
    .execute()
}

export async function listHistory(db: DB, userId: string) {
  const rows = await db
    .selectFrom('search_history')
    .select(['id', 'q', 'searched_at'])
    .where('user_id', '=', userId)
    .orderBy('searched_at', 'desc')
    .orderBy('id', 'desc')
    .limit(SEARCH_HISTORY_MAX)
    .execute()
  return rows.map((row) => ({ id: row.id, q: row.q, at: row.searched_at }))
}

/** One entry, or all of them; only the caller's own (another person's id removes nothing). */
export async function clearHistory(db: DB, userId: string, id?: string): Promise<void> {
  let query = db.deleteFrom('search_history').where('user_id', '=', userId)
  if (id) query = query.where('id', '=', id)
  await query.execute()
}

export async function hotSearches(db: DB, now: Date): Promise<string[]> {
  const picks = await db
    .selectFrom('hot_words')
    .select('q')
    .orderBy('sort_order')
    .orderBy('q')
    .limit(HOT_MAX)
    .execute()
  const since = new Date(now.getTime() - WEEK_MS)
  const popular = await db
    .selectFrom('search_counts')
    .select('q')
    .select((eb) => eb.fn.sum<number>('count').as('n'))
    .where('day', '>=', chinaDay(since))
    .where(
      'q',
      'in',
      db
        .selectFrom('search_history')
        .select('q')
        .where('searched_at', '>=', since.toISOString())
        .groupBy('q')
        .having((eb) => eb.fn.count('user_id').distinct(), '>=', HOT_MIN_PEOPLE),
    )
    .groupBy('q')
    .orderBy('n', 'desc')
    .orderBy('q')
    .limit(HOT_MAX)
    .execute()
  const words = [...picks.map((p) => p.q)]
  for (const row of popular) if (!words.includes(row.q)) words.push(row.q)
  return words.slice(0, HOT_MAX)
}
