import type { FastifyError, FastifyInstance } from 'fastify'
import { ApiError } from '../http/errors'
import { failure } from '../http/envelope'
import { containsNul, NUL_REFUSED } from '../http/validation'

/** Fastify's own client errors, in words a user can act on. */
const FASTIFY_CLIENT_ERRORS: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: '请求内容不是有效的 JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: '请求内容为空',
  FST_ERR_CTP_BODY_TOO_LARGE: '提交的内容过大，请减小后重试',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: '不支持的内容类型，请以 JSON 或表单格式提交',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: '请求长度与内容不符',
}

/**
 * One error path for every route: the envelope `{ code, message, data: null, error }`. Deliberate
 * errors (ApiError, including validation) and Fastify's client errors keep their status and Chinese
 * text; anything else is a fault of ours: logged with its stack, answered 500 without internals.
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
      return reply.code(error.statusCode).send(failure(error.statusCode, error.userMessage))
    }
    const status = error.statusCode ?? 500
    if (
      typeof error.code === 'string' &&
      error.code.startsWith('FST_') &&
      status >= 400 &&
      status < 500
    ) {
      request.log.info({ statusCode: status, code: error.code }, 'request rejected')
      const text = FASTIFY_CLIENT_ERRORS[error.code] ?? '请求有误，请检查后重试'
      return reply.code(status).send(failure(status, text))
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
