import type { FastifyInstance } from 'fastify'
import { getHealth } from '@contract/system/health'
import { ApiError } from '../../http/errors'
import { route } from '../../http/route'

export default async function healthRoutes(app: FastifyInstance): Promise<void> {
  route(app, getHealth, async () => {
    // A load balancer takes this process out of rotation when its database does not answer.
    if (!(await app.database.ping())) throw new ApiError(503, '数据库不可用')
    return {
      status: 'ok' as const,
      database: app.database.kind,
      version: app.config.version,
      uptimeSeconds: Math.round(process.uptime()),
    }
  })
}
