import type { FastifyInstance, FastifyRequest } from 'fastify'
import {
  getExpertFilters,
  getExpertProfile,
  getMyExpertSettings,
  listExperts,
  operatorListExperts,
  operatorResumeExpert,
  operatorSuspendExpert,
  updateMyExpertProfile,
  updateMyExpertServices,
} from '@contract/main/expert-profiles'
import * as experts from '../../domain/experts'
import { sendSubscribeNotices } from '../../domain/messages'
import { currentOperator, currentUser, optionalUserId } from '../../http/auth'
import { route } from '../../http/route'

/**
 * Main service: certified experts as patients meet them (contract/main/expert-profiles.ts, issue
 * 20). The directory and the profile are public (a token only adds 收藏 and 本人); the expert's own
 * settings need the expert role and the suspension calls the operator role, both checked before
 * the input is read (http/route.ts).
 */
export default async function mainExpertProfilesRoutes(app: FastifyInstance): Promise<void> {
  route(app, listExperts, async (input) => experts.listExperts(app.db, input))
  route(app, getExpertFilters, async () => experts.getExpertFilters(app.db))

  route(app, getMyExpertSettings, async (_input, { request }) =>
    experts.getMyExpertSettings(app.db, currentUser(request).id),
  )
  route(app, updateMyExpertProfile, async (input, { request }) =>
    experts.updateMyExpertProfile(app.db, currentUser(request).id, input, app.now()),
  )
  route(app, updateMyExpertServices, async (input, { request }) =>
    experts.updateMyExpertServices(app.db, currentUser(request).id, input, app.now()),
  )

  // After /experts/me and /experts/filters in meaning; the router prefers static segments anyway.
  route(app, getExpertProfile, async ({ expertId }, { request }) =>
    experts.getExpertProfile(app.db, expertId, await optionalUserId(request)),
  )

  route(app, operatorListExperts, async (input, { request }) => {
    currentOperator(request)
    const { keyword, suspended, ...query } = input
    return experts.operatorListExperts(app.db, { keyword, suspended }, query)
  })
  // The subscribe message after the commit (sendSubscribeNotices never fails the call).
  const suspension = async (
    request: FastifyRequest,
    expertId: string,
    change: { suspend: true; reason: string } | { suspend: false },
  ) => {
    const done = await experts.setSuspension(
      app.db,
      currentOperator(request).id,
      expertId,
      change,
      app.now(),
    )
    await sendSubscribeNotices(app.providers.subscribe, request.log, done.notices)
    return done.expert
  }
  route(app, operatorSuspendExpert, async ({ expertId, reason }, { request }) =>
    suspension(request, expertId, { suspend: true, reason }),
  )
  route(app, operatorResumeExpert, async ({ expertId }, { request }) =>
    suspension(request, expertId, { suspend: false }),
  )
}
