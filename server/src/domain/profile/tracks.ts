import { randomUUID } from 'node:crypto'
import type { DB } from '../../db'
import { badRequest, tooManyRequests } from '../../http/errors'
import { describeWait, MINUTE } from '../identity'
import { clientTag, reserve } from '../limits'

/** Generous for a person tapping through pages, low enough that a script cannot flood the table. */
export const TRACK_LIMIT = { perMinute: 60 } as const

export interface TrackInput {
  event: string
  page?: string
  /** The signed-in person, if any; tracks work without an account too. */
  userId?: string
  /** For the limit of anonymous callers; only its keyed hash (`clientTag`) is used. */
  ip: string
}

/**
 * The page as a bare route: query strings and fragments are dropped because they carry ids and
 * search terms (personal content), and anything else than a route path is refused.
 */
export function trackPage(page: string | undefined): string | null {
  if (page === undefined) return null
  const path = page.split(/[?#]/)[0]!.trim()
  if (path === '') return null
  if (!/^\/?[A-Za-z0-9_\-/.]+$/.test(path)) throw badRequest('页面路径格式不正确')
  return path.replace(/^\//, '')
}

/** Records one analytics event: its name and page path, and whose it is, nothing else. */
export async function addTrack(db: DB, input: TrackInput, now: Date): Promise<void> {
  const page = trackPage(input.page)
  // Reserve first (domain/limits.ts): checking the count and writing afterwards let a burst of
  // parallel calls all read the same old count and all get in.
  const slot = await reserve(db, {
    key: input.userId ? `track-user:${input.userId}` : `track-ip:${clientTag(input.ip)}`,
    limit: TRACK_LIMIT.perMinute,
    windowMs: MINUTE,
    now,
  })
  if (!slot.ok) throw tooManyRequests(`操作过于频繁，请 ${describeWait(slot.retryAfterMs)}后再试`)
  await db
    .insertInto('tracks')
    .values({
      id: randomUUID(),
      user_id: input.userId ?? null,
      event: input.event,
      page,
      created_at: now.toISOString(),
    })
    .execute()
}
