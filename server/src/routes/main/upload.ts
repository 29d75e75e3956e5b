import { mkdirSync } from 'node:fs'
import multipart from '@fastify/multipart'
import fastifyStatic from '@fastify/static'
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify'
import { envelope, ErrorEnvelopeSchema } from '@contract/envelope'
import { AVATAR_MAX_BYTES, UPLOAD_AVATAR_PATH, UploadedFileSchema } from '@contract/main/upload'
import {
  AVATAR_TOO_LARGE,
  checkAvatarRate,
  saveAvatar,
  UPLOADS_URL_PREFIX,
} from '../../domain/profile/avatars'
import { authenticate, currentUser } from '../../http/auth'
import { failure, ok } from '../../http/envelope'
import { ApiError, badRequest } from '../../http/errors'

export const UPLOAD_NOT_MULTIPART = '请以 multipart/form-data 格式上传，文件字段名为 file'
export const UPLOAD_NO_FILE = '请选择要上传的图片'
export const UPLOAD_MALFORMED = '上传内容不完整或格式有误，请重新选择图片上传'
export const UPLOAD_ONE_FILE = '只能上传一个文件'
export const UPLOAD_NO_FIELDS = '上传时不要附带其他字段'

/**
 * Uploads and the files they stored. An upload's input is a multipart body, not a zod object, so
 * these routes cannot go through route(): they are declared here by hand, with the same envelope
 * as response schema (checked on the way out), `authenticate` as preHandler, ApiError for refusals,
 * and the handler returning ok(data). Multipart parsing is registered in this plugin only, so no
 * other route accepts multipart bodies.
 */
export default async function mainUploadRoutes(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    // One file of at most 2 MB and no other fields: anything more is refused while streaming (the
    // limits leave room for a second part, a file or a short field, so the refusal can name it;
    // with no room busboy cuts the body off, which reads as a broken upload).
    limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 1, fieldSize: 1024, parts: 2 },
  })

  app.route({
    method: 'POST',
    url: UPLOAD_AVATAR_PATH,
    schema: {
      summary: '上传头像（multipart 字段 file：JPG/PNG/WebP，不超过 2 MB），返回图片地址',
      tags: ['main'],
      consumes: ['multipart/form-data'],
      security: [{ bearerAuth: [] }],
      response: {
        200: envelope(UploadedFileSchema),
        '4xx': ErrorEnvelopeSchema,
        '5xx': ErrorEnvelopeSchema,
      },
    },
    preHandler: async (request: FastifyRequest) => authenticate(request),
    handler: async (request) => {
      const { id } = currentUser(request)
      const now = app.now()
      // Refused before reading: a rate-limited person does not stream 2 MB for nothing.
      await checkAvatarRate(app.db, id, now)
      const bytes = await readSingleFile(request)
      return ok(await saveAvatar(app.db, app.config.uploadDir, { userId: id, bytes }, now))
    },
  })

  // Stored files, read-only, in a child context so its error handler covers them alone.
  mkdirSync(app.config.uploadDir, { recursive: true })
  await app.register(async (files) => {
    // send's own refusals (a `..` path is 403 Forbidden) say nothing useful; answer as for a
    // missing file instead of letting them become a 500.
    files.setErrorHandler((error: FastifyError, _request, reply) => {
      const status = error.statusCode ?? 500
      if (status >= 400 && status < 500) {
        return reply.code(404).send(failure(404, '请求的资源不存在'))
      }
      throw error
    })
    // Names are random and never reused, so they may be cached for good; the CSP keeps a file
    // opened directly from running anything, whatever its bytes.
    await files.register(fastifyStatic, {
      root: app.config.uploadDir,
      prefix: UPLOADS_URL_PREFIX,
      decorateReply: false,
      index: false,
      list: false,
      // The object store keeps private files (DICOM, reports) under UPLOAD_DIR/.objects: never served.
      dotfiles: 'ignore',
      cacheControl: false,
      setHeaders(res) {
        res.setHeader('cache-control', 'public, max-age=31536000, immutable')
        res.setHeader('content-security-policy', "default-src 'none'; sandbox")
      },
    })
  })
}

async function readSingleFile(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) throw badRequest(UPLOAD_NOT_MULTIPART)
  try {
    // The whole body is read, not just its first file: a second file (or a field) after it must
    // be refused, not silently dropped while the first is saved.
    let bytes: Buffer | undefined
    for await (const part of request.parts()) {
      if (part.type === 'field') throw badRequest(UPLOAD_NO_FIELDS)
      if (bytes !== undefined) throw badRequest(UPLOAD_ONE_FILE)
      if (part.fieldname !== 'file') throw badRequest(UPLOAD_NOT_MULTIPART)
      bytes = await part.toBuffer()
    }
    if (bytes === undefined) throw badRequest(UPLOAD_NO_FILE)
    return bytes
  } catch (error) {
    if (error instanceof ApiError) throw error
    const code = (error as { code?: unknown }).code
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new ApiError(413, AVATAR_TOO_LARGE)
    if (code === 'FST_FILES_LIMIT') throw badRequest(UPLOAD_ONE_FILE)
    if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') {
      throw badRequest(`${UPLOAD_ONE_FILE}，且不要附带其他字段`)
    }
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw badRequest(UPLOAD_NOT_MULTIPART)
    // Anything else here is the body's fault (no boundary, cut off, broken part headers): busboy's
    // parse errors, which are the client's to fix, not a fault of ours.
    throw badRequest(UPLOAD_MALFORMED)
  }
}
