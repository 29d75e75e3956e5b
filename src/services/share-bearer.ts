/**
 * The share-session token (`yxs_…`, issue 9) that DICOMweb reads use while a link visitor looks at
 * a shared exam. Kept apart from services/shares.ts on purpose: records.ts and viewer.ts read it
 * on every thumbnail and frame, and must not pull the grants contract into their chunks.
 *
 * Each shared page holds it while it shows and lets go when it hides or closes; the newest holder
 * wins. Holders rather than one global switch, because when a page closes, the page below may
 * show before or after the closing one lets go: each lets go of its own hold only. Nobody holding
 * (the person's own pages) or a holder with null (a signed-in grantee) means the login's token.
 */
import { UserFacingError } from './api'
import { HttpError } from './http'

const holders = new Map<object, string | null>()

export function holdShareBearer(holder: object, token: string | null): void {
  // Re-inserted, so the page that showed last is the newest.
  holders.delete(holder)
  holders.set(holder, token)
}

export function releaseShareBearer(holder: object): void {
  holders.delete(holder)
}

export function shareBearer(): string | null {
  let newest: string | null = null
  for (const token of holders.values()) newest = token
  return newest
}

/** Headers that replace the login bearer with the share token (the http wrapper merges them last). */
export function shareBearerHeader(): Record<string, string> {
  const token = shareBearer()
  return token ? { Authorization: `Bearer ${token}` } : {}
}

const ENDED = '授权已失效'

function refusalText(data: unknown): string | null {
  let body = data
  if (Object.prototype.toString.call(data) === '[object ArrayBuffer]') {
    // Older WeChat base libraries have no TextDecoder: the caller then says 授权已失效.
    if (typeof TextDecoder === 'undefined') return null
    try {
      body = JSON.parse(new TextDecoder().decode(data as ArrayBuffer))
    } catch {
      return null
    }
  }
  if (typeof body !== 'object' || body === null) return null
  const { error, message } = body as { error?: unknown; message?: unknown }
  if (typeof error === 'string' && error !== '') return error
  return typeof message === 'string' && message !== '' ? message : null
}

/**
 * A DICOMweb read refused 403 while a shared page holds the token: the grant (or this link's
 * session) has ended. Answers the server's words (授权已失效, 链接无效或已失效) for the viewer to
 * show on the next slice; null for any other failure, which keeps its own handling.
 */
export function shareRefusal(error: unknown): UserFacingError | null {
  if (holders.size === 0 || !(error instanceof HttpError) || error.statusCode !== 403) return null
  return new UserFacingError(refusalText(error.response.data) ?? ENDED)
}
