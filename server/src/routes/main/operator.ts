import multipart from '@fastify/multipart'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod/mini'
import { envelope, ErrorEnvelopeSchema } from '@contract/envelope'
import {
  OPERATOR_FILES_PATH,
  OPERATOR_VIDEO_MAX_BYTES,
  OperatorFileKindSchema,
  OperatorFileSchema,
  operatorGetArticle,
  operatorIssueHospitalKey,
  operatorListActions,
  operatorListArticles,
  operatorListArticleTypes,
  operatorListFeatures,
  operatorListFeedback,
  operatorListHospitalKeys,
  operatorListHospitals,
  operatorListVideos,
  operatorReplyFeedback,
  operatorRevokeHospitalKey,
  operatorSaveArticle,
  operatorSaveHospital,
  operatorSaveVideo,
  operatorSetArticleState,
  operatorSetFeature,
  operatorSetVideoState,
} from '@contract/main/operator'
import { operatorIssueRoomCode } from '@contract/scan/hospital-reports'
import { issueRoomCode } from '../../domain/claims/rooms'
import { listOperatorActions, OPERATOR_PAGE_SIZE } from '../../domain/operator/audit'
import * as content from '../../domain/operator/content'
import { listFeedback } from '../../domain/feedback'
import { replyFeedback } from '../../domain/operator/feedback'
import * as settings from '../../domain/operator/settings'
import { authenticate, currentOperator, currentUser } from '../../http/auth'
import { ok } from '../../http/envelope'
import { readOneFile } from '../../http/one-file'
import { route } from '../../http/route'

export const OPERATOR_FILE_NONE = '请选择要上传的文件'

/**
 * Main service: operators' calls (contract/main/operator.ts). Each handler starts with
 * currentOperator, so anyone else gets 403 仅运营人员可以使用此功能 before anything is read; each
 * change writes the operators' audit log in the same transaction (domain/operator/audit.ts).
 */
export default async function mainOperatorRoutes(app: FastifyInstance): Promise<void> {
  route(app, operatorListArticleTypes, async (_input, { request }) => {
    currentOperator(request)
    return content.listOperatorArticleTypes(app.db)
  })
  route(app, operatorListArticles, async (input, { request }) => {
    currentOperator(request)
    return content.listOperatorArticles(app.db, input)
  })
  route(app, operatorGetArticle, async (input, { request }) => {
    currentOperator(request)
    return content.getOperatorArticle(app.db, input.articleId)
  })
  route(app, operatorSaveArticle, async (input, { request }) =>
    content.saveArticle(app.db, currentOperator(request).id, input, app.now()),
  )
  route(app, operatorSetArticleState, async (input, { request }) =>
    content.setArticleState(
      app.db,
      currentOperator(request).id,
      input.articleId,
      input.state,
      app.now(),
    ),
  )

  route(app, operatorListVideos, async (input, { request }) => {
    currentOperator(request)
    return content.listOperatorVideos(app.db, input)
  })
  route(app, operatorSaveVideo, async (input, { request }) =>
    content.saveVideo(app.db, currentOperator(request).id, input, app.now()),
  )
  route(app, operatorSetVideoState, async (input, { request }) =>
    content.setVideoState(
      app.db,
      currentOperator(request).id,
      input.videoId,
      input.state,
      app.now(),
    ),
  )

  route(app, operatorListFeedback, async (input, { request }) => {
    currentOperator(request)
    return listFeedback(
      app.db,
      input.status ? { status: input.status } : {},
      input,
      OPERATOR_PAGE_SIZE,
    )
  })
  route(app, operatorReplyFeedback, async (input, { request }) =>
    replyFeedback(app.db, currentOperator(request).id, input, app.now()),
  )

  route(app, operatorListFeatures, async (_input, { request }) => {
    currentOperator(request)
    return settings.listAllFeatures(app.db)
  })
  route(app, operatorSetFeature, async (input, { request }) => {
    await settings.setFeature(app.db, currentOperator(request).id, input, app.now())
    return { ok: true as const }
  })

  route(app, operatorListHospitals, async (_input, { request }) => {
    currentOperator(request)
    return settings.listOperatorHospitals(app.db)
  })
  route(app, operatorSaveHospital, async (input, { request }) =>
    settings.saveHospital(app.db, currentOperator(request).id, input, app.now()),
  )
  route(app, operatorListHospitalKeys, async (input, { request }) => {
    currentOperator(request)
    return settings.listKeysOf(app.db, input.hospitalId)
  })
  route(app, operatorIssueRoomCode, async (input, { request }) => {
    currentOperator(request)
    // Printing a code changes nothing (it names what the room list shows): no audit line.
    return issueRoomCode(app.db, { ...input, origin: `${request.protocol}://${request.host}` })
  })
  route(app, operatorIssueHospitalKey, async (input, { request }) =>
    settings.issueKey(app.db, currentOperator(request).id, input.hospitalId, app.now()),
  )
  route(app, operatorRevokeHospitalKey, async (input, { request }) =>
    settings.revokeKey(
      app.db,
      currentOperator(request).id,
      input.hospitalId,
      input.keyId,
      app.now(),
    ),
  )

  route(app, operatorListActions, async (input, { request }) => {
    currentOperator(request)
    return listOperatorActions(app.db, input)
  })

  // Covers, posters and videos: one file per request, multipart field `file`.
  await app.register(async (files) => {
    await files.register(multipart, {
      limits: { fileSize: OPERATOR_VIDEO_MAX_BYTES, files: 1, fields: 0, parts: 2 },
    })
    files.route({
      method: 'POST',
      url: OPERATOR_FILES_PATH,
      schema: {
        summary:
          '运营：上传封面、海报（JPG/PNG，重新编码）或视频（MP4，不超过 50 MB）；multipart 字段 file',
        tags: ['main'],
        consumes: ['multipart/form-data'],
        security: [{ bearerAuth: [] }],
        querystring: z.object({ kind: OperatorFileKindSchema }),
        response: {
          200: envelope(OperatorFileSchema),
          '4xx': ErrorEnvelopeSchema,
          '5xx': ErrorEnvelopeSchema,
        },
      },
      onRequest: async (request: FastifyRequest) => {
        await authenticate(request)
        currentOperator(request)
      },
      handler: async (request) => {
        const { kind } = request.query as { kind: 'cover' | 'poster' | 'video' }
        const bytes = await readOneFile(request, {
          none: OPERATOR_FILE_NONE,
          tooLarge: content.VIDEO_TOO_LARGE,
          several: '一次只能上传一个文件',
        })
        return ok(
          await content.uploadOperatorFile(
            app.db,
            app.store,
            currentUser(request).id,
            kind,
            bytes,
            app.now(),
          ),
        )
      },
    })
  })
}
