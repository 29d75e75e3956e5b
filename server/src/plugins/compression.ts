import fastifyCompress from '@fastify/compress'
import type { FastifyInstance } from 'fastify'

/** JSON answers smaller than this go out as they are: compressing them saves less than it costs. */
export const COMPRESS_THRESHOLD = 1024

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
    encodings: ['br', 'gzip'],
  })
}
