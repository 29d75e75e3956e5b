import type { FastifyInstance } from 'fastify'

/** Main service: articles, videos and the public /media files (contract/main/content.ts). Issue 10. */
export default async function mainContentRoutes(_app: FastifyInstance): Promise<void> {}
