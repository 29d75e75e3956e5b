import type { FastifyReply, FastifyRequest } from 'fastify'
import { checkHospitalKey, type HospitalRecord } from '../domain/hospitals'
import { ApiError } from '../http/errors'

/** The hospital system calling, set by hospitalAuth. */
export interface AuthenticatedHospital {
  id: string
  name: string
  demo: boolean
  /** Which key it used (for audit lines and last-used times), never the key itself. */
  keyId: string
  keyPrefix: string
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on hospital-facing endpoints guarded by hospitalAuth; undefined elsewhere. */
    hospital?: AuthenticatedHospital
  }
}

export const HOSPITAL_KEY_MISSING = '缺少医院 API 密钥（请求头 Authorization: Bearer <密钥>）'
export const HOSPITAL_KEY_INVALID = '医院 API 密钥无效'
export const HOSPITAL_KEY_REVOKED = '该医院 API 密钥已停用，请使用新密钥'

/**
 * The key of `Authorization: Bearer <key>`. Bearer, not a scheme of our own: DICOMweb and FHIR
 * clients (dicomweb-client, HAPI, curl -H) all send bearer credentials without extra code.
 */
export function hospitalKeyOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization
  if (!header) return undefined
  return /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1]
}

/**
 * A preHandler for hospital-facing routes: a valid, unrevoked key puts its hospital on
 * `request.hospital`; anything else is a 401 in Chinese with `WWW-Authenticate: Bearer`.
 *
 * The 401 is thrown as an ApiError, which the app's error handler answers as the usual envelope.
 * FHIR endpoints must answer an OperationOutcome instead: register them in their own context whose
 * error handler turns ApiError into `{ resourceType: 'OperationOutcome', issue: [{ severity:
 * 'error', code: 'login', diagnostics: userMessage }] }` with the same status; nothing here changes.
 */
export function hospitalAuth() {
  return async function authenticateHospital(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<void> {
    const key = hospitalKeyOf(request)
    const refuse = (message: string) => {
      reply.header('www-authenticate', 'Bearer realm="hospital"')
      return new ApiError(401, message)
    }
    if (!key) throw refuse(HOSPITAL_KEY_MISSING)
    const check = await checkHospitalKey(request.server.db, key, request.server.now())
    if (!check.ok)
      throw refuse(check.reason === 'revoked' ? HOSPITAL_KEY_REVOKED : HOSPITAL_KEY_INVALID)
    request.hospital = toAuthenticated(check.hospital, check.keyId, check.keyPrefix)
  }
}

function toAuthenticated(
  hospital: HospitalRecord,
  keyId: string,
  keyPrefix: string,
): AuthenticatedHospital {
  return { id: hospital.id, name: hospital.name, demo: hospital.demo, keyId, keyPrefix }
}
