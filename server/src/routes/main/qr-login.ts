import type { FastifyInstance } from 'fastify'
import {
  answerQrLogin,
  createQrLogin,
  getQrLoginRequest,
  pollQrLogin,
  scanQrLogin,
} from '@contract/main/qr-login'
import { recordAudit } from '../../domain/audit'
import * as qrLogin from '../../domain/qr-login'
import { currentUser } from '../../http/auth'
import { clientOf } from '../../http/client'
import { route } from '../../http/route'

/** Main service, scan login: a desktop browser shows a QR code, a signed-in phone confirms it. */
export default async function mainQrLoginRoutes(app: FastifyInstance): Promise<void> {
  route(app, createQrLogin, async (_input, { request }) =>
    qrLogin.createQrLogin(
      app.db,
      { userAgent: request.headers['user-agent'], ip: request.ip },
      app.now(),
    ),
  )

  route(app, pollQrLogin, async ({ id, pollSecret }, { request }) => {
    const now = app.now()
    const answer = await qrLogin.pollQrLogin(app.db, { id, pollSecret }, now)
    // The desktop's sign-in happens here, at delivery: the log names the desktop, not the phone.
    if (answer.session) {
      await recordAudit(app.db, {
        userId: answer.session.user.id,
        kind: 'login',
        client: clientOf(request),
        now,
        detail: '扫码',
      })
    }
    return answer
  })

  route(app, scanQrLogin, async ({ id, content }, { request }) =>
    qrLogin.scanQrLogin(
      app.db,
      { id, content, userId: currentUser(request).id, client: clientOf(request) },
      app.now(),
    ),
  )

  route(app, getQrLoginRequest, async ({ id, ticket }, { request }) =>
    qrLogin.getQrRequest(
      app.db,
      { id, ticket, userId: currentUser(request).id, client: clientOf(request) },
      app.now(),
    ),
  )

  route(app, answerQrLogin, async ({ id, approve, ticket }, { request }) => {
    const { id: userId } = currentUser(request)
    const now = app.now()
    await qrLogin.answerQrLogin(app.db, { id, userId, approve, ticket }, now)
    if (approve) {
      await recordAudit(app.db, { userId, kind: 'qr-confirm', client: clientOf(request), now })
    }
    return { ok: true as const }
  })
}
