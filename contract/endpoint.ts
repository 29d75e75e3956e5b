import type { z } from 'zod/mini'
import { SERVICES, type ServiceName } from './services'
import type { GrantedRole } from './sso/auth'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE'

/**
 * One call of the API. The server registers a route from it (input validated, output serialised by
 * schema, listed in /openapi.json); the app calls it and validates the answer with the same schemas.
 */
export interface Endpoint<
  I extends z.ZodMiniType = z.ZodMiniType,
  O extends z.ZodMiniType = z.ZodMiniType,
> {
  service: ServiceName
  method: HttpMethod
  /** Path inside the service, Fastify style (`/agreements/:kind`). */
  path: string
  /** GET and DELETE read it from the query string (and path params), others from the body. */
  input: I
  /** The `data` of the envelope. */
  output: O
  /** Whether a bearer token is required. */
  auth: boolean
  /**
   * Only accounts with this role may call it: checked right after the token, before the input is read,
   * so a caller without it learns 403 and nothing about the input (server/src/http/route.ts).
   */
  role?: GrantedRole
  summary: string
}

export function defineEndpoint<I extends z.ZodMiniType, O extends z.ZodMiniType>(
  endpoint: Endpoint<I, O>,
): Endpoint<I, O> {
  return endpoint
}

/** The endpoint's path on the reference server, service prefix included. */
export function fullPath(endpoint: Pick<Endpoint, 'service' | 'path'>): string {
  return `${SERVICES[endpoint.service]}${endpoint.path}`
}

export type InputOf<E extends Endpoint> = z.infer<E['input']>
export type OutputOf<E extends Endpoint> = z.infer<E['output']>
