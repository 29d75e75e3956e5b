import type { FastifyRequest } from 'fastify'
import type { ClientInfo } from '../domain/client-info'

/** The calling client, for audit records and QR login: address (per TRUST_PROXY) and User-Agent. */
export function clientOf(request: FastifyRequest): ClientInfo {
  return { ip: request.ip, userAgent: request.headers['user-agent'] }
}
