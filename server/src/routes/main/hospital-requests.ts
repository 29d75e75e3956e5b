import type { FastifyInstance } from 'fastify'
import {
  createHospitalRequest,
  listMyHospitalRequests,
  operatorDeclineHospitalRequest,
  operatorListHospitalRequests,
  operatorResolveHospitalRequest,
} from '@contract/main/hospital-requests'
import * as experts from '../../domain/experts'
import { currentOperator, currentUser } from '../../http/auth'
import { route } from '../../http/route'

/**
 * Main service: requests to add a hospital that an expert applicant could not find
 * (contract/main/hospital-requests.ts, issue 20). Asking needs a sign-in; settling is operators'.
 */
export default async function mainHospitalRequestsRoutes(app: FastifyInstance): Promise<void> {
  route(app, createHospitalRequest, async (input, { request }) =>
    experts.createRequest(app.db, currentUser(request).id, input, app.now()),
  )
  route(app, listMyHospitalRequests, async (_input, { request }) =>
    experts.listMyRequests(app.db, currentUser(request).id),
  )
  route(app, operatorListHospitalRequests, async (input, { request }) => {
    currentOperator(request)
    const { status, ...query } = input
    return experts.listRequests(app.db, status ? { status } : {}, query)
  })
  route(app, operatorResolveHospitalRequest, async (input, { request }) =>
    experts.settleRequest(
      app.db,
      currentOperator(request).id,
      input.requestId,
      { hospitalId: input.hospitalId },
      app.now(),
    ),
  )
  route(app, operatorDeclineHospitalRequest, async (input, { request }) =>
    experts.settleRequest(
      app.db,
      currentOperator(request).id,
      input.requestId,
      { declineReason: input.reason },
      app.now(),
    ),
  )
}
