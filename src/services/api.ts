import { z } from 'zod/mini'
import { envelope } from '@contract/envelope'
import type { Endpoint, InputOf, OutputOf } from '@contract/endpoint'
import { showToast } from '@/platform/ui'
import './zod-setup'
import { hostOf } from './hosts'
import {
  HttpError,
  MESSAGES,
  NetworkError,
  http as defaultHttp,
  type Http,
  type RequestOptions,
} from './http'

export const DRIFT_MESSAGE = '服务端数据异常'

/** The server answered 200 with a body the contract does not describe: it has drifted. */
export class ResponseDriftError extends Error {
  constructor(
    readonly endpoint: string,
    readonly issues: readonly z.core.$ZodIssue[],
  ) {
    super(
      `response of ${endpoint} does not match the contract: ${issues
        .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
        .join('; ')}`,
    )
    this.name = 'ResponseDriftError'
  }
}

export type CallOptions = Omit<RequestOptions, 'url' | 'method' | 'data' | 'fullResponse'>

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Fills `:name` segments from the input and returns the rest of the input, which goes to the query
 * string (GET, DELETE) or the body. A missing parameter is a programming error and throws.
 */
export function buildPath(path: string, input: unknown): { path: string; rest: unknown } {
  if (!isRecord(input)) return { path, rest: input }
  const rest: Record<string, unknown> = { ...input }
  const filled = path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_match, name: string) => {
    const value = rest[name]
    if (value === undefined || value === null || value === '') {
      throw new TypeError(`path parameter "${name}" missing for ${path}`)
    }
    delete rest[name]
    return encodeURIComponent(String(value))
  })
  return { path: filled, rest }
}

const envelopeCache = new WeakMap<Endpoint, z.ZodMiniType>()

function envelopeOf(endpoint: Endpoint): z.ZodMiniType {
  let schema = envelopeCache.get(endpoint)
  if (!schema) {
    schema = envelope(endpoint.output)
    envelopeCache.set(endpoint, schema)
  }
  return schema
}

export interface ApiDeps {
  http: Http
  toast: (title: string) => void
  hostOf: (service: Endpoint['service']) => string
}

export type CallEndpoint = <E extends Endpoint>(
  endpoint: E,
  input: InputOf<E>,
  options?: CallOptions,
) => Promise<OutputOf<E>>

/**
 * Calls one contract endpoint and resolves with the envelope's `data`, checked against the
 * endpoint's output schema, so a drifted server fails loudly here instead of deep inside a page.
 */
export function createCallEndpoint(deps: ApiDeps): CallEndpoint {
  return async (endpoint, input, options = {}) => {
    const { path, rest } = buildPath(endpoint.path, input)
    const body = await deps.http.request<unknown>({
      ...options,
      baseUrl: deps.hostOf(endpoint.service),
      url: path,
      method: endpoint.method,
      data: rest,
    })
    const parsed = z.safeParse(envelopeOf(endpoint), body)
    if (!parsed.success) {
      deps.toast(DRIFT_MESSAGE)
      throw new ResponseDriftError(
        `${endpoint.method} ${endpoint.service}${endpoint.path}`,
        parsed.error.issues,
      )
    }
    return (parsed.data as { data: OutputOf<typeof endpoint> }).data
  }
}

export const callEndpoint: CallEndpoint = createCallEndpoint({
  http: defaultHttp,
  toast: (title) => showToast(title),
  hostOf,
})

/** A failure whose message is written for the person (not from the server). */
export class UserFacingError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UserFacingError'
  }
}

/**
 * What to tell the person about a failed call, in their words: the server's own `error`, else its
 * `message` (the reason it refused), so a refusal reads the same inline as in the toast; otherwise
 * the network problem, a drifted answer, or `fallback`. The one place every form and page asks.
 */
export function describeError(error: unknown, fallback = '操作失败，请稍后重试'): string {
  if (error instanceof HttpError) {
    const body = error.response.data
    if (isRecord(body)) {
      if (typeof body.error === 'string' && body.error.trim() !== '') return body.error
      if (typeof body.message === 'string' && body.message.trim() !== '' && body.message !== 'ok')
        return body.message
    }
    if (error.kind === 'unauthorized') return MESSAGES.relogin
    return MESSAGES.status(error.statusCode)
  }
  if (error instanceof UserFacingError) return error.message
  if (error instanceof NetworkError) return error.timedOut ? MESSAGES.timeout : MESSAGES.network
  if (error instanceof ResponseDriftError) return DRIFT_MESSAGE
  return fallback
}
