import { createHash } from 'node:crypto'
import zlib from 'node:zlib'
import fastifyCompress from '@fastify/compress'
import type { FastifyInstance } from 'fastify'

/** JSON answers smaller than this go out as they are: compressing them saves less than it costs. */
export const COMPRESS_THRESHOLD = 1024

/**
 * Answers up to this size are compressed in one synchronous call rather than through a zlib stream
 * (the plugin's default on two cores is 8 KB). A 25 KB JSON list takes a few tenths of a millisecond
 * that way; the stream's set-up cost more than the compression itself.
 */
export const SYNC_COMPRESS_LIMIT = 64 * 1024

/**
 * Compressed answers remembered by content (a cached list is the same bytes for every request).
 * Hashing an answer costs a few percent of compressing it, so every compressed answer is looked up.
 */
export const REMEMBERED_ANSWERS = 256

type SyncCompressor = (payload: Buffer, options?: object) => Buffer

/**
 * zlib's one-call compressors, remembering the output for input seen recently. The patient lists'
 * cache (domain/patient/list-cache.ts) and the serializer hand out the same JSON while nothing changed;
 * brotli of a 25 KB 我的影像 was then the largest cost left of such a request. The key is a hash of
 * the bytes with the encoding, so any two identical answers share it and a changed one never does.
 */
export function rememberingCompressors(): Pick<typeof zlib, 'brotliCompressSync' | 'gzipSync'> {
  const outputs = new Map<string, Buffer>()
  const remembering =
    (encoding: string, compress: SyncCompressor): SyncCompressor =>
    (payload, options) => {
      const key = `${encoding}:${createHash('sha256').update(payload).digest('base64')}`
      const known = outputs.get(key)
      if (known) {
        outputs.delete(key)
        outputs.set(key, known)
        return known
      }
      const output = compress(payload, options)
      outputs.set(key, output)
      if (outputs.size > REMEMBERED_ANSWERS) outputs.delete(outputs.keys().next().value!)
      return output
    }
  return {
    brotliCompressSync: remembering(
      'br',
      zlib.brotliCompressSync,
    ) as typeof zlib.brotliCompressSync,
    gzipSync: remembering('gzip', zlib.gzipSync) as typeof zlib.gzipSync,
  }
}

/**
 * Compresses API answers (JSON, the OpenAPI document, the API docs' assets) by the client's
 * Accept-Encoding, brotli first. The H5 app's own files are compressed at build time and served as they
 * are (plugins/web.ts), so their route opts out; @fastify/compress also never touches a response that
 * already has a Content-Encoding. Request bodies are not decompressed: no client of ours sends them
 * compressed, and a decompressor is one more way to make the server work hard for a small upload.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: true,
    globalDecompression: false,
    threshold: COMPRESS_THRESHOLD,
    syncThreshold: SYNC_COMPRESS_LIMIT,
    encodings: ['br', 'gzip'],
    // Only the one-call compressors are replaced; streams (larger answers) stay zlib's own.
    zlib: { ...zlib, ...rememberingCompressors() },
  })
}
