import type { FastifyReply, FastifyRequest } from 'fastify'
import type { RecordsCaller } from '../domain/records/access'
import { findSessionByAccessToken } from '../domain/identity/sessions'
import { bearerToken } from './auth'
import { ApiError } from './errors'
import { hospitalAuth } from './hospital-auth'

/** Hospital API keys start with this (domain/hospitals/api-keys.ts); user access tokens never do. */
const HOSPITAL_KEY_PREFIX = 'yxh_'

export const RECORDS_CREDENTIALS_MISSING =
  '请先登录，或提供医院 API 密钥（请求头 Authorization: Bearer <令牌或密钥>）'

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by recordsCallerAuth on DICOMweb reads: who asks, for access.ts. */
    recordsCaller?: RecordsCaller
  }
}

/**
 * Who is reading images: a signed-in person (their access token) or a hospital system (its API
 * key). Both arrive as `Authorization: Bearer …`, because DICOMweb clients (dicomweb-client, OHIF,
 * curl) send exactly that and nothing else; the key's `yxh_` prefix tells them apart, so a key is
 * never looked up as a session nor a token as a key. What the caller may see is decided in
 * domain/records/access.ts only.
 */
export async function recordsCallerAuth(request: FastifyRequest, reply: FastifyReply) {
  const token = bearerToken(request)
  if (!token) {
    reply.header('www-authenticate', 'Bearer')
    throw new ApiError(401, RECORDS_CREDENTIALS_MISSING)
  }
  if (token.startsWith(HOSPITAL_KEY_PREFIX)) {
    // The hospital path answers exactly as every other hospital endpoint (revoked keys, realm).
    await hospitalAuth()(request, reply)
    request.recordsCaller = { kind: 'hospital', hospitalId: request.hospital!.id }
    return
  }
  const found = await findSessionByAccessToken(request.server.db, token, request.server.now())
  if (!found) {
    reply.header('www-authenticate', 'Bearer error="invalid_token"')
    throw new ApiError(401, '登录已失效，请重新登录')
  }
  request.recordsCaller = { kind: 'user', userId: found.user.id }
}

/** The caller of a route guarded by recordsCallerAuth. */
export function recordsCaller(request: FastifyRequest): RecordsCaller {
  if (!request.recordsCaller) throw new ApiError(401, RECORDS_CREDENTIALS_MISSING)
  return request.recordsCaller
}
