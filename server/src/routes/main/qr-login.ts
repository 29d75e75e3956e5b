import type { FastifyInstance } from 'fastify'
import { answerQrLogin, createQrLogin, pollQrLogin, scanQrLogin } from '@contract/main/qr-login'
import * as qrLogin from '../../domain/qr-login'
import { currentUser } from '../../http/auth'
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

  route(app, pollQrLogin, async ({ id, pollSecret }) =>
    qrLogin.pollQrLogin(app.db, { id, pollSecret }, app.now()),
  )

  route(app, scanQrLogin, async ({ id }, { request }) =>
    qrLogin.scanQrLogin(app.db, { id, userId: currentUser(request).id }, app.now()),
  )

  route(app, answerQrLogin, async ({ id, approve }, { request }) => {
    await qrLogin.answerQrLogin(app.db, { id, userId: currentUser(request).id, approve }, app.now())
    return { ok: true as const }
  })
}
