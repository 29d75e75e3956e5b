import type { FastifyInstance } from 'fastify'
import { mergeUser, modifyUser } from '@contract/sso/auth'
import * as account from '../../domain/profile/account'
import { recordAudit } from '../../domain/audit'
import { accountMergedNotice } from '../../domain/security-notices'
import { currentUser } from '../../http/auth'
import { clientOf } from '../../http/client'
import { sendNotice } from '../../http/notices'
import { route } from '../../http/route'

/** Sign-on service, user family: profile edits and account merge. */
export default async function ssoUserRoutes(app: FastifyInstance): Promise<void> {
  route(app, modifyUser, async (input, { request }) =>
    account.modifyUser(app.db, currentUser(request).id, input, app.now()),
  )

  route(app, mergeUser, async (input, { request }) => {
    const { id, sessionId } = currentUser(request)
    const now = app.now()
    const profile = await account.mergeUser(app.db, id, input, now, {
      keepSessionId: sessionId,
      ip: request.ip,
    })
    await recordAudit(app.db, { userId: id, kind: 'account-merge', client: clientOf(request), now })
    await sendNotice(app, request, input.mobile, accountMergedNotice(now))
    return profile
  })
}
