import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { REASONS } from '@contract/reasons'
import { DatabaseBusyError } from '../db'
import { ApiError, DATABASE_BUSY, GONE_MEANWHILE, isForeignKeyViolation } from '../http/errors'
import { failure } from '../http/envelope'
import { containsNul, NUL_REFUSED } from '../http/validation'
import { fullStorageOf, isStorageFull } from '../storage'
import { API_CSP, setSecurityHeaders } from './security'

/** Fastify's own client errors, in words a user can act on. */
const FASTIFY_CLIENT_ERRORS: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: '请求内容不是有效的 JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: '请求内容为空',
  FST_ERR_CTP_BODY_TOO_LARGE: '提交的内容过大，请减小后重试',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: '不支持的内容类型，请以 JSON 格式提交',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: '请求长度与内容不符',
  FST_ERR_BAD_URL: '请求地址有误，请检查后重试',
  FST_ERR_MAX_PARAM_LENGTH: '请求地址过长',
}

/** Other client errors (a plugin's, Node's) by status, when they carry no code we know. */
const CLIENT_STATUS_TEXT: Record<number, string> = {
  405: '不支持的请求方式',
  408: '请求超时，请重试',
  413: '提交的内容过大，请减小后重试',
  414: '请求地址过长',
  415: '不支持的内容类型，请以 JSON 格式提交',
  416: '请求的内容范围无效',
  431: '请求头过大',
}
const CLIENT_ERROR_TEXT = '请求有误，请检查后重试'
export const PAGE_NOT_FOUND = '页面不存在'

/** What the user is told about a client error that is not one of our ApiErrors. */
function clientErrorText(status: number, code: unknown): string {
  if (typeof code === 'string' && FASTIFY_CLIENT_ERRORS[code]) return FASTIFY_CLIENT_ERRORS[code]
  return CLIENT_STATUS_TEXT[status] ?? CLIENT_ERROR_TEXT
}

/** The status an error carries (http-errors style errors name it `status` as well). */
function statusOf(error: { statusCode?: unknown; status?: unknown }): number | undefined {
  const status = error.statusCode ?? error.status
  return typeof status === 'number' && Number.isInteger(status) ? status : undefined
}

/**
 * One error path for every route: the envelope `{ code, message, data: null, error, reason }`.
 * Deliberate errors (ApiError, including validation) and Fastify's client errors keep their status,
 * Chinese text and reason (contract/reasons.ts); anything else is a fault of ours: logged with its
 * stack, answered 500 without internals.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  // Every route, schema or not (uploads, the web app): a NUL byte in the query, the path or a parsed
  // JSON body is refused before any handler or database sees it (PostgreSQL would fail with a 500).
  app.addHook('preValidation', async (request) => {
    if (containsNul(request.query) || containsNul(request.params) || containsNul(request.body)) {
      throw new ApiError(400, NUL_REFUSED)
    }
  })
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ApiError) {
      // Expected outcomes, not faults: no stack, and no request data in the log.
      request.log.info({ statusCode: error.statusCode, code: error.name }, 'request rejected')
      return reply.code(error.statusCode).send(
        failure(error.statusCode, error.userMessage, {
          reason: error.reason,
          // A 5xx of ours says what is wrong (支付未配置, 短信服务未配置) in the message the app
          // toasts (SPEC section 8), not the status's generic words.
          ...(error.statusCode >= 500 ? { message: error.userMessage } : {}),
        }),
      )
    }
    if (isStorageFull(error)) {
      // The operator's alarm, once per request: which storage is full, never the key or the body.
      request.log.error({ statusCode: 507, ...fullStorageOf(error) }, 'storage full')
      return reply.code(507).send(failure(507, null, { reason: REASONS.storageFull }))
    }
    if (isForeignKeyViolation(error)) {
      // A row this write names was deleted by another request after the checks: a race, not a fault.
      request.log.warn({ statusCode: 409, code: error.code }, 'foreign key violation (a race)')
      return reply.code(409).send(failure(409, GONE_MEANWHILE))
    }
    if (error instanceof DatabaseBusyError) {
      // Another process held SQLite's write lock past the wait: nothing was written, and a retry in
      // a moment works. Not our fault either; the operator sees it as a warning.
      request.log.warn({ statusCode: 503, code: error.name }, 'database locked by another process')
      return reply
        .code(503)
        .header('retry-after', '1')
        .send(failure(503, null, { message: DATABASE_BUSY }))
    }
    const status = statusOf(error) ?? 500
    if (status >= 400 && status < 500) {
      // A client error from Fastify or a plugin: the client's fault, so no stack at error level.
      // The static file server refuses a path out of its folder (an encoded ../) with 403 and a
      // missing file with 404: both are "no such page", and a 403 would only confirm a guess.
      const code = typeof error.code === 'string' ? error.code : error.name
      request.log.info({ statusCode: status, code }, 'request rejected')
      if (!error.code && (status === 403 || status === 404)) {
        return reply.code(404).send(failure(404, PAGE_NOT_FOUND))
      }
      return reply.code(status).send(failure(status, clientErrorText(status, error.code)))
    }
    request.log.error({ err: loggableError(error) }, 'request failed')
    return reply.code(500).send(failure(500, null))
  })
}

/**
 * What of an unexpected error goes to the log: its kind, message and stack, not its other fields
 * (a PostgreSQL error's `detail`, for one, quotes the row's values, which may be personal data).
 */
function loggableError(error: FastifyError): Record<string, unknown> {
  return {
    type: error.name,
    message: error.message,
    ...(error.code ? { code: error.code } : {}),
    stack: error.stack,
  }
}

/**
 * Fastify's `frameworkErrors`: errors found before routing (a URL that does not decode). Fastify
 * would answer them in English, echoing the URL, and without our headers: its answer skips the
 * onRequest hooks, so the security headers are set here, the CSP included.
 */
export function frameworkErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  setSecurityHeaders(request, reply)
  reply.header('content-security-policy', API_CSP)
  const status = statusOf(error) ?? 500
  if (status >= 400 && status < 500) {
    request.log.info({ statusCode: status, code: error.code }, 'request rejected')
    void reply.code(status).send(failure(status, clientErrorText(status, error.code)))
    return
  }
  request.log.error({ err: loggableError(error) }, 'request failed')
  void reply.code(500).send(failure(500, null))
}

/** Node's parser errors, by the code it gives them: status and what the user is told. */
const SOCKET_ERRORS: Record<string, [number, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, '请求超时，请重试'],
  HPE_HEADER_OVERFLOW: [431, '请求头过大'],
}

/**
 * Fastify's `clientErrorHandler`: requests Node cannot parse (headers over the size limit, such as a
 * 100 KB multipart boundary; a malformed request line) never become requests, so this writes the
 * answer onto the socket itself: the envelope in Chinese, with the headers every answer carries.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const [status, text] = SOCKET_ERRORS[error.code ?? ''] ?? [400, CLIENT_ERROR_TEXT]
  if (socket.writable) {
    const body = JSON.stringify(failure(status, text))
    const head = [
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Bad Request'}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `Content-Security-Policy: ${API_CSP}`,
      'X-Content-Type-Options: nosniff',
      'X-Frame-Options: DENY',
      'Referrer-Policy: strict-origin-when-cross-origin',
      'Connection: close',
    ]
    socket.write(`${head.join('\r\n')}\r\n\r\n${body}`)
  }
  socket.destroy(error)
}
