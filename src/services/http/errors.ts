import { isRecord } from './query'
import type { HttpResponse } from './types'

/** A request hook said no. Callers usually ignore it: check with `isCancelled(error)`. */
export class RequestCancelledError extends Error {
  readonly cancelled = true
  constructor() {
    super('request cancelled by request hook')
    this.name = 'RequestCancelledError'
  }
}

export function isCancelled(error: unknown): error is RequestCancelledError {
  return error instanceof RequestCancelledError
}

export type HttpErrorKind = 'unauthorized' | 'server' | 'business' | 'status' | 'response-hook'

/** The server answered, but not with success; `response` is the full response (SPEC section 7). */
export class HttpError extends Error {
  constructor(
    readonly response: HttpResponse,
    /** How the wrapper classified the answer (401, 500, an error field, another status, a hook). */
    readonly kind: HttpErrorKind,
  ) {
    super(`HTTP ${response.statusCode} (${kind})`)
    this.name = 'HttpError'
  }

  get statusCode(): number {
    return this.response.statusCode
  }
}

/**
 * The envelope's `reason` (contract/reasons.ts) of an answer body: the stable code of a refusal the
 * app acts on, or null (none given, or not an envelope). Code decides by this, never by the Chinese
 * `error`/`message`, which are for people.
 */
export function reasonOf(body: unknown): string | null {
  if (!isRecord(body)) return null
  return typeof body.reason === 'string' && body.reason !== '' ? body.reason : null
}

/**
 * The server's `reason` for a failed call (see reasonOf); null for anything but an HttpError.
 */
export function errorReason(error: unknown): string | null {
  return error instanceof HttpError ? reasonOf(error.response.data) : null
}

/** No answer came: offline, timeout, DNS or TLS failure. */
export class NetworkError extends Error {
  constructor(
    readonly errMsg: string,
    readonly timedOut: boolean,
  ) {
    super(errMsg)
    this.name = 'NetworkError'
  }
}

/** The request could not be built: a hook threw, or the data cannot be serialised. */
export class RequestBuildError extends Error {
  constructor(readonly reason: unknown) {
    super(
      `request could not be built: ${reason instanceof Error ? reason.message : String(reason)}`,
    )
    this.name = 'RequestBuildError'
  }
}
