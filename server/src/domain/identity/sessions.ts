import { randomUUID } from 'node:crypto'
import type { Session } from '@contract/sso/auth'
import type { DB } from '../../db'
import { unauthorized } from '../../http/errors'
import { DAY, HOUR, isoAfter } from './time'
import { hashSecret, randomToken } from './secrets'
import { findUserById, loadProfile, type User } from './users'

/** Access tokens live 2 hours; the refresh token 30 days, and each refresh replaces both. */
export const ACCESS_TTL_MS = 2 * HOUR
export const REFRESH_TTL_MS = 30 * DAY

export const SESSION_EXPIRED = '登录已过期，请重新登录'

/**
 * Starts a session for the user: two fresh opaque tokens, of which only SHA-256 hashes are stored,
 * so a copy of the database cannot be used to sign in.
 */
export async function createSession(db: DB, userId: string, now: Date): Promise<Session> {
  const user = await findUserById(db, userId)
  if (!user) throw unauthorized(SESSION_EXPIRED)
  return startSession(db, user, now)
}

async function startSession(db: DB, user: User, now: Date): Promise<Session> {
  const accessToken = randomToken()
  const refreshToken = randomToken()
  await db
    .insertInto('sessions')
    .values({
      id: randomUUID(),
      user_id: user.id,
      access_hash: hashSecret(accessToken),
      refresh_hash: hashSecret(refreshToken),
      access_expires_at: isoAfter(now, ACCESS_TTL_MS),
      refresh_expires_at: isoAfter(now, REFRESH_TTL_MS),
      created_at: now.toISOString(),
      revoked_at: null,
    })
    .execute()
  return {
    access_token: accessToken,
    token_type: 'bearer',
    expires_in: ACCESS_TTL_MS / 1000,
    refresh_token: refreshToken,
    user: await loadProfile(db, user),
  }
}

export interface AuthenticatedSession {
  sessionId: string
  user: User
}

/** The live session an access token belongs to: unexpired, unrevoked, of an account not deleted. */
export async function findSessionByAccessToken(
  db: DB,
  accessToken: string,
  now: Date,
): Promise<AuthenticatedSession | undefined> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select('sessions.id as session_id')
    .where('sessions.access_hash', '=', hashSecret(accessToken))
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.access_expires_at', '>', now.toISOString())
    .where('users.deleted_at', 'is', null)
    .executeTakeFirst()
  if (!row) return undefined
  const { session_id: sessionId, ...user } = row
  return { sessionId, user }
}

/**
 * Exchanges a refresh token for a new session and revokes the old one (rotation): a refresh token
 * works once, so a stolen copy stops working as soon as either party uses it.
 */
export async function refreshSession(db: DB, refreshToken: string, now: Date): Promise<Session> {
  const at = now.toISOString()
  const session = await db
    .selectFrom('sessions')
    .select(['id', 'user_id'])
    .where('refresh_hash', '=', hashSecret(refreshToken))
    .where('revoked_at', 'is', null)
    .where('refresh_expires_at', '>', at)
    .executeTakeFirst()
  if (!session) throw unauthorized(SESSION_EXPIRED)
  // The conditional update makes two concurrent refreshes with one token yield one new session.
  const revoked = await db
    .updateTable('sessions')
    .set({ revoked_at: at })
    .where('id', '=', session.id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
  if (Number(revoked.numUpdatedRows) === 0) throw unauthorized(SESSION_EXPIRED)
  return createSession(db, session.user_id, now)
}

/** Logout: the session stops working at once, access and refresh token alike. */
export async function revokeSession(db: DB, sessionId: string, now: Date): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now.toISOString() })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute()
}

/** Signs the user out everywhere (password change or reset, account deletion), maybe but one session. */
export async function revokeUserSessions(
  db: DB,
  userId: string,
  options: { except?: string; now: Date },
): Promise<number> {
  let query = db
    .updateTable('sessions')
    .set({ revoked_at: options.now.toISOString() })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
  if (options.except) query = query.where('id', '!=', options.except)
  const result = await query.executeTakeFirst()
  return Number(result.numUpdatedRows)
}
