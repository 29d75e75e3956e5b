import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import type { $ZodIssue } from 'zod/v4/core'
import { ReportError } from '../../domain/reports/reports'
import { ApiError } from '../../http/errors'

/*
 * Every error under /fhir is a FHIR OperationOutcome (application/fhir+json) in Chinese, with the
 * HTTP status FHIR's RESTful API prescribes, so a hospital system's FHIR client shows a reason its
 * operators can act on instead of our JSON envelope.
 */

export const FHIR_JSON = 'application/fhir+json; charset=utf-8'

export interface OutcomeIssue {
  /** OperationOutcome.issue.code (IssueType): invalid, required, value, structure, login, ... */
  code: string
  diagnostics: string
  /** FHIRPath of the element at fault, e.g. DiagnosticReport.subject.identifier[0].value */
  expression?: string
  severity?: 'fatal' | 'error' | 'warning' | 'information'
}

/** An error carrying several issues (each wrong field of a resource). */
export class FhirError extends ApiError {
  override name = 'FhirError'
  constructor(
    statusCode: number,
    readonly issues: OutcomeIssue[],
  ) {
    super(statusCode, issues[0]?.diagnostics ?? '请求有误')
  }
}

export function fhirError(
  statusCode: number,
  code: string,
  diagnostics: string,
  expression?: string,
): FhirError {
  return new FhirError(statusCode, [{ code, diagnostics, ...(expression ? { expression } : {}) }])
}

export function operationOutcome(issues: OutcomeIssue[]) {
  return {
    resourceType: 'OperationOutcome',
    issue: issues.map((issue) => ({
      severity: issue.severity ?? 'error',
      code: issue.code,
      details: { text: issue.diagnostics },
      diagnostics: issue.diagnostics,
      ...(issue.expression ? { expression: [issue.expression] } : {}),
    })),
  }
}

/** FHIRPath of a zod path under a resource: contained[0].identifier[1].value */
export function fhirPath(root: string, path: readonly PropertyKey[]): string {
  let expression = root
  for (const part of path) {
    expression += typeof part === 'number' ? `[${part}]` : `.${String(part)}`
  }
  return expression
}

const CJK = /[\u3400-\u9fff]/

/** A zod issue as OperationOutcome issues: which element, what is wrong, in Chinese. */
export function issuesFromZod(root: string, issue: $ZodIssue): OutcomeIssue[] {
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => {
      const expression = fhirPath(root, [...issue.path, key])
      return {
        code: 'structure',
        diagnostics: `${expression}：不支持的字段 ${key}（请检查拼写，或删去本服务不接收的内容）`,
        expression,
      }
    })
  }
  return [issueFromZod(root, issue)]
}

function issueFromZod(root: string, issue: $ZodIssue): OutcomeIssue {
  const expression = fhirPath(root, issue.path)
  if (issue.code === 'invalid_type' && issue.expected === 'never') {
    return { code: 'not-supported', diagnostics: `${expression}：${issue.message}`, expression }
  }
  if (CJK.test(issue.message)) {
    const required = issue.code === 'invalid_type' && issue.input === undefined
    return {
      code: required ? 'required' : 'value',
      diagnostics: `${expression}：${issue.message}`,
      expression,
    }
  }
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) {
        return { code: 'required', diagnostics: `${expression}：缺少必填项`, expression }
      }
      return {
        code: 'structure',
        diagnostics: `${expression}：类型不正确，应为${TYPE_NAMES[issue.expected] ?? issue.expected}`,
        expression,
      }
    case 'invalid_value':
      return {
        code: 'value',
        diagnostics: `${expression}：取值无效，可选 ${issue.values.map(String).join('、')}`,
        expression,
      }
    case 'too_small':
      return { code: 'value', diagnostics: `${expression}：内容过短或过少`, expression }
    case 'too_big':
      return { code: 'value', diagnostics: `${expression}：内容过长或过多`, expression }
    default:
      return { code: 'value', diagnostics: `${expression}：格式不正确`, expression }
  }
}

const TYPE_NAMES: Record<string, string> = {
  string: '字符串',
  number: '数字',
  int: '整数',
  boolean: '布尔值（true/false）',
  array: '数组',
  object: '对象',
}

/** Our wording for Fastify's own client errors (body parsing, content type, size). */
const FASTIFY_ERRORS: Record<string, [string, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: ['structure', '请求内容不是有效的 JSON'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['required', '请求内容为空，请提交 DiagnosticReport 资源'],
  FST_ERR_CTP_BODY_TOO_LARGE: ['too-long', '提交的内容过大（上限 1 MB），请减小后重试'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [
    'not-supported',
    '不支持的内容类型，请以 Content-Type: application/fhir+json 提交',
  ],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['structure', '请求长度与内容不符'],
}

const CODE_BY_STATUS: Record<number, string> = {
  400: 'invalid',
  401: 'login',
  403: 'forbidden',
  404: 'not-found',
  405: 'not-supported',
  406: 'not-supported',
  409: 'conflict',
  412: 'conflict',
  413: 'too-long',
  415: 'not-supported',
  422: 'processing',
  429: 'throttled',
}

export function sendOutcome(reply: FastifyReply, status: number, issues: OutcomeIssue[]) {
  return reply.code(status).type(FHIR_JSON).send(operationOutcome(issues))
}

/** The error handler of the /fhir context. */
export function fhirErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  if (error instanceof FhirError) {
    request.log.info({ statusCode: error.statusCode, code: error.name }, 'request rejected')
    return sendOutcome(reply, error.statusCode, error.issues)
  }
  if (error instanceof ReportError) {
    request.log.info({ statusCode: error.statusCode, code: error.issueCode }, 'request rejected')
    return sendOutcome(reply, error.statusCode, [
      {
        code: error.issueCode,
        diagnostics: error.userMessage,
        ...(error.expression ? { expression: error.expression } : {}),
      },
    ])
  }
  if (error instanceof ApiError) {
    request.log.info({ statusCode: error.statusCode, code: error.name }, 'request rejected')
    return sendOutcome(reply, error.statusCode, [
      { code: CODE_BY_STATUS[error.statusCode] ?? 'invalid', diagnostics: error.userMessage },
    ])
  }
  const status = error.statusCode ?? 500
  if (status >= 400 && status < 500) {
    request.log.info({ statusCode: status, code: error.code }, 'request rejected')
    const [code, text] = FASTIFY_ERRORS[error.code] ?? [
      CODE_BY_STATUS[status] ?? 'invalid',
      '请求有误，请检查后重试',
    ]
    return sendOutcome(reply, status, [{ code, diagnostics: text }])
  }
  // Type, message and stack only: a database error's other fields may quote personal data.
  request.log.error(
    { err: { type: error.name, message: error.message, code: error.code, stack: error.stack } },
    'request failed',
  )
  return sendOutcome(reply, 500, [{ code: 'exception', diagnostics: '服务器繁忙，请稍后再试' }])
}
