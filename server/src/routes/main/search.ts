import type { FastifyInstance } from 'fastify'

/** Main service: search, history and hot words (contract/main/content.ts). Issue 10. */
export default async function mainSearchRoutes(_app: FastifyInstance): Promise<void> {}
