import type { FastifyInstance } from 'fastify'
import { mergeUser, modifyUser } from '@contract/sso/auth'
import * as account from '../../domain/profile/account'
import { currentUser } from '../../http/auth'
import { route } from '../../http/route'

/** Sign-on service, user family: profile edits and account merge. */
export default async function ssoUserRoutes(app: FastifyInstance): Promise<void> {
  route(app, modifyUser, async (input, { request }) =>
    account.modifyUser(app.db, currentUser(request).id, input, app.now()),
  )

  route(app, mergeUser, async (input, { request }) =>
    account.mergeUser(app.db, currentUser(request).id, input, app.now()),
  )
}
