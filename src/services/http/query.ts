import type { BodyEncoding } from './types'

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function isAbsoluteUrl(url: string): boolean {
  return /^[a-z][a-z\d+.-]*:\/\//i.test(url) || url.startsWith('//')
}

export function joinUrl(base: string, url: string): string {
  if (isAbsoluteUrl(url) || base === '') return url
  return `${base.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}`
}

function encodeScalar(value: unknown): string {
  if (value === null) return ''
  if (value instanceof Date) return value.toISOString()
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

/**
 * `a=1&b=x%20y`: keys and values percent-encoded, undefined left out, null sent empty, arrays as
 * repeated keys, nested objects as JSON. Used for GET/DELETE query strings and form bodies.
 */
export function encodeQuery(data: unknown): string {
  if (data === undefined || data === null) return ''
  if (typeof data === 'string') return data.replace(/^\?/, '')
  if (!isRecord(data)) throw new TypeError('query data must be an object')
  const parts: string[] = []
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined) continue
    const values: unknown[] = Array.isArray(value) ? value : [value]
    for (const item of values) {
      if (item === undefined) continue
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(encodeScalar(item))}`)
    }
  }
  return parts.join('&')
}

export function appendQuery(url: string, query: string): string {
  if (query === '') return url
  const [path, hash] = url.split('#', 2)
  const joined = `${path}${path.includes('?') ? '&' : '?'}${query}`
  return hash === undefined ? joined : `${joined}#${hash}`
}

export function serialiseBody(data: unknown, encoding: BodyEncoding): string | undefined {
  if (data === undefined) return undefined
  if (encoding === 'form') return encodeQuery(data)
  if (typeof data === 'string') return data
  // JSON.stringify throws on cycles and BigInt: that is an "exception while building the request".
  const text: unknown = JSON.stringify(data)
  if (typeof text !== 'string') throw new TypeError('request data cannot be serialised to JSON')
  return text
}

/** Upload responses arrive as text; a JSON envelope is parsed so the same rules apply. */
export function parseUploadBody(data: unknown): unknown {
  if (typeof data !== 'string') return data
  try {
    return JSON.parse(data) as unknown
  } catch {
    return data
  }
}
