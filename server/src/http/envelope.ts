import type { Envelope } from '@contract/envelope'
import type { Reason } from '@contract/reasons'
import { statusMessage } from './errors'

export function ok<T>(data: T): Envelope<T> {
  return { code: 200, message: 'ok', data, error: null, reason: null }
}

/**
 * A failure envelope. 5xx answers keep `error` null: the app toasts `message` for them (SPEC section
 * 8), and there is nothing a user can act on beyond trying again. `message` is the status's summary
 * unless a 5xx has a more telling one (数据库繁忙，请稍后重试). `reason` is set only for a refusal
 * code tells apart (contract/reasons.ts), whatever the status.
 */
export function failure(
  statusCode: number,
  error: string | null,
  {
    message = statusMessage(statusCode),
    reason = null,
  }: { message?: string; reason?: Reason | null } = {},
): Envelope<null> {
  return {
    code: statusCode,
    message,
    data: null,
    error: statusCode >= 500 ? null : error,
    reason,
  }
}
