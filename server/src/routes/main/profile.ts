import type { FastifyInstance, FastifyRequest } from 'fastify'
import {
  addTrack,
  appealIdCard,
  bindIdCard,
  bindPhone,
  deleteAccount,
  getIdCardByPhone,
  getNoticeSettings,
  listBoundCards,
  listIdCardAppeals,
  saveNoticeSettings,
  verifyIdCard,
} from '@contract/main/account'
import { createFieldCipher } from '../../crypto/field-cipher'
import { findSessionByAccessToken, findUserById, SESSION_EXPIRED } from '../../domain/identity'
import * as account from '../../domain/profile/account'
import * as idCards from '../../domain/profile/id-cards'
import * as notices from '../../domain/profile/notice-settings'
import * as realName from '../../domain/profile/real-name'
import * as tracks from '../../domain/profile/tracks'
import { recordAudit } from '../../domain/audit'
import { phoneChangedNotice } from '../../domain/security-notices'
import { bearerToken, currentUser } from '../../http/auth'
import { clientOf } from '../../http/client'
import { sendNotice } from '../../http/notices'
import { unauthorized } from '../../http/errors'
import { route } from '../../http/route'

/**
 * Main service, account family, profile side: phone binding, ID card, notice settings, analytics
 * events and account deletion. (Login, registration, codes, password and the profile read are the
 * identity side's, in main/account.ts.)
 */
export default async function mainProfileRoutes(app: FastifyInstance): Promise<void> {
  const cipher = createFieldCipher(app.config.idCardKey)
  if (app.config.idCardKeyIsDevelopment) {
    app.log.warn(
      'ID_CARD_KEY is not set: ID card numbers are encrypted with the public development key. Set ID_CARD_KEY (openssl rand -base64 32) before storing real data.',
    )
  }

  route(app, bindPhone, async (input, { request }) => {
    const { id, sessionId } = currentUser(request)
    const before = await findUserById(app.db, id)
    const now = app.now()
    const profile = await account.bindPhone(app.db, id, input, now, {
      keepSessionId: sessionId,
      ip: request.ip,
    })
    await recordAudit(app.db, {
      userId: id,
      kind: 'phone-rebind',
      client: clientOf(request),
      now,
      detail: before?.mobile ? '更换手机号' : '绑定手机号',
    })
    if (before?.mobile) {
      await sendNotice(app, request, before.mobile, phoneChangedNotice(input.mobile, now))
    }
    return profile
  })

  route(app, bindIdCard, async (input, { request }) => {
    const { id } = currentUser(request)
    const now = app.now()
    const card = await idCards.bindIdCard(app.db, cipher, id, input, now)
    await recordAudit(app.db, { userId: id, kind: 'id-card-bind', client: clientOf(request), now })
    return card
  })

  route(app, verifyIdCard, async (_input, { request }) =>
    realName.verifyIdCard(
      app.db,
      cipher,
      app.providers.realName,
      currentUser(request).id,
      app.now(),
    ),
  )

  route(app, appealIdCard, async (input, { request }) => {
    const { id } = currentUser(request)
    const now = app.now()
    const { appeal, created } = await realName.appealIdCard(app.db, cipher, id, input, now)
    if (created) {
      await recordAudit(app.db, {
        userId: id,
        kind: 'id-card-appeal',
        client: clientOf(request),
        now,
      })
      // For the operator's queue; the appeal's content stays in the table, not in the log.
      request.log.info({ appealId: appeal.id }, 'id card appeal recorded')
    }
    return appeal
  })

  route(app, listIdCardAppeals, async (_input, { request }) =>
    realName.listAppeals(app.db, cipher, currentUser(request).id),
  )

  route(app, getIdCardByPhone, async ({ mobile }, { request }) => {
    const user = await findUserById(app.db, currentUser(request).id)
    if (!user) throw unauthorized(SESSION_EXPIRED)
    return idCards.findBoundCardByPhone(app.db, cipher, user, mobile)
  })

  route(app, listBoundCards, async (_input, { request }) =>
    idCards.listBoundCards(app.db, cipher, currentUser(request).id),
  )

  route(app, deleteAccount, async ({ code }, { request }) => {
    const { id } = currentUser(request)
    const now = app.now()
    await account.deleteAccount(
      app.db,
      id,
      { code, ip: request.ip },
      { uploadDir: app.config.uploadDir },
      now,
    )
    // Kept with the anonymised account (see server/README.md): the security record outlives it.
    await recordAudit(app.db, {
      userId: id,
      kind: 'account-delete',
      client: clientOf(request),
      now,
    })
    request.log.info('account deleted')
    return { ok: true as const }
  })

  route(app, getNoticeSettings, async (_input, { request }) =>
    notices.getNoticeSettings(app.db, currentUser(request).id),
  )

  route(app, saveNoticeSettings, async (input, { request }) =>
    notices.saveNoticeSettings(app.db, currentUser(request).id, input, app.now()),
  )

  route(app, addTrack, async ({ event, page }, { request }) => {
    const userId = await optionalUserId(app, request)
    await tracks.addTrack(app.db, { event, page, userId, ip: request.ip }, app.now())
    return { ok: true as const }
  })
}

/**
 * The caller of an endpoint that works with or without a token. A stale token is not an error
 * there: the event is recorded as anonymous rather than sending the person to the login page.
 */
async function optionalUserId(
  app: FastifyInstance,
  request: FastifyRequest,
): Promise<string | undefined> {
  const token = bearerToken(request)
  if (!token) return undefined
  const session = await findSessionByAccessToken(app.db, token, app.now())
  return session?.user.id
}
