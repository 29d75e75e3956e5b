import type { FastifyInstance } from 'fastify'
import {
  CONSENT_MESSAGES,
  CONSENT_TEXT_VERSIONS,
  listConsents,
  recordConsent,
  withdrawConsent,
} from '@contract/main/consents'
import * as consents from '../../domain/consents'
import { findCurrentPolicy } from '../../domain/policies'
import { currentUser } from '../../http/auth'
import { badRequest } from '../../http/errors'
import { route } from '../../http/route'

/**
 * Main service, 隐私与授权 (contract/main/consents.ts, issue 24): the caller's consent ledger, 撤回,
 * and the consents the app itself asks for (a policy accepted again after it changed, subscribe
 * messages). The ledger's rules are in domain/consents.
 */
export default async function mainConsentRoutes(app: FastifyInstance): Promise<void> {
  route(app, listConsents, async (_input, { request }) =>
    consents.listConsents(app.db, app.personalCipher, currentUser(request).id),
  )

  route(app, withdrawConsent, async (input, { request }) =>
    consents.withdraw(app.db, app.personalCipher, currentUser(request).id, input, app.now()),
  )

  route(app, recordConsent, async (input, { request }) => {
    const userId = currentUser(request).id
    // A policy's version must be the one in force: agreeing to words nobody showed is no consent.
    if (input.purpose === 'subscribe') {
      if (input.version !== CONSENT_TEXT_VERSIONS.subscribe)
        throw badRequest(CONSENT_MESSAGES.outdated)
    } else {
      const policy = await findCurrentPolicy(app.db, input.purpose)
      if (!policy || policy.version !== input.version) throw badRequest(CONSENT_MESSAGES.outdated)
    }
    // One subscribe consent covers every notice kind: withdrawn, none is sent (domain/messages).
    const targetId = null
    await consents.writeConsent(
      app.db,
      {
        userId,
        purpose: input.purpose,
        version: input.version,
        targetId,
        channel: input.channel,
      },
      app.now(),
    )
    const { groups } = await consents.listConsents(app.db, app.personalCipher, userId)
    const item = groups
      .flatMap((group) => group.items)
      .find(
        (it) => it.purpose === input.purpose && it.targetId === targetId && it.subject === '本人',
      )
    return { item: item! }
  })
}
