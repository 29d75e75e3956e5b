import type { FastifyInstance } from 'fastify'
import {
  addArticleRead,
  getArticle,
  getMyArticleCounts,
  getVideo,
  likeArticle,
  listArticles,
  listArticleTypes,
  listVideos,
  saveVideoPosition,
} from '@contract/main/content'
import * as articles from '../../domain/content/articles'
import { openMedia } from '../../domain/content/media'
import * as videos from '../../domain/content/videos'
import { currentUser, optionalUserId } from '../../http/auth'
import { failure } from '../../http/envelope'
import { parseRangeHeader } from '../../http/range'
import { route } from '../../http/route'
import { RangeNotSatisfiableError } from '../../storage/object-store'

/** Main service: articles, videos and the public /media files (contract/main/content.ts). Issue 10. */
export default async function mainContentRoutes(app: FastifyInstance): Promise<void> {
  route(app, listArticleTypes, async () => articles.listArticleTypes(app.db))

  route(app, listArticles, async (input) => articles.listArticles(app.db, input))

  route(app, getArticle, async ({ articleId }, { request }) =>
    articles.getArticle(app.db, articleId, await optionalUserId(request)),
  )

  route(app, addArticleRead, async ({ articleId }, { request }) => {
    const readerId = request.headers['x-reader-id']
    return articles.addArticleRead(
      app.db,
      {
        articleId,
        userId: await optionalUserId(request),
        readerId: typeof readerId === 'string' ? readerId : undefined,
      },
      app.now(),
    )
  })

  route(app, likeArticle, async ({ articleId, liked }, { request }) =>
    articles.likeArticle(app.db, { articleId, liked, userId: currentUser(request).id }, app.now()),
  )

  route(app, getMyArticleCounts, async (_input, { request }) =>
    articles.myArticleCounts(app.db, currentUser(request).id),
  )

  route(app, listVideos, async (input) => videos.listVideos(app.db, input))

  route(app, getVideo, async ({ videoId }, { request }) =>
    videos.getVideo(app.db, videoId, await optionalUserId(request)),
  )

  route(app, saveVideoPosition, async ({ videoId, seconds }, { request }) => {
    await videos.saveVideoPosition(
      app.db,
      { videoId, seconds, userId: currentUser(request).id },
      app.now(),
    )
    return { ok: true as const }
  })

  /*
   * Public media: article covers, video posters, videos and feature icons, by a random id that
   * never changes its bytes (a new upload is a new id), so caches keep them for a year. Videos are
   * played in pieces: single byte ranges are honoured (206), an unsatisfiable one is a 416.
   * Feedback images and everything personal are never here.
   */
  app.get<{ Params: { fileId: string } }>('/media/:fileId', async (request, reply) => {
    const media = await openMedia(app.db, request.params.fileId)
    if (!media) {
      return reply.code(404).send(failure(404, '文件不存在或已删除'))
    }
    const etag = `"${media.id}"`
    reply.header('accept-ranges', 'bytes')
    reply.header('etag', etag)
    reply.header('cache-control', 'public, max-age=31536000, immutable')
    reply.header('x-content-type-options', 'nosniff')
    if (request.headers['if-none-match'] === etag) return reply.code(304).send()
    const range = parseRangeHeader(request.headers.range)
    try {
      const object = await app.store.get(media.storageKey, range ? { range } : undefined)
      reply.header('content-type', media.mimeType)
      reply.header('content-length', object.length)
      if (range) {
        reply.code(206)
        reply.header('content-range', `bytes ${object.start}-${object.end}/${object.size}`)
      }
      return reply.send(object.body)
    } catch (error) {
      if (error instanceof RangeNotSatisfiableError) {
        reply.header('content-range', `bytes */${media.sizeBytes}`)
        return reply.code(416).send(failure(416, '请求的范围超出文件大小'))
      }
      throw error
    }
  })
}
