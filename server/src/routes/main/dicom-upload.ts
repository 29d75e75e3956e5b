import multipart from '@fastify/multipart'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod/mini'
import { envelope, ErrorEnvelopeSchema } from '@contract/envelope'
import {
  cancelDicomUpload,
  DICOM_UPLOAD_CHUNK_BYTES,
  DICOM_UPLOAD_CHUNK_PATH,
  deleteDicomInstance,
  deleteDicomReport,
  deleteReportPhoto,
  finishDicomUpload,
  getDicomUpload,
  getStorageQuota,
  REPORT_PHOTO_MAX_BYTES,
  REPORT_PHOTOS_PATH,
  REPORT_PHOTOS_PER_REQUEST,
  ReportPhotosSchema,
  saveDicomReport,
  startDicomUpload,
  UploadStateSchema,
} from '@contract/main/dicom-upload'
import { noteGrantViews, recordsCaller, recordsCallerAuth } from '../records-caller'
import {
  addReportPhotos,
  deleteReportPhotoFile,
  PHOTOS_TOO_MANY,
  readReportPhoto,
} from '../../domain/uploads/report-photos'
import { PHOTO_TOO_LARGE } from '../../images'
import {
  cancelUpload,
  deleteUploadExam,
  deleteUploadInstance,
  finishUpload,
  getUpload,
  receiveChunk,
  saveDicomReport as saveReport,
  startUpload,
  storageQuota,
  UPLOAD_CHUNK_SIZE,
  type UploadsContext,
} from '../../domain/uploads/uploads'
import { authenticate, currentUser } from '../../http/auth'
import { ok } from '../../http/envelope'
import { ApiError, badRequest } from '../../http/errors'
import { route } from '../../http/route'

export const CHUNK_NOT_BINARY = '分片请以 application/octet-stream 格式上传'
export const CHUNK_OFFSET_MISSING = '缺少分片位置 offset'
export const CHUNK_NOT_MULTIPART = '分片请以 multipart/form-data 格式上传，文件字段名为 file'
export const PHOTOS_NOT_MULTIPART = '请以 multipart/form-data 格式上传，文件字段名为 file'
export const PHOTOS_NONE = '请选择要上传的图片'
export const PHOTOS_MALFORMED = '上传内容不完整或格式有误，请重新选择图片上传'

/**
 * The patient's zip uploads (chunked, resumable), their studies' records, report photos, and the
 * deletes. The chunk and photo routes take raw bytes and multipart, which contract descriptors do
 * not describe; they are declared by hand with the same envelope, authentication and errors.
 */
export default async function mainDicomUploadRoutes(app: FastifyInstance): Promise<void> {
  const context = (): UploadsContext => ({
    db: app.db,
    store: app.store,
    cipher: app.personalCipher,
    now: app.now,
    quotaBytes: app.config.uploadQuotaBytes,
  })

  route(app, startDicomUpload, (input, { request }) =>
    startUpload(context(), currentUser(request).id, input),
  )
  route(app, getStorageQuota, (_input, { request }) =>
    storageQuota(app.db, currentUser(request).id, app.config.uploadQuotaBytes),
  )
  route(app, getDicomUpload, (input, { request }) =>
    getUpload(context(), currentUser(request).id, input.uploadId),
  )
  route(app, finishDicomUpload, (input, { request }) =>
    finishUpload(context(), app.jobs, currentUser(request).id, input.uploadId),
  )
  route(app, cancelDicomUpload, async (input, { request }) => {
    await cancelUpload(context(), currentUser(request).id, input.uploadId)
    return { ok: true as const }
  })
  route(app, saveDicomReport, async ({ examId, ...fields }, { request }) => {
    await saveReport(context(), currentUser(request).id, examId, fields)
    return { ok: true as const }
  })
  route(app, deleteDicomReport, async (input, { request }) => {
    await deleteUploadExam(context(), currentUser(request).id, input.examId)
    return { ok: true as const }
  })
  route(app, deleteDicomInstance, async (input, { request }) => {
    await deleteUploadInstance(context(), currentUser(request).id, input.examId, input.instanceId)
    return { ok: true as const }
  })
  route(app, deleteReportPhoto, async (input, { request }) => {
    await deleteReportPhotoFile(context(), currentUser(request).id, input.fileId)
    return { ok: true as const }
  })

  // Chunks: raw bytes. The parser is added in this plugin only, with a limit of one chunk.
  app.addContentTypeParser(
    'application/octet-stream',
    { parseAs: 'buffer', bodyLimit: DICOM_UPLOAD_CHUNK_BYTES },
    (_request, body, done) => done(null, body),
  )
  app.route({
    method: 'PUT',
    url: DICOM_UPLOAD_CHUNK_PATH,
    bodyLimit: DICOM_UPLOAD_CHUNK_BYTES,
    schema: {
      summary: '上传一个分片（application/octet-stream，offset 为该分片在文件中的起始字节）',
      tags: ['main'],
      consumes: ['application/octet-stream'],
      security: [{ bearerAuth: [] }],
      response: {
        200: envelope(UploadStateSchema),
        '4xx': ErrorEnvelopeSchema,
        '5xx': ErrorEnvelopeSchema,
      },
    },
    onRequest: async (request: FastifyRequest) => authenticate(request),
    handler: async (request) => {
      const { uploadId } = request.params as { uploadId: string }
      const offset = chunkOffset(request)
      if (!Buffer.isBuffer(request.body)) throw badRequest(CHUNK_NOT_BINARY)
      return ok(
        await receiveChunk(context(), currentUser(request).id, uploadId, offset, request.body),
      )
    },
  })

  // The same chunk as multipart (field `file`): what uploadFile sends on weapp and H5. In its own
  // context, so its multipart limits are a chunk's.
  await app.register(async (chunks) => {
    await chunks.register(multipart, {
      limits: { fileSize: DICOM_UPLOAD_CHUNK_BYTES, files: 1, fields: 1, fieldSize: 64, parts: 2 },
    })
    chunks.route({
      method: 'POST',
      url: DICOM_UPLOAD_CHUNK_PATH,
      schema: {
        summary: '上传一个分片（multipart 字段 file；offset 在查询参数中）',
        tags: ['main'],
        consumes: ['multipart/form-data'],
        security: [{ bearerAuth: [] }],
        response: {
          200: envelope(UploadStateSchema),
          '4xx': ErrorEnvelopeSchema,
          '5xx': ErrorEnvelopeSchema,
        },
      },
      onRequest: async (request: FastifyRequest) => authenticate(request),
      handler: async (request) => {
        const { uploadId } = request.params as { uploadId: string }
        const offset = chunkOffset(request)
        const bytes = await readChunkPart(request)
        return ok(await receiveChunk(context(), currentUser(request).id, uploadId, offset, bytes))
      },
    })
  })

  // Photos of the paper report: multipart, in a child context so only this route parses it.
  await app.register(async (photos) => {
    await photos.register(multipart, {
      limits: {
        fileSize: REPORT_PHOTO_MAX_BYTES,
        files: REPORT_PHOTOS_PER_REQUEST,
        fields: 0,
        parts: REPORT_PHOTOS_PER_REQUEST + 1,
      },
    })
    photos.route({
      method: 'POST',
      url: REPORT_PHOTOS_PATH,
      schema: {
        summary: `上传报告照片（multipart 字段 file，可多张，最多 ${REPORT_PHOTOS_PER_REQUEST} 张，JPG/PNG，单张不超过 10 MB；去除 EXIF 后保存）`,
        tags: ['main'],
        consumes: ['multipart/form-data'],
        security: [{ bearerAuth: [] }],
        response: {
          200: envelope(ReportPhotosSchema),
          '4xx': ErrorEnvelopeSchema,
          '5xx': ErrorEnvelopeSchema,
        },
      },
      onRequest: async (request: FastifyRequest) => authenticate(request),
      handler: async (request) => {
        const { examId } = request.params as { examId: string }
        const files = await readPhotos(request)
        return ok({
          files: await addReportPhotos(context(), currentUser(request).id, examId, files),
        })
      },
    })
  })

  // The photo itself (the app downloads it with the bearer token): for whoever may see its exam —
  // the owner, a family manager, a grant's holder (a login token or a link visitor's yxs_ token).
  app.route({
    method: 'GET',
    url: '/main/dicom-upload/files/:fileId',
    schema: {
      summary: '报告照片（image/jpeg；本人、家庭管理人或授权查看者）',
      tags: ['main'],
      security: [{ bearerAuth: [] }],
      params: z.object({ fileId: z.string().check(z.maxLength(64)) }),
      response: { '4xx': ErrorEnvelopeSchema, '5xx': ErrorEnvelopeSchema },
    },
    onRequest: recordsCallerAuth,
    handler: async (request, reply) => {
      const { fileId } = request.params as { fileId: string }
      const caller = recordsCaller(request)
      const photo = await readReportPhoto(context(), app.personalCipher, caller, fileId)
      if (photo.grantId) {
        // One view per session and exam, as the exam's other reads through a grant (views.ts).
        await noteGrantViews(request, photo.grantId, [photo.examId], app.now())
      }
      return reply
        .header('content-type', photo.contentType)
        .header('content-length', String(photo.size))
        .header(
          'cache-control',
          // Through a grant never kept (a revoked grant must not stay readable from a cache).
          photo.grantId ? 'private, no-store' : 'private, max-age=31536000, immutable',
        )
        .send(photo.body)
    },
  })
}

function chunkOffset(request: FastifyRequest): number {
  const text = (request.query as { offset?: unknown }).offset
  if (typeof text !== 'string' || !/^\d{1,16}$/.test(text)) throw badRequest(CHUNK_OFFSET_MISSING)
  return Number(text)
}

async function readChunkPart(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) throw badRequest(CHUNK_NOT_MULTIPART)
  let bytes: Buffer | undefined
  try {
    for await (const part of request.parts()) {
      // A form field (uploadFile's formData) is ignored: the offset is in the query.
      if (part.type === 'field') continue
      if (bytes !== undefined || part.fieldname !== 'file') throw badRequest(CHUNK_NOT_MULTIPART)
      bytes = await part.toBuffer()
    }
  } catch (error) {
    if (error instanceof ApiError) throw error
    const code = (error as { code?: unknown }).code
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new ApiError(413, UPLOAD_CHUNK_SIZE)
    throw badRequest(CHUNK_NOT_MULTIPART)
  }
  if (bytes === undefined) throw badRequest(CHUNK_NOT_MULTIPART)
  return bytes
}

async function readPhotos(request: FastifyRequest): Promise<Buffer[]> {
  if (!request.isMultipart()) throw badRequest(PHOTOS_NOT_MULTIPART)
  const files: Buffer[] = []
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field' || part.fieldname !== 'file') throw badRequest(PHOTOS_NOT_MULTIPART)
      files.push(await part.toBuffer())
    }
  } catch (error) {
    if (error instanceof ApiError) throw error
    const code = (error as { code?: unknown }).code
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new ApiError(413, PHOTO_TOO_LARGE)
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') throw badRequest(PHOTOS_TOO_MANY)
    if (code === 'FST_FIELDS_LIMIT') throw badRequest(PHOTOS_NOT_MULTIPART)
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw badRequest(PHOTOS_NOT_MULTIPART)
    throw badRequest(PHOTOS_MALFORMED)
  }
  if (files.length === 0) throw badRequest(PHOTOS_NONE)
  return files
}
