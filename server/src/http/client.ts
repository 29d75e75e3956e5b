import type { FastifyRequest } from 'fastify'

/** The calling client as the request shows it; domain/client-info.ts summarises it for people. */
export interface ClientInfo {
  /** The client address as Fastify resolved it (TRUST_PROXY decides whose X-Forwarded-For counts). */
  ip: string
  userAgent?: string | undefined
}

/** The calling client, for audit records and QR login: address (per TRUST_PROXY) and User-Agent. */
export function clientOf(request: FastifyRequest): ClientInfo {
  return { ip: request.ip, userAgent: request.headers['user-agent'] }
}
