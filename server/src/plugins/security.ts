import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { FastifyInstance } from 'fastify'

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
 * A few headers in the spirit of helmet. No X-Frame-Options: the H5 app is meant to run inside
 * WeChat's web-view and other embedding shells.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id)
    reply.header('x-content-type-options', 'nosniff')
    reply.header('referrer-policy', 'strict-origin-when-cross-origin')
  })
}
