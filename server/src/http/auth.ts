import type { FastifyRequest } from 'fastify'
import { unauthorized } from './errors'

/** The bearer token of a request, or undefined. The header name is fixed on the server side. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization
  if (!header) return undefined
  const match = /^Bearer\s+(\S+)$/i.exec(header)
  return match?.[1]
}

/**
 * Guards endpoints whose descriptor says `auth: true`. The foundation has no accounts yet, so no
 * token can be valid: every such call answers 401 until the accounts work replaces this with a lookup
 * of the hashed, revocable token.
 */
export async function authenticate(request: FastifyRequest): Promise<void> {
  if (!bearerToken(request)) throw unauthorized('请先登录')
  throw unauthorized()
}
