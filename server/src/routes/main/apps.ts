import type { FastifyInstance } from 'fastify'

/** Main service: features, points, option dictionaries, web-view origins, the deployed build (contract/main/apps.ts). Issue 10. */
export default async function mainAppsRoutes(_app: FastifyInstance): Promise<void> {}
