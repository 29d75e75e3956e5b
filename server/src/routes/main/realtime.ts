import type { FastifyInstance } from 'fastify'
import { REALTIME_FULL_PATH } from '@contract/main/realtime'
import { registerRealtimeSocket } from '../../realtime'

/**
 * Main service, the live socket (contract/main/realtime.ts) at /main/ws: pointers to what changed,
 * read afterwards by cursor over HTTP. The logic is infrastructure (src/realtime); the domain
 * publishes on `app.realtime` after its transactions commit.
 */
export default async function mainRealtimeRoutes(app: FastifyInstance): Promise<void> {
  await registerRealtimeSocket(app, REALTIME_FULL_PATH, {
    bus: app.realtime,
    findSessionUser: app.findSessionUser,
    options: app.realtime.socketOptions,
  })
}
