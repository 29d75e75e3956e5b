import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import {
  cancelGrant,
  createGrant,
  getShare,
  getSharedExam,
  getSharedGrant,
  getSharedReport,
  listGrants,
  listGrantViews,
  listReceivedGrants,
  listRecordViews,
  openShare,
} from '@contract/main/grants'
import { sendSubscribeNotices } from '../../domain/messages'
import * as grants from '../../domain/sharing/grants'
import * as shares from '../../domain/sharing/shares'
import * as views from '../../domain/sharing/views'
import { bearerToken, currentUser } from '../../http/auth'
import { ApiError } from '../../http/errors'
import { route } from '../../http/route'

/**
 * Main service, authorisation records family (contract/main/grants.ts, issue 9): the owner's
 * grants and their view log, 共享给我的, link visitors, and reads through a grant. Who may read
 * what is decided in domain/records/access.ts and domain/sharing/shares.ts.
 */
export const LINK_ORIGIN_MISSING =
  '服务器未配置对外访问地址（PUBLIC_URL），暂时无法生成分享链接，请联系管理员'

export default async function mainGrantsRoutes(app: FastifyInstance): Promise<void> {
  /**
   * Where a share link points: PUBLIC_URL when set; else, outside production (a demo, a LAN), the
   * address this request came to; in production nothing, since a Host header is the caller's own.
   */
  const linkOrigin = (request: FastifyRequest): string | null => {
    if (app.config.publicUrl) return app.config.publicUrl
    if (app.config.production) return null
    return `${request.protocol}://${request.host}`
  }

  const viewLog = (request: FastifyRequest): views.ViewLogContext => ({
    db: app.db,
    cipher: app.personalCipher,
    subscribe: app.providers.subscribe,
    geo: app.providers.geo,
    log: request.log,
  })

  route(app, createGrant, async (input, { request }) => {
    // Checked before anything is written: a link nobody can open must not become a grant.
    const origin = linkOrigin(request)
    if (input.audience === 'link' && origin === null) {
      // The person sees 服务暂不可用 (a 5xx says nothing they could act on); the operator, why.
      request.log.warn(LINK_ORIGIN_MISSING)
      throw new ApiError(503, LINK_ORIGIN_MISSING)
    }
    const created = await grants.createGrant(
      app.db,
      app.personalCipher,
      currentUser(request).id,
      input,
      app.now(),
    )
    await sendSubscribeNotices(app.providers.subscribe, request.log, created.notices)
    if (!created.link) return { grant: created.grant, link: null }
    const path = `/pages/share/share?token=${created.link.token}`
    return {
      grant: created.grant,
      link: {
        token: created.link.token,
        path,
        url: `${origin}${path}`,
        pickupCode: created.link.pickupCode,
        title: created.link.title,
      },
    }
  })

  route(app, listGrants, async (input, { request }) =>
    grants.listGrants(app.db, app.personalCipher, currentUser(request).id, input, app.now()),
  )

  route(app, cancelGrant, async ({ grantId }, { request }) =>
    grants.cancelGrant(app.db, app.personalCipher, currentUser(request).id, grantId, app.now()),
  )

  route(app, listGrantViews, async ({ grantId }, { request }) => {
    await grants.ownedGrant(app.db, app.personalCipher, currentUser(request).id, grantId)
    return views.listGrantViews(app.db, app.personalCipher, grantId)
  })

  route(app, listRecordViews, async ({ examId }, { request }) =>
    views.listRecordViews(app.db, app.personalCipher, currentUser(request).id, examId),
  )

  route(app, listReceivedGrants, async (_input, { request }) =>
    grants.listReceivedGrants(app.db, app.personalCipher, currentUser(request).id, app.now()),
  )

  // The preview counts nothing (a browser or WeChat fetching the link is not a view).
  route(app, getShare, async ({ token }) =>
    shares.previewShare(app.db, app.personalCipher, token, app.now()),
  )

  route(app, openShare, async (input) =>
    shares.openShare(app.db, app.personalCipher, input, app.now()),
  )

  // The /shared reads take a grantee's login token or a visitor's yxs_ token, which the generic
  // `auth: true` check (login sessions only) would refuse: grantReader checks both, at every request.
  // Their answers are never kept by a browser or a proxy: a revoked grant must not stay readable
  // from a cache (the same as the DICOMweb reads through a grant).
  const readerOf = (
    { request, reply }: { request: FastifyRequest; reply: FastifyReply },
    grantId: string,
  ) => {
    reply.header('cache-control', 'private, no-store')
    return shares.grantReader(app.db, app.personalCipher, bearerToken(request), grantId, app.now())
  }

  route(app, { ...getSharedGrant, auth: false }, async ({ grantId }, context) => {
    const reader = await readerOf(context, grantId)
    return grants.describeReceived(
      app.db,
      app.personalCipher,
      reader.grant,
      reader.watermark,
      app.now(),
    )
  })

  route(app, { ...getSharedExam, auth: false }, async ({ grantId, examId }, { request, reply }) => {
    const reader = await readerOf({ request, reply }, grantId)
    const detail = await shares.sharedExam(app.db, app.personalCipher, reader, examId)
    await views.noteView(
      viewLog(request),
      {
        grantId,
        viewerSession: reader.caller.sessionId,
        viewerUserId: reader.viewerUserId,
        recordKind: 'exam',
        recordId: examId,
        examId,
        ip: request.ip,
      },
      app.now(),
    )
    return detail
  })

  route(
    app,
    { ...getSharedReport, auth: false },
    async ({ grantId, reportId }, { request, reply }) => {
      const reader = await readerOf({ request, reply }, grantId)
      const { detail, examId } = await shares.sharedReport(
        app.db,
        app.personalCipher,
        reader,
        reportId,
      )
      await views.noteView(
        viewLog(request),
        {
          grantId,
          viewerSession: reader.caller.sessionId,
          viewerUserId: reader.viewerUserId,
          recordKind: 'report',
          recordId: reportId,
          examId,
          ip: request.ip,
        },
        app.now(),
      )
      return detail
    },
  )
}
