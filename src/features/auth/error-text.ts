import { DRIFT_MESSAGE, ResponseDriftError } from '@/services/api'
import { HttpError, MESSAGES, NetworkError, isCancelled } from '@/services/http'

/** A failure whose message is written for the person (not from the server). */
export class UserFacingError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UserFacingError'
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

/**
 * What a form shows under its button when a call failed: the server's own words (its `error`, else
 * its `message`), so a refusal reads the same inline as in the toast. Null for a cancelled call.
 */
export function errorText(error: unknown, fallback = '操作失败，请稍后重试'): string | null {
  if (isCancelled(error)) return null
  if (error instanceof HttpError) {
    const body = error.response.data
    if (isRecord(body)) {
      if (typeof body.error === 'string' && body.error.trim() !== '') return body.error
      if (typeof body.message === 'string' && body.message.trim() !== '') return body.message
    }
    if (error.reason === 'unauthorized') return MESSAGES.relogin
    return MESSAGES.status(error.statusCode)
  }
  if (error instanceof UserFacingError) return error.message
  if (error instanceof NetworkError) return error.timedOut ? MESSAGES.timeout : MESSAGES.network
  if (error instanceof ResponseDriftError) return DRIFT_MESSAGE
  return fallback
}
