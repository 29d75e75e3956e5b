import type { FastifyInstance } from 'fastify'

/** Main service: feedback and its images (contract/main/feedback.ts). Issue 10. */
export default async function mainFeedbackRoutes(_app: FastifyInstance): Promise<void> {}
