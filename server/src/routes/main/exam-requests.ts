import type { FastifyInstance, FastifyRequest } from 'fastify'
import { createExamRequest, getExamRequest } from '@contract/main/exam-requests'
import { consultContext } from '../../consult-context'
import * as examRequests from '../../domain/exam-requests'
import { currentUser } from '../../http/auth'
import { route } from '../../http/route'

/** Main service: 检查申请单 (contract/main/exam-requests.ts): the expert writes, both sides read. */
export default async function mainExamRequestsRoutes(app: FastifyInstance): Promise<void> {
  const me = (request: FastifyRequest) => currentUser(request).id

  route(app, createExamRequest, async (input, { request }) =>
    examRequests.createExamRequest(consultContext(app), me(request), input),
  )
  route(app, getExamRequest, async ({ examRequestId }, { request }) =>
    examRequests.readExamRequest(consultContext(app), me(request), examRequestId),
  )
}
