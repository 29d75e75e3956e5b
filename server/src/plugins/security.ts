import { createHash, randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/

/**
 * Request id: a caller's (or load balancer's) X-Request-Id when it is a plain token, so one id follows
 * a call across processes; otherwise a fresh UUID. Anything else is ignored to keep logs clean.
 */
export function genReqId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id']
  if (typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming)) return incoming
  return randomUUID()
}

/**
 * What every answer carries unless a page sets its own: an API answer is data, never a document, so it
 * may load nothing and be framed by nobody (an uploaded SVG opened directly cannot run a script either).
 */
export const API_CSP =
  "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

/** Half a year; no includeSubDomains, which would bind an operator's other hosts to HTTPS too. */
export const HSTS = 'max-age=15552000'

/** sha256 sources for the inline scripts of an HTML page (Taro's index.html sets the rem size inline). */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = []
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc\s*=/i.test(match[1]!)) continue
    hashes.push(`'sha256-${createHash('sha256').update(match[2]!, 'utf8').digest('base64')}'`)
  }
  return hashes
}

/**
 * Taro's H5 tab bar items are <a href="javascript:;">: a no-op that Chromium would still report as a
 * violation on every tab switch. 'unsafe-hashes' admits exactly that text, nothing else.
 */
const NOOP_JAVASCRIPT_URL = `'sha256-${createHash('sha256').update('javascript:;').digest('base64')}'`

/**
 * The H5 app's page policy: its own scripts and the hashed inline ones only, no eval (zod runs
 * jitless), styles inline too (Taro's router and NutUI write style elements and attributes at run
 * time), images from itself, data: (icons) and blob: (avatar crop), calls to itself, to blob: URLs
 * (Taro's H5 uploadFile reads each upload chunk by fetching the blob: URL of a slice of the picked
 * file; without it no DICOM upload can start) and to the API origins the build was given, and no
 * framing: the QR-login confirm page must not be clickjacked.
 */
export function pageCsp(html: string, connectSrc: readonly string[] = []): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${inlineScriptHashes(html).join(' ')} 'unsafe-hashes' ${NOOP_JAVASCRIPT_URL}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "media-src 'self' blob:",
    `connect-src ${["'self'", 'blob:', ...connectSrc].join(' ')}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
}

/**
 * Headers in the spirit of helmet on every answer. Framing is refused twice (CSP frame-ancestors for
 * current browsers, X-Frame-Options for old ones); WeChat's web-view is a native view, not a frame, so
 * it is not affected. HSTS only when the request came over HTTPS — directly, or per X-Forwarded-Proto
 * from a proxy that TRUST_PROXY trusts (request.protocol applies that rule) — because a browser ignores
 * it over HTTP and a plain-HTTP deployment must not be told to switch.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    setSecurityHeaders(request, reply)
  })
  // The default policy goes on last, and only where the route set none of its own (the app's pages,
  // the API docs, uploaded files set theirs, some straight on the raw response by @fastify/static).
  app.addHook('onSend', async (_request, reply) => {
    if (
      !reply.hasHeader('content-security-policy') &&
      !reply.raw.hasHeader('content-security-policy')
    )
      reply.header('content-security-policy', API_CSP)
  })
}

/**
 * The headers of every answer but the CSP (added last, in onSend). Also called by the handler of
 * Fastify's framework errors (a malformed URL), whose answers skip the onRequest hooks.
 */
export function setSecurityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', request.id)
  reply.header('x-content-type-options', 'nosniff')
  reply.header('referrer-policy', 'strict-origin-when-cross-origin')
  reply.header('x-frame-options', 'DENY')
  if (request.protocol === 'https') reply.header('strict-transport-security', HSTS)
}
