import type { FastifyRequest } from 'fastify'
import { ApiError, badRequest } from './errors'

/** What an upload of one file says when it is not one file, in the words of what is uploaded. */
export interface OneFileWords {
  /** Not multipart, no `file` part, or another field. */
  none: string
  /** Over the multipart plugin's file size limit (413). */
  tooLarge: string
  /** Several files, or a body the multipart parser could not read. */
  several: string
}

/**
 * The bytes of the one multipart part named `file` (头像之外的单张上传: 反馈图片, 证书照片, 运营文件).
 * A client's mistake is a 400/413 in the caller's words, never a 500.
 */
export async function readOneFile(request: FastifyRequest, words: OneFileWords): Promise<Buffer> {
  if (!request.isMultipart()) throw badRequest(words.none)
  let bytes: Buffer | undefined
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field' || part.fieldname !== 'file') throw badRequest(words.none)
      bytes = await part.toBuffer()
    }
  } catch (error) {
    if (error instanceof ApiError) throw error
    const code = (error as { code?: unknown }).code
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new ApiError(413, words.tooLarge)
    throw badRequest(words.several)
  }
  if (!bytes) throw badRequest(words.none)
  return bytes
}
