import multipart from '@fastify/multipart'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod/mini'
import { REPORT_PHOTO_MAX_BYTES } from '@contract/main/dicom-upload'
import { envelope, ErrorEnvelopeSchema } from '@contract/envelope'
import {
  addFeedback,
  FEEDBACK_IMAGES_PATH,
  FeedbackImageSchema,
  listMyFeedback,
} from '@contract/main/feedback'
import * as feedback from '../../domain/feedback'
import { authenticate, currentUser } from '../../http/auth'
import { ok } from '../../http/envelope'
import { readOneFile } from '../../http/one-file'
import { route } from '../../http/route'

export const FEEDBACK_IMAGE_NONE = '请选择要上传的图片'
export const FEEDBACK_IMAGE_TOO_LARGE = '单张图片不能超过 10 MB，请压缩后重试'

/** Main service: feedback and its images (contract/main/feedback.ts). Issue 10. */
export default async function mainFeedbackRoutes(app: FastifyInstance): Promise<void> {
  route(app, addFeedback, async (input, { request }) =>
    feedback.addFeedback(app.db, currentUser(request).id, input, app.now()),
  )

  route(app, listMyFeedback, async (input, { request }) =>
    feedback.listFeedback(app.db, { userId: currentUser(request).id }, input),
  )

  // One image per request (the mini-program's uploadFile sends one): multipart field `file`.
  await app.register(async (images) => {
    await images.register(multipart, {
      limits: { fileSize: REPORT_PHOTO_MAX_BYTES, files: 1, fields: 0, parts: 2 },
    })
    images.route({
      method: 'POST',
      url: FEEDBACK_IMAGES_PATH,
      schema: {
        summary:
          '上传反馈图片（multipart 字段 file，一次一张，JPG/PNG，不超过 10 MB；重新编码，去除 EXIF）',
        tags: ['main'],
        consumes: ['multipart/form-data'],
        security: [{ bearerAuth: [] }],
        response: {
          200: envelope(FeedbackImageSchema),
          '4xx': ErrorEnvelopeSchema,
          '5xx': ErrorEnvelopeSchema,
        },
      },
      onRequest: async (request: FastifyRequest) => authenticate(request),
      handler: async (request) => {
        const bytes = await readOneFile(request, {
          none: FEEDBACK_IMAGE_NONE,
          tooLarge: FEEDBACK_IMAGE_TOO_LARGE,
          several: '一次只能上传一张图片',
        })
        return ok(
          await feedback.uploadFeedbackImage(
            app.db,
            app.store,
            currentUser(request).id,
            bytes,
            app.now(),
          ),
        )
      },
    })
  })

  // A feedback image, for its sender and operators only (the app fetches it with the token).
  app.route({
    method: 'GET',
    url: `${FEEDBACK_IMAGES_PATH}/:fileId`,
    schema: {
      summary: '反馈图片（image/jpeg；仅本人和运营人员）',
      tags: ['main'],
      security: [{ bearerAuth: [] }],
      params: z.object({ fileId: z.string().check(z.maxLength(64)) }),
      response: { '4xx': ErrorEnvelopeSchema, '5xx': ErrorEnvelopeSchema },
    },
    onRequest: async (request: FastifyRequest) => authenticate(request),
    handler: async (request, reply) => {
      const { fileId } = request.params as { fileId: string }
      const userId = currentUser(request).id
      const user = await app.db
        .selectFrom('users')
        .select('role')
        .where('id', '=', userId)
        .executeTakeFirst()
      const image = await feedback.readFeedbackImage(
        app.db,
        { userId, operator: user?.role === 'operator' },
        fileId,
      )
      const object = await app.store.get(image.key)
      return reply
        .header('content-type', 'image/jpeg')
        .header('content-length', String(object.length))
        .header('cache-control', 'private, max-age=86400')
        .send(object.body)
    },
  })
}
