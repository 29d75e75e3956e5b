import type { Reason } from '@contract/reasons'

/**
 * Errors a handler may throw on purpose. Their Chinese text reaches the user; anything else thrown is
 * an internal fault and becomes a 500 without details.
 */
export class ApiError extends Error {
  override name = 'ApiError'
  constructor(
    readonly statusCode: number,
    /** Shown to the user (the envelope's `error`); Simplified Chinese, says what to do. */
    readonly userMessage: string,
    /**
     * The envelope's `reason`, for a refusal the app's code acts on (contract/reasons.ts); null for
     * one it only shows. Code tells refusals apart by this, never by `userMessage`.
     */
    readonly reason: Reason | null = null,
  ) {
    super(userMessage)
  }
}

/**
 * Said (as a 507's `message`) when the server's storage is full (storage/object-store.ts
 * StorageFullError): nothing the person did, and nothing a retry fixes until an operator frees space.
 */
export const STORAGE_FULL = '存储空间已满，请稍后再试或联系管理员'

/** The envelope's `message` for each status: a short summary; `error` carries the specific reason. */
export const STATUS_MESSAGES: Record<number, string> = {
  400: '请求参数有误',
  401: '请重新登录！',
  403: '无权访问',
  404: '请求的资源不存在',
  405: '不支持的请求方式',
  413: '提交的内容过大',
  415: '不支持的内容类型',
  429: '操作过于频繁',
  500: '服务器繁忙，请稍后再试',
  503: '服务暂不可用，请稍后再试',
  507: STORAGE_FULL,
}

export function statusMessage(statusCode: number): string {
  return STATUS_MESSAGES[statusCode] ?? (statusCode >= 500 ? STATUS_MESSAGES[500] : '请求失败')
}

export const badRequest = (message: string, reason: Reason | null = null) =>
  new ApiError(400, message, reason)
export const unauthorized = (message = '登录已失效，请重新登录', reason: Reason | null = null) =>
  new ApiError(401, message, reason)
export const forbidden = (message = '您无权访问该内容', reason: Reason | null = null) =>
  new ApiError(403, message, reason)
export const notFound = (message = '请求的内容不存在', reason: Reason | null = null) =>
  new ApiError(404, message, reason)
export const tooManyRequests = (message = '操作过于频繁，请稍后再试') => new ApiError(429, message)
export const conflict = (message: string) => new ApiError(409, message)

/**
 * The envelope's `message` (a 5xx: the app toasts it) when the database stayed locked by another
 * process past the wait (db/sqlite-driver.ts DatabaseBusyError): nothing was written, a retry works.
 */
export const DATABASE_BUSY = '数据库繁忙，请稍后重试'

/** Said when a row a write refers to went away while the request ran (see isForeignKeyViolation). */
export const GONE_MEANWHILE = '相关内容刚刚已被删除或更改，请刷新后重试'

/**
 * A foreign-key violation on PostgreSQL (23503) or SQLite (better-sqlite3's extended code): a write
 * named a row that another request deleted after this one had checked it. Not the client's mistake
 * and not a fault of ours: a route that can meet it answers what a retry would get (404, 400), and
 * anything else answers 409 GONE_MEANWHILE (plugins/error-handler.ts), never 500.
 */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY'
}
