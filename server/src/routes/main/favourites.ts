import type { FastifyInstance } from 'fastify'

/** Main service: favourites (contract/main/favourites.ts). Issue 10. */
export default async function mainFavouritesRoutes(_app: FastifyInstance): Promise<void> {}
