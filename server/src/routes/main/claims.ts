import type { FastifyInstance } from 'fastify'
import {
  confirmClaim,
  issueExamQrCode,
  lookupExamClaim,
  sendClaimCode,
} from '@contract/main/claims'
import * as claims from '../../domain/claims/claims'
import { currentUser } from '../../http/auth'
import { route } from '../../http/route'

/**
 * Main service, 影像查询 and claims: find an exam by hospital + 检查号 + 姓名 (or a scanned film-bag
 * code, routes/scan/codes.ts), prove the phone the hospital recorded, and the exam is the caller's.
 * Also the owner's 5-minute exam QR code.
 */
export default async function mainClaimsRoutes(app: FastifyInstance): Promise<void> {
  const context = () => ({ db: app.db, cipher: app.personalCipher, now: app.now() })

  route(app, lookupExamClaim, async (input, { request }) =>
    claims.lookupExamClaim(context(), {
      ...input,
      userId: currentUser(request).id,
      ip: request.ip,
    }),
  )

  route(app, sendClaimCode, async ({ ticket }, { request }) =>
    claims.sendClaimCode(
      { ...context(), sms: app.providers.sms },
      { ticket, userId: currentUser(request).id, ip: request.ip },
    ),
  )

  route(app, confirmClaim, async ({ ticket, code }, { request }) =>
    claims.confirmClaim(context(), {
      ticket,
      code,
      userId: currentUser(request).id,
      ip: request.ip,
    }),
  )

  route(app, issueExamQrCode, async ({ examId }, { request }) =>
    claims.issueExamQr(context(), { examId, userId: currentUser(request).id }),
  )
}
