import type { FastifyInstance } from 'fastify'
import mainAppRoutes from './main/app'
import healthRoutes from './system/health'

/**
 * Every route family, one plugin each (grouped by the contract's services: routes/<service>/<family>).
 * Paths come from the contract descriptors, so no prefix is given here.
 */
export default async function routes(app: FastifyInstance): Promise<void> {
  await app.register(healthRoutes)
  await app.register(mainAppRoutes)
}
