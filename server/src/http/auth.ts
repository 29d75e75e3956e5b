import type { FastifyRequest } from 'fastify'
import { OPERATOR_MESSAGES } from '@contract/main/operator'
import { type GrantedRole, ROLE_REQUIRED_MESSAGES, type Role } from '@contract/sso/auth'
import { forbidden, unauthorized } from './errors'

/** Who is calling, set by authenticate on `auth: true` endpoints. */
export interface AuthenticatedUser {
  id: string
  role: Role
  /** The session the access token belongs to (logout revokes it). */
  sessionId: string
  /**
   * The account's bound ID card as stored (hashed number, encrypted holder), read with the session
   * (lists.patientScope uses it).
   */
  idCard: { numberHash: string; holderEncrypted: string } | null
  /** Certified by an operator (an `experts` row): may call the expert operations whatever the role. */
  certifiedExpert?: boolean
}

/**
 * Who holds an access token: the unexpired, unrevoked session of an account that is not deleted,
 * or undefined. Identity answers it (app.ts decorates the app with it), so http/ imports no domain.
 */
export type SessionLookup = (token: string) => Promise<AuthenticatedUser | undefined>

declare module 'fastify' {
  interface FastifyInstance {
    findSessionUser: SessionLookup
  }
  interface FastifyRequest {
    /** Set on endpoints whose descriptor says `auth: true`; undefined elsewhere. */
    user?: AuthenticatedUser
  }
}

/** The bearer token of a request, or undefined. The header name is fixed on the server side. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization
  if (!header) return undefined
  const match = /^Bearer\s+(\S+)$/i.exec(header)
  return match?.[1]
}

/**
 * Guards endpoints whose descriptor says `auth: true`: the token's SHA-256 must match a session that
 * is unexpired and unrevoked, of an account that is not deleted. Any failure is a 401, which the app
 * answers with 请重新登录！ and the login page (SPEC section 8).
 */
export async function authenticate(request: FastifyRequest): Promise<void> {
  const token = bearerToken(request)
  if (!token) throw unauthorized('请先登录')
  const found = await request.server.findSessionUser(token)
  if (!found) throw unauthorized()
  request.user = found
}

export const NOT_OPERATOR = OPERATOR_MESSAGES.notOperator

/** Whether the account has a role: every account is a patient; expert and operator are granted. */
export function hasRole(
  user: Pick<AuthenticatedUser, 'role' | 'certifiedExpert'>,
  role: Role,
): boolean {
  if (role === 'expert' && user.certifiedExpert) return true
  return role === 'patient' || user.role === role
}

/** The caller, who must have `role`: anyone else gets 403 with that role's message. */
export function requireRole(request: FastifyRequest, role: GrantedRole): AuthenticatedUser {
  const user = currentUser(request)
  if (!hasRole(user, role)) throw forbidden(ROLE_REQUIRED_MESSAGES[role])
  return user
}

/** The caller, who must be an operator: anyone else gets 403 and the operator pages stay shut. */
export function currentOperator(request: FastifyRequest): AuthenticatedUser {
  return requireRole(request, 'operator')
}

/** The caller of an `auth: true` endpoint (authenticate has run, so it is set). */
export function currentUser(request: FastifyRequest): AuthenticatedUser {
  if (!request.user) throw unauthorized('请先登录')
  return request.user
}

/**
 * The caller of an endpoint that works with or without a token (an article, a search). A stale
 * token is not an error there: the caller is treated as signed out rather than sent to log in.
 */
export async function optionalUserId(request: FastifyRequest): Promise<string | undefined> {
  const token = bearerToken(request)
  if (!token) return undefined
  const found = await request.server.findSessionUser(token)
  return found?.id
}
