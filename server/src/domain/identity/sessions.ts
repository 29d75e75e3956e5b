import { randomUUID } from 'node:crypto'
import { REFRESH_RACED_ERROR, type Session } from '@contract/sso/auth'
import { REASONS } from '@contract/reasons'
import type { DB } from '../../db'
import { unauthorized } from '../../http/errors'
import { recordAudit } from '../audit'
import type { ClientInfo } from '../client-info'
import { DAY, HOUR, isoAfter, SECOND } from './time'
import { hashSecret, randomToken } from './secrets'
import { findUserById, loadProfile, type User } from './users'

/** Access tokens live 2 hours; the refresh token 30 days, and each refresh replaces both. */
export const ACCESS_TTL_MS = 2 * HOUR
export const REFRESH_TTL_MS = 30 * DAY
/**
 * However often it is refreshed, a login ends this long after it was made: a stolen refresh token
 * kept alive by its thief still dies, and the person proves who they are again now and then.
 */
export const SESSION_MAX_LIFETIME_MS = 90 * DAY

export const SESSION_EXPIRED = '登录已过期，请重新登录'

/**
 * Starts a session for the user (a login): two fresh opaque tokens, of which only SHA-256 hashes are
 * stored, so a copy of the database cannot be used to sign in. The session starts a new family.
 */
export async function createSession(db: DB, userId: string, now: Date): Promise<Session> {
  const user = await findUserById(db, userId)
  if (!user) throw unauthorized(SESSION_EXPIRED)
  return startSession(db, user, now, undefined)
}

interface Family {
  id: string
  startedAt: string
}

async function startSession(
  db: DB,
  user: User,
  now: Date,
  family: Family | undefined,
): Promise<Session> {
  const id = randomUUID()
  const accessToken = randomToken()
  const refreshToken = randomToken()
  const startedAt = family?.startedAt ?? now.toISOString()
  // Neither token outlives the family's absolute lifetime.
  const end = Date.parse(startedAt) + SESSION_MAX_LIFETIME_MS
  const accessExpires = Math.min(now.getTime() + ACCESS_TTL_MS, end)
  const refreshExpires = Math.min(now.getTime() + REFRESH_TTL_MS, end)
  await db
    .insertInto('sessions')
    .values({
      id,
      user_id: user.id,
      access_hash: hashSecret(accessToken),
      refresh_hash: hashSecret(refreshToken),
      access_expires_at: new Date(accessExpires).toISOString(),
      refresh_expires_at: new Date(refreshExpires).toISOString(),
      created_at: now.toISOString(),
      revoked_at: null,
      family_id: family?.id ?? id,
      family_started_at: startedAt,
      rotated_at: null,
    })
    .execute()
  return {
    access_token: accessToken,
    token_type: 'bearer',
    expires_in: Math.max(0, Math.floor((accessExpires - now.getTime()) / 1000)),
    refresh_token: refreshToken,
    user: await loadProfile(db, user),
  }
}

/** An account's bound ID card as stored: the number's keyed digest and the sealed holder name. */
export interface StoredIdCard {
  numberHash: string
  holderEncrypted: string
}

export interface AuthenticatedSession {
  sessionId: string
  user: Pick<User, 'id' | 'role'>
  /**
   * The account's bound card, read with the session: every records request needs it (access.ts
   * matches hospital exams by it), and reading it here saves those requests a round trip.
   */
  idCard: StoredIdCard | null
  /**
   * An operator approved an application of theirs (an `experts` row): the expert calls are theirs
   * whatever the role column says (an operator who certified keeps the operator role).
   */
  certifiedExpert: boolean
}

/**
 * The live session an access token belongs to: unexpired, unrevoked, of an account not deleted.
 * One query, the account's bound card included (see AuthenticatedSession.idCard).
 */
export async function findSessionByAccessToken(
  db: DB,
  accessToken: string,
  now: Date,
): Promise<AuthenticatedSession | undefined> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .leftJoin('id_cards', 'id_cards.user_id', 'users.id')
    .leftJoin('experts', 'experts.user_id', 'users.id')
    .select([
      'users.id',
      'users.role',
      'experts.user_id as expert_id',
      'sessions.id as session_id',
      'id_cards.number_hash',
      'id_cards.holder_encrypted',
    ])
    .where('sessions.access_hash', '=', hashSecret(accessToken))
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.access_expires_at', '>', now.toISOString())
    .where('users.deleted_at', 'is', null)
    .executeTakeFirst()
  if (!row) return undefined
  return {
    sessionId: row.session_id,
    user: { id: row.id, role: row.role },
    idCard:
      row.number_hash !== null && row.holder_encrypted !== null
        ? { numberHash: row.number_hash, holderEncrypted: row.holder_encrypted }
        : null,
    certifiedExpert: row.expert_id !== null,
  }
}

export const REFRESH_REUSED = '登录凭证已在其他设备使用，为保护账号安全请重新登录'
/** The answer to a refresh that lost a race with its own twin (see REFRESH_GRACE_MS). */
export const REFRESH_RACED = REFRESH_RACED_ERROR
/**
 * A rotated refresh token presented again this soon after its rotation is taken for the owner's own
 * second request (two tabs refreshing at once, a retry after a lost response), not for theft: it is
 * refused without revoking the family. It gets nothing either way: the successor's tokens exist only
 * as hashes, and handing the holder of an old token a further session would let a thief who copied
 * it fork the family unseen. The cost is that a thief who wins the race by less than this goes
 * undetected until the owner's next refresh; later reuse still revokes everything.
 */
export const REFRESH_GRACE_MS = 30 * SECOND

/**
 * Exchanges a refresh token for a new session of the same family and retires the old one (rotation):
 * a refresh token works once. Presenting one that was already rotated means two parties hold it (the
 * owner and a thief, and the server cannot tell which is which), so the whole family is revoked and
 * both sign in again; the event is written to the account's audit log. Within REFRESH_GRACE_MS of the
 * rotation the reuse is refused with REFRESH_RACED instead, and nothing is revoked. A family ends
 * SESSION_MAX_LIFETIME_MS after its login however often it was refreshed.
 */
export async function refreshSession(
  db: DB,
  refreshToken: string,
  now: Date,
  client?: ClientInfo,
): Promise<Session> {
  const at = now.toISOString()
  const session = await db
    .selectFrom('sessions')
    .select([
      'id',
      'user_id',
      'family_id',
      'family_started_at',
      'revoked_at',
      'rotated_at',
      'refresh_expires_at',
    ])
    .where('refresh_hash', '=', hashSecret(refreshToken))
    .executeTakeFirst()
  if (!session) throw unauthorized(SESSION_EXPIRED)
  if (session.rotated_at !== null) {
    if (Date.parse(session.rotated_at) + REFRESH_GRACE_MS > now.getTime()) {
      throw unauthorized(REFRESH_RACED, REASONS.refreshRaced)
    }
    const revoked = await revokeFamily(db, session.family_id, now)
    // Recorded once per theft: a second replay finds the family already dead.
    if (revoked > 0 && client) {
      await recordAudit(db, { userId: session.user_id, kind: 'refresh-reuse', client, now })
    }
    throw unauthorized(REFRESH_REUSED)
  }
  if (session.revoked_at !== null || session.refresh_expires_at <= at) {
    throw unauthorized(SESSION_EXPIRED)
  }
  if (isoAfter(new Date(session.family_started_at), SESSION_MAX_LIFETIME_MS) <= at) {
    throw unauthorized(SESSION_EXPIRED)
  }
  const user = await findUserById(db, session.user_id)
  if (!user) throw unauthorized(SESSION_EXPIRED)
  // The conditional update makes two concurrent refreshes with one token yield one new session; the
  // loser (it read the row before the winner rotated it) is told to retry, like a loser that read it
  // after, and its owner is not treated as a thief.
  const rotated = await db
    .updateTable('sessions')
    .set({ revoked_at: at, rotated_at: at })
    .where('id', '=', session.id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
  if (Number(rotated.numUpdatedRows) === 0) throw unauthorized(REFRESH_RACED, REASONS.refreshRaced)
  return startSession(db, user, now, {
    id: session.family_id,
    startedAt: session.family_started_at,
  })
}

/** Revokes every live session of a family; answers how many were live. */
export async function revokeFamily(db: DB, familyId: string, now: Date): Promise<number> {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: now.toISOString() })
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
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
