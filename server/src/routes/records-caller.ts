import type { FastifyReply, FastifyRequest } from 'fastify'
import { SHARE_TOKEN_PREFIX } from '@contract/main/grants'
import { checkHospitalKey } from '../domain/hospitals'
import { findSessionByAccessToken } from '../domain/identity'
import type { RecordsCaller } from '../domain/records'
import { noteView, shareSessionReader } from '../domain/sharing'
import { bearerToken } from '../http/auth'
import { ApiError } from '../http/errors'
import { HOSPITAL_KEY_INVALID, HOSPITAL_KEY_REVOKED } from './hospital-auth'

/** Hospital API keys start with this (domain/hospitals/api-keys.ts). */
const HOSPITAL_KEY_PREFIX = 'yxh_'

export const RECORDS_CREDENTIALS_MISSING =
  '请先登录，或提供医院 API 密钥（请求头 Authorization: Bearer <令牌或密钥>）'

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by recordsCallerAuth on DICOMweb reads: who asks, for access.ts. */
    recordsCaller?: RecordsCaller
    /**
     * The login session of a signed-in records caller (reads through an account grant are logged
     * per session). Link visitors carry theirs in the caller itself.
     */
    recordsSessionId?: string
  }
}

function refuse(reply: FastifyReply, challenge: string, message: string): ApiError {
  reply.header('www-authenticate', challenge)
  return new ApiError(401, message)
}

/**
 * Who is reading images: a signed-in person (their access token) or a hospital system (its API
 * key). Both arrive as `Authorization: Bearer …`, because DICOMweb clients (dicomweb-client, OHIF,
 * curl) send exactly that and nothing else. A `yxh_` token is looked up as a key first; only if no
 * key has it is it tried as a session (one random access token in 16 million starts with those four
 * characters too). What the caller may see is decided in domain/records/access.ts only.
 */
export async function recordsCallerAuth(request: FastifyRequest, reply: FastifyReply) {
  const token = bearerToken(request)
  if (!token) throw refuse(reply, 'Bearer', RECORDS_CREDENTIALS_MISSING)
  const { db } = request.server
  const now = request.server.now()
  // A link visitor (issue 9): this grant's records only, and only while it is active, judged now.
  if (token.startsWith(SHARE_TOKEN_PREFIX)) {
    const reader = await shareSessionReader(db, token, now)
    request.recordsCaller = reader.caller
    return
  }
  const looksLikeKey = token.startsWith(HOSPITAL_KEY_PREFIX)
  if (looksLikeKey) {
    const check = await checkHospitalKey(db, token, now)
    if (check.ok) {
      request.recordsCaller = { kind: 'hospital', hospitalId: check.hospital.id }
      return
    }
    // Only the holder of the whole revoked key learns that it was revoked (as hospital-auth.ts).
    if (check.reason === 'revoked') {
      throw refuse(reply, 'Bearer realm="hospital"', HOSPITAL_KEY_REVOKED)
    }
  }
  const found = await findSessionByAccessToken(db, token, now)
  if (found) {
    request.recordsCaller = { kind: 'user', userId: found.user.id }
    request.recordsSessionId = found.sessionId
    return
  }
  if (looksLikeKey) throw refuse(reply, 'Bearer realm="hospital"', HOSPITAL_KEY_INVALID)
  // Keys stored with a chosen value (the demo's published demo-hospital-key) lack the prefix.
  const chosen = await checkHospitalKey(db, token, now)
  if (chosen.ok) {
    request.recordsCaller = { kind: 'hospital', hospitalId: chosen.hospital.id }
    return
  }
  if (chosen.reason === 'revoked') {
    throw refuse(reply, 'Bearer realm="hospital"', HOSPITAL_KEY_REVOKED)
  }
  throw refuse(reply, 'Bearer error="invalid_token"', '登录已失效，请重新登录')
}

/** The caller of a route guarded by recordsCallerAuth. */
export function recordsCaller(request: FastifyRequest): RecordsCaller {
  if (!request.recordsCaller) throw new ApiError(401, RECORDS_CREDENTIALS_MISSING)
  return request.recordsCaller
}

/**
 * Logs the records caller's read of these exams through a grant in 谁看过: one view per viewer
 * session and exam (domain/sharing/views.ts). A link visitor's session is its share session; a
 * grantee's is their login session. Never fails the read (noteView logs its errors).
 */
export async function noteGrantViews(
  request: FastifyRequest,
  grantId: string,
  examIds: readonly string[],
  now: Date,
): Promise<void> {
  const caller = recordsCaller(request)
  const app = request.server
  for (const examId of examIds) {
    await noteView(
      {
        db: app.db,
        cipher: app.personalCipher,
        subscribe: app.providers.subscribe,
        geo: app.providers.geo,
        log: request.log,
      },
      {
        grantId,
        viewerSession:
          caller.kind === 'share' ? caller.sessionId : (request.recordsSessionId ?? ''),
        viewerUserId: caller.kind === 'user' ? caller.userId : null,
        recordKind: 'exam',
        recordId: examId,
        examId,
        ip: request.ip,
      },
      now,
    )
  }
}
