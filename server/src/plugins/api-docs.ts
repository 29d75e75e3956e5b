import fastifySwagger from '@fastify/swagger'
import fastifySwaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import { jsonSchemaTransform } from 'fastify-type-provider-zod'
import { SERVICES } from '@contract/services'
import type { Config } from '../config'

export const API_DOCS_PREFIX = '/api-docs'

/**
 * /openapi.json is generated from the routes' contract schemas; /api-docs is a readable page over it.
 * Swagger UI's assets come from the installed package, so the page needs no outside host (its online
 * validator is switched off for the same reason). Must be registered before the routes.
 */
export async function registerApiDocs(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: '医影通 API',
        description:
          '医影通参考服务的接口。每个响应都是 `{ code, message, data, error, reason }`：成功时 code 为 200、error 与 reason 为 null；失败时 error 为可以展示给用户的中文说明（5xx 除外），reason 为程序据以区分的稳定代码（如 family.not-managed、grant.ended），不需区分的失败为 null。程序只看 reason，不比较中文说明。',
        version: config.version,
      },
      tags: Object.keys(SERVICES).map((name) => ({ name })),
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
      },
    },
    transform: jsonSchemaTransform,
  })

  await app.register(fastifySwaggerUi, {
    routePrefix: API_DOCS_PREFIX,
    // Swagger UI's own policy (its inline scripts and styles hashed), looser than the app's page policy
    // (plugins/security.ts); framing is refused here too, and the switched-off validator's host goes.
    staticCSP: true,
    transformStaticCSP: (header) =>
      header
        .replace("frame-ancestors 'self'", "frame-ancestors 'none'")
        .replace(' validator.swagger.io', '')
        // Swagger UI also writes style attributes at run time, which its own policy would refuse.
        .replace(/style-src [^;]*;/, "style-src 'self' 'unsafe-inline';"),
    theme: { title: '医影通 API 文档' },
    uiConfig: { docExpansion: 'list', deepLinking: true, validatorUrl: null },
  })

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger())
}
