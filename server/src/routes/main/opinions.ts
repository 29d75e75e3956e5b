import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod/mini'
import { ErrorEnvelopeSchema } from '@contract/envelope'
import {
  getOpinion,
  getOpinionWorkspace,
  OPINION_MESSAGES,
  saveOpinionDraft,
  signOpinion,
  verifyOpinion,
} from '@contract/main/opinions'
import { consultContext } from '../../consult-context'
import * as ai from '../../domain/ai'
import * as opinions from '../../domain/opinions'
import { authenticate, currentUser } from '../../http/auth'
import { ApiError } from '../../http/errors'
import { route } from '../../http/route'

/**
 * Main service: the expert's written opinion (contract/main/opinions.ts, issue 23): the draft and
 * its signature, the signed opinion for the patient, its PDF, and the public verification of a
 * PDF's code. The templates are the report model service's (routes/report-model).
 */
export default async function mainOpinionsRoutes(app: FastifyInstance): Promise<void> {
  const ctx = (): opinions.OpinionContext => ({
    ...consultContext(app),
    // The AI drafts this expert may take into this consultation's opinion (domain/ai decides).
    aiDrafts: (consultationId, expertId) =>
      ai.expertDrafts(app.db, expertId, consultationId, app.now()),
  })
  const me = (request: FastifyRequest) => currentUser(request).id

  route(app, getOpinionWorkspace, async ({ consultationId }, { request }) =>
    opinions.workspace(ctx(), me(request), consultationId),
  )
  route(app, saveOpinionDraft, async (input, { request }) =>
    opinions.saveDraft(ctx(), me(request), input),
  )
  route(app, signOpinion, async (input, { request }) =>
    opinions.sign(ctx(), me(request), input, request.ip),
  )
  route(app, getOpinion, async ({ opinionId }, { request }) =>
    opinions.readOpinion(ctx(), me(request), opinionId),
  )
  route(app, verifyOpinion, async ({ code }, { request }) =>
    opinions.verify(app.db, code, request.ip, app.now()),
  )

  /**
   * Where the PDF's QR code points: the report page's verification, on PUBLIC_URL; outside
   * production (a demo, a LAN) the address the request came to, as share links do; else none (the
   * code alone still verifies in the app).
   */
  const verifyUrl = (request: FastifyRequest, code: string) => {
    const origin =
      app.config.publicUrl ??
      (app.config.production ? null : `${request.protocol}://${request.host}`)
    return origin ? `${origin.replace(/\/+$/, '')}/pages/report/report?verify=${code}` : null
  }

  app.route({
    method: 'GET',
    url: '/main/opinions/:opinionId/pdf',
    schema: {
      summary: '会诊报告 PDF（application/pdf；仅该咨询的患者与签署专家）',
      tags: ['main'],
      security: [{ bearerAuth: [] }],
      params: z.object({ opinionId: z.string().check(z.maxLength(64)) }),
      response: { '4xx': ErrorEnvelopeSchema, '5xx': ErrorEnvelopeSchema },
    },
    onRequest: async (request: FastifyRequest) => authenticate(request),
    handler: async (request, reply) => {
      const { opinionId } = request.params as { opinionId: string }
      const opinion = await opinions.readOpinion(ctx(), me(request), opinionId)
      const fontPath = app.config.pdfFont
      if (!fontPath) throw new ApiError(503, OPINION_MESSAGES.pdfNoFont)
      const pdf = await opinions.opinionPdf(opinion, {
        fontPath,
        verifyUrl: verifyUrl(request, opinion.verifyCode),
      })
      return reply
        .header('content-type', 'application/pdf')
        .header('content-length', String(pdf.length))
        .header('content-disposition', `attachment; filename="opinion-${opinion.verifyCode}.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(pdf)
    },
  })
}
