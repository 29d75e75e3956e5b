import { MESSAGES } from './constants'
import { HttpError } from './errors'
import { isRecord } from './query'
import type { HttpResponse } from './types'

/** What to do with an answer; decided without side effects, acted on after loading is hidden. */
export type Outcome =
  | { ok: true; response: HttpResponse }
  | { ok: false; error: Error; toast?: string; unauthorized?: boolean; offline?: boolean }

function messageOf(body: unknown): string | null {
  if (!isRecord(body)) return null
  return typeof body.message === 'string' && body.message.trim() !== '' ? body.message : null
}

/** SPEC section 8, in order: 401, then status or code 500, then an error field, then status 200. */
export function classifyResponse(response: HttpResponse): Outcome {
  const body = response.data
  const code = isRecord(body) && typeof body.code === 'number' ? body.code : undefined
  if (response.statusCode === 401 || code === 401) {
    return {
      ok: false,
      error: new HttpError(response, 'unauthorized'),
      toast: MESSAGES.relogin,
      unauthorized: true,
    }
  }
  if (response.statusCode === 500 || code === 500) {
    return {
      ok: false,
      error: new HttpError(response, 'server'),
      toast: messageOf(body) ?? MESSAGES.serverError,
    }
  }
  if (isRecord(body) && typeof body.error === 'string' && body.error.trim() !== '') {
    return { ok: false, error: new HttpError(response, 'business'), toast: body.error }
  }
  if (response.statusCode === 200) return { ok: true, response }
  // Not in the catalogue (a gateway's 502, a bare 404): the user still deserves to know it failed.
  return {
    ok: false,
    error: new HttpError(response, 'status'),
    toast: messageOf(body) ?? MESSAGES.status(response.statusCode),
  }
}

/**
 * Whether a failed request ran out of time. The mini-program says `request:fail timeout`; Taro's H5
 * request enforces its timeout by aborting fetch, which rejects with an AbortError ("The user
 * aborted a request." / "signal is aborted without reason"). Nothing in the app aborts a request
 * otherwise, so an abort is a timeout.
 */
export function isTimeout(error: unknown, errMsg: string): boolean {
  if (/timeout|timed out|超时/i.test(errMsg)) return true
  const name = isRecord(error) || error instanceof Error ? (error as { name?: unknown }).name : ''
  return name === 'AbortError' || name === 'TimeoutError' || /\babort(ed)?\b/i.test(errMsg)
}

export function errMsgOf(error: unknown): string {
  if (isRecord(error) && typeof error.errMsg === 'string') return error.errMsg
  if (error instanceof Error) return error.message
  return String(error)
}
