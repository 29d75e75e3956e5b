import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify'
import { z } from 'zod/mini'
import type { Endpoint, InputOf, OutputOf } from '@contract/endpoint'
import { fullPath } from '@contract/endpoint'
import { envelope, ErrorEnvelopeSchema } from '@contract/envelope'
import { authenticate, requireRole } from './auth'
import { ok } from './envelope'

export interface HandlerContext {
  request: FastifyRequest
  reply: FastifyReply
  app: FastifyInstance
}

export type EndpointHandler<E extends Endpoint> = (
  input: InputOf<E>,
  context: HandlerContext,
) => Promise<OutputOf<E>> | OutputOf<E>

/**
 * Registers a route from a contract descriptor. The path is the contract's full path; the input schema
 * is split into path params (names in the path) and the query string (GET, DELETE) or body (others);
 * the 200 response is the envelope of the descriptor's output, so a handler that drifts from the
 * contract fails here (500, logged) instead of in the app. The handler returns bare data.
 */
export function route<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: EndpointHandler<E>,
): void {
  const url = fullPath(endpoint)
  const paramNames = [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1]!)
  const readsQuery = endpoint.method === 'GET' || endpoint.method === 'DELETE'

  const schema: FastifySchema & Record<string, unknown> = {
    summary: endpoint.summary,
    tags: [endpoint.service],
    response: {
      200: envelope(endpoint.output),
      '4xx': ErrorEnvelopeSchema,
      '5xx': ErrorEnvelopeSchema,
    },
    ...(endpoint.auth ? { security: [{ bearerAuth: [] }] } : {}),
  }

  const input = endpoint.input
  if (paramNames.length > 0) {
    if (!isObjectSchema(input)) {
      throw new Error(`${url}: input must be an object schema to carry path params`)
    }
    const mask = Object.fromEntries(paramNames.map((name) => [name, true as const]))
    for (const name of paramNames) {
      if (!(name in input._zod.def.shape)) throw new Error(`${url}: input lacks path param ${name}`)
    }
    schema.params = z.pick(input, mask)
    schema[readsQuery ? 'querystring' : 'body'] = z.omit(input, mask)
  } else {
    schema[readsQuery ? 'querystring' : 'body'] = input
  }

  const hooks = {
    // A POST without a body validates as an empty object rather than failing on `undefined`.
    ...(readsQuery
      ? {}
      : {
          preValidation: async (request: FastifyRequest) => {
            if (request.body === undefined || request.body === null) request.body = {}
          },
        }),
    // Authentication first (onRequest, before the body is even parsed): a caller without a valid
    // token learns 401, not what a valid body would look like.
    ...(endpoint.auth
      ? {
          onRequest: async (request: FastifyRequest) => {
            await authenticate(request)
            if (endpoint.role) requireRole(request, endpoint.role)
          },
        }
      : {}),
  }

  app.route({
    method: endpoint.method,
    url,
    schema,
    ...hooks,
    handler: async (request, reply) => {
      const carried = readsQuery ? request.query : request.body
      const data = (
        paramNames.length > 0 ? { ...(carried as object), ...(request.params as object) } : carried
      ) as InputOf<E>
      return ok(await handler(data, { request, reply, app }))
    },
  })
}

function isObjectSchema(schema: z.ZodMiniType): schema is z.ZodMiniObject {
  return schema._zod.def.type === 'object'
}
