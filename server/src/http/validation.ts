import type { FastifySchemaCompiler } from 'fastify'
import { type $ZodIssue, type $ZodType, safeParse } from 'zod/v4/core'
import { ApiError } from './errors'

const CJK = /[\u3400-\u9fff]/

/**
 * The user-facing text for a validation issue. Contract schemas carry Chinese messages for the cases
 * a user can cause; zod's own English texts (which name types and internals) never reach the client,
 * they are replaced by a generic Chinese sentence naming the field.
 */
export function issueMessage(issue: $ZodIssue): string {
  if (CJK.test(issue.message)) return issue.message
  const field = issue.path.map(String).join('.')
  if (!field)
    return issue.code === 'unrecognized_keys' ? '包含无法识别的参数' : '请求参数格式不正确'
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? `缺少参数 ${field}` : `参数 ${field} 格式不正确`
    case 'too_small':
      return `参数 ${field} 过短或过小`
    case 'too_big':
      return `参数 ${field} 过长或过大`
    case 'invalid_value':
      return `参数 ${field} 的取值无效`
    case 'unrecognized_keys':
      return '包含无法识别的参数'
    default:
      return `参数 ${field} 格式不正确`
  }
}

export class RequestValidationError extends ApiError {
  override name = 'RequestValidationError'
  constructor(readonly issues: readonly $ZodIssue[]) {
    super(400, issues.length > 0 ? issueMessage(issues[0]!) : '请求参数格式不正确')
  }
}

export const NUL_REFUSED = '内容包含无效字符（空字符），请删除后重试'

/**
 * Whether a string anywhere in a parsed body, query or params holds a NUL byte. PostgreSQL cannot
 * store one in text (the insert fails with a 500) while SQLite stores it silently; neither is
 * anything a person typed, so both databases answer the same 400 before any handler runs.
 */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000')
  // Bodies are at most 1 MB of JSON; the depth cap only keeps a pathological nesting cheap.
  if (depth > 64 || value === null || typeof value !== 'object') return false
  // Raw bytes (an upload chunk) are not text; walking a 4 MB Buffer entry by entry cost seconds.
  if (ArrayBuffer.isView(value)) return false
  if (Array.isArray(value)) return value.some((item) => containsNul(item, depth + 1))
  return Object.entries(value).some(
    ([key, item]) => key.includes('\u0000') || containsNul(item, depth + 1),
  )
}

/**
 * Validates params, querystring and body with the contract's zod schemas. Unlike the type provider's
 * own compiler it keeps each issue's input (to tell "missing" from "wrong") and produces our error.
 */
export const validatorCompiler: FastifySchemaCompiler<$ZodType> =
  ({ schema }) =>
  (data) => {
    if (containsNul(data)) return { error: new ApiError(400, NUL_REFUSED) }
    const result = safeParse(schema, data, { reportInput: true })
    if (!result.success) return { error: new RequestValidationError(result.error.issues) }
    return { value: result.data }
  }
