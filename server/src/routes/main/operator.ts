import type { FastifyInstance } from 'fastify'

/** Main service: operators' calls, role-checked and audited (contract/main/operator.ts). Issue 10. */
export default async function mainOperatorRoutes(_app: FastifyInstance): Promise<void> {}
