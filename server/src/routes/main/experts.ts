import multipart from '@fastify/multipart'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod/mini'
import { REPORT_PHOTO_MAX_BYTES } from '@contract/main/dicom-upload'
import { envelope, ErrorEnvelopeSchema } from '@contract/envelope'
import {
  deleteExpertPhoto,
  EXPERT_PHOTO_UPLOAD_PATH,
  EXPERT_PHOTOS_PATH,
  ExpertApplicationSchema,
  ExpertPhotoKindSchema,
  type ExpertPhotoKind,
  getMyExpertApplication,
  operatorApproveExpert,
  operatorGetExpertApplication,
  operatorListExpertApplications,
  operatorRejectExpert,
  saveExpertDraft,
  submitExpertApplication,
  withdrawExpertApplication,
} from '@contract/main/experts'
import * as experts from '../../domain/experts'
import type { Decision } from '../../domain/experts'
import { sendSubscribeNotices } from '../../domain/messages'
import { authenticate, currentOperator, currentUser, hasRole } from '../../http/auth'
import { ok } from '../../http/envelope'
import { readOneFile } from '../../http/one-file'
import { route } from '../../http/route'

export const EXPERT_PHOTO_NONE = '请选择要上传的证书照片'
export const EXPERT_PHOTO_TOO_LARGE = '单张照片不能超过 10 MB，请压缩后重试'

/**
 * Main service: expert certification (contract/main/experts.ts, issue 20). The applicant's calls
 * need only a sign-in (anyone may apply); the review calls are operators' (role checked before the
 * input is read, http/route.ts).
 */
export default async function mainExpertsRoutes(app: FastifyInstance): Promise<void> {
  const cipher = app.personalCipher

  route(app, getMyExpertApplication, async (_input, { request }) =>
    experts.getMyApplication(app.db, cipher, currentUser(request).id),
  )
  route(app, saveExpertDraft, async (input, { request }) =>
    experts.saveDraft(app.db, cipher, currentUser(request).id, input, app.now()),
  )
  route(app, submitExpertApplication, async (input, { request }) =>
    experts.submit(app.db, cipher, currentUser(request).id, input, app.now()),
  )
  route(app, withdrawExpertApplication, async (_input, { request }) =>
    experts.withdraw(app.db, cipher, app.store, currentUser(request).id, app.now()),
  )
  route(app, deleteExpertPhoto, async (input, { request }) =>
    experts.removePhoto(
      app.db,
      cipher,
      app.store,
      currentUser(request).id,
      input.photoId,
      app.now(),
    ),
  )

  route(app, operatorListExpertApplications, async (input, { request }) => {
    currentOperator(request)
    const { status, ...query } = input
    return experts.listApplications(app.db, cipher, status ? { status } : {}, query)
  })
  route(app, operatorGetExpertApplication, async (input, { request }) => {
    currentOperator(request)
    return experts.getApplication(app.db, cipher, input.applicationId)
  })
  // The subscribe message after the decision's commit (sendSubscribeNotices never fails the call).
  const decide = async (request: FastifyRequest, applicationId: string, decision: Decision) => {
    const decided = await experts.decide(
      app.db,
      cipher,
      currentOperator(request).id,
      applicationId,
      decision,
      app.now(),
    )
    await sendSubscribeNotices(app.providers.subscribe, request.log, decided.notices)
    return decided.application
  }
  route(app, operatorApproveExpert, async (input, { request }) =>
    decide(request, input.applicationId, { approve: true }),
  )
  route(app, operatorRejectExpert, async (input, { request }) =>
    decide(request, input.applicationId, { approve: false, reason: input.reason }),
  )

  // One certificate photo per request (the mini-program's uploadFile sends one): field `file`.
  await app.register(async (photos) => {
    await photos.register(multipart, {
      limits: { fileSize: REPORT_PHOTO_MAX_BYTES, files: 1, fields: 0, parts: 2 },
    })
    photos.route({
      method: 'POST',
      url: EXPERT_PHOTO_UPLOAD_PATH,
      schema: {
        summary:
          '上传认证照片（multipart 字段 file，?kind=practice-info|practice-registration|badge；JPG/PNG，不超过 10 MB；重新编码，去除 EXIF）',
        tags: ['main'],
        consumes: ['multipart/form-data'],
        security: [{ bearerAuth: [] }],
        querystring: z.object({ kind: ExpertPhotoKindSchema }),
        response: {
          200: envelope(ExpertApplicationSchema),
          '4xx': ErrorEnvelopeSchema,
          '5xx': ErrorEnvelopeSchema,
        },
      },
      onRequest: async (request: FastifyRequest) => authenticate(request),
      handler: async (request) => {
        const { kind } = request.query as { kind: ExpertPhotoKind }
        const bytes = await readOneFile(request, {
          none: EXPERT_PHOTO_NONE,
          tooLarge: EXPERT_PHOTO_TOO_LARGE,
          several: '一次只能上传一张照片',
        })
        return ok(
          await experts.addPhoto(
            app.db,
            cipher,
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

  // A certificate photo: its applicant and operators; anyone else 404 (never 403: it confirms nothing).
  app.route({
    method: 'GET',
    url: `${EXPERT_PHOTOS_PATH}/:photoId`,
    schema: {
      summary: '认证照片（image/jpeg；仅申请人和运营人员）',
      tags: ['main'],
      security: [{ bearerAuth: [] }],
      params: z.object({ photoId: z.string().check(z.maxLength(64)) }),
      response: { '4xx': ErrorEnvelopeSchema, '5xx': ErrorEnvelopeSchema },
    },
    onRequest: async (request: FastifyRequest) => authenticate(request),
    handler: async (request, reply) => {
      const { photoId } = request.params as { photoId: string }
      const user = currentUser(request)
      const photo = await experts.readPhoto(
        app.db,
        { userId: user.id, operator: hasRole(user, 'operator') },
        photoId,
      )
      const object = await app.store.get(photo.key)
      return reply
        .header('content-type', 'image/jpeg')
        .header('content-length', String(object.length))
        .header('cache-control', 'private, no-store')
        .send(object.body)
    },
  })
}
