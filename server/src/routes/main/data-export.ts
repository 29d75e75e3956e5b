import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod/mini'
import { ErrorEnvelopeSchema } from '@contract/envelope'
import {
  DATA_EXPORT_DOWNLOAD_PATH,
  demoLatestExportSms,
  listDataExports,
  requestDataExport,
} from '@contract/main/data-export'
import * as dataExport from '../../domain/data-export'
import { currentUser } from '../../http/auth'
import { clientOf } from '../../http/client'
import { notFound } from '../../http/errors'
import { route } from '../../http/route'
import { readOutbox, SMS_NOTICE_PURPOSE } from '../../providers/sms'

/** Main service: 导出我的数据 (contract/main/data-export.ts; domain/data-export). Issue 24. */
export default async function mainDataExportRoutes(app: FastifyInstance): Promise<void> {
  /**
   * The origin the SMS link starts with: PUBLIC_URL, or outside production the origin this request
   * came to (a demo on a laptop); in production without PUBLIC_URL the link is a path only.
   */
  const linkOrigin = (request: FastifyRequest) =>
    app.config.publicUrl ?? (app.config.production ? null : `${request.protocol}://${request.host}`)

  route(app, listDataExports, async (_input, { request }) =>
    dataExport.listDataExports(app.db, app.personalCipher, currentUser(request).id, app.now()),
  )

  route(app, requestDataExport, async (input, { request }) =>
    dataExport.requestDataExport(
      { db: app.db, cipher: app.personalCipher, now: app.now, jobs: app.jobs },
      currentUser(request).id,
      input,
      clientOf(request),
      linkOrigin(request),
    ),
  )

  // Demo mode only (the demo's outbox stands in for the phone); outside it the route does not exist.
  if (app.config.demoMode) {
    route(app, demoLatestExportSms, async ({ mobile }) => {
      const notices = await readOutbox(app.db, mobile, { purposes: [SMS_NOTICE_PURPOSE] })
      const sent = notices
        .filter((notice) => notice.code.includes(DATA_EXPORT_DOWNLOAD_PATH))
        .at(-1)
      if (!sent) throw notFound('没有发往该手机号的导出短信')
      return { text: sent.code, sentAt: sent.created_at }
    })
  }

  app.route({
    method: 'GET',
    url: DATA_EXPORT_DOWNLOAD_PATH,
    schema: {
      summary: '下载导出的数据（application/zip；短信中的一次性链接，24 小时内有效）',
      tags: ['main'],
      querystring: z.object({ token: z.string().check(z.minLength(1), z.maxLength(128)) }),
      response: { '4xx': ErrorEnvelopeSchema, '5xx': ErrorEnvelopeSchema },
    },
    handler: async (request, reply) => {
      const { token } = request.query as { token: string }
      const download = await dataExport.takeDownload(
        { db: app.db, store: app.store, now: app.now },
        token,
        clientOf(request),
      )
      // One use: the archive goes once the response is over, whole or cut off.
      reply.raw.once('close', () => {
        download.done().catch((error: unknown) => {
          request.log.warn({ err: error }, 'data export archive not deleted after download')
        })
      })
      return reply
        .header('content-type', 'application/zip')
        .header('content-length', String(download.size))
        .header('content-disposition', `attachment; filename="${download.fileName}"`)
        .header('cache-control', 'private, no-store')
        .header('referrer-policy', 'no-referrer')
        .send(download.body)
    },
  })
}
