import { randomUUID } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { REASONS } from '@contract/reasons'
import { createJob, enqueueJob, isFinalJob, type JobRow, waitForJob } from '../../jobs/runner'
import {
  manifestKey,
  STOW_KIND,
  stagingPrefixOf,
  type StowManifest,
  stowResponse,
  type StowResult,
} from '../../domain/ingest/stow'
import { failure } from '../../http/envelope'
import { ApiError, badRequest, notFound, STORAGE_FULL } from '../../http/errors'
import { hospitalAuth } from '../hospital-auth'
import {
  forEachRelatedPart,
  MULTIPART_MESSAGES,
  type MultipartRelatedLimits,
  parseRelatedContentType,
} from '../../http/multipart-related'
import { isStorageFull } from '../../storage'

/*
 * STOW-RS (PS3.18 10.5): a hospital's system pushes instances as multipart/related application/dicom,
 * authenticated by its API key (Authorization: Bearer). The parts stream into the object store's
 * staging, a 'stow' job stores them (domain/ingest/stow.ts), and the answer is the PS3.18 Store
 * Instances Response once the job is done. A push the job cannot finish within STOW_SYNC_WAIT_MS (or
 * one sent with `Prefer: respond-async`) is answered 202 at once with Content-Location
 * /dicomweb/stow-jobs/{id}, where the same answer appears when the job ends.
 */

/** Limits of one request; large studies are sent in several requests, as DICOMweb clients do. */
export const STOW_LIMITS: MultipartRelatedLimits = {
  maxPartBytes: 512 * 1024 * 1024,
  maxTotalBytes: 2 * 1024 * 1024 * 1024,
  maxParts: 5000,
}

/** How long a push waits for its job before answering 202 (RFC 7240 `Prefer: wait=n` lowers or raises it up to the cap). */
export const STOW_SYNC_WAIT_MS = 5_000
const MAX_PREFER_WAIT_MS = 60_000

const UID = /^[0-9]+(\.[0-9]+)*$/
export const STOW_ROUTE_MESSAGES = {
  badStudyUid: '请求地址中的检查 UID 格式不正确（应为数字和点组成，最长 64 个字符）',
  badMediaType: '仅接受 type="application/dicom" 的 multipart/related 请求体',
  jobNotFound: '推送任务不存在',
  failed: '推送处理失败，请稍后重新发送',
}

type StudyParams = { study?: string }

export default async function stowRoutes(app: FastifyInstance): Promise<void> {
  // The body is read as a stream by the handler (to staging), never buffered by Fastify; any media
  // type reaches the handler, which answers a Chinese 415 for the wrong ones.
  app.addContentTypeParser('*', (_request, _payload, done) => done(null))
  app.addContentTypeParser('multipart/related', (_request, _payload, done) => done(null))

  const options = { preHandler: hospitalAuth(), schema: { hide: true } }
  app.post('/dicomweb/studies', options, (request, reply) => store(app, request, reply))
  app.post('/dicomweb/studies/:study', options, (request, reply) => store(app, request, reply))
  app.get<{ Params: { id: string } }>(
    '/dicomweb/stow-jobs/:id',
    options,
    async (request, reply) => {
      const job = await app.db
        .selectFrom('ingest_jobs')
        .selectAll()
        .where('id', '=', request.params.id)
        .where('kind', '=', STOW_KIND)
        .executeTakeFirst()
      if (!job || job.hospital_id !== request.hospital!.id)
        throw notFound(STOW_ROUTE_MESSAGES.jobNotFound)
      return answer(request, reply, job)
    },
  )
}

async function store(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
  try {
    return await receive(app, request, reply)
  } catch (error) {
    // A refused body may be partly unread: closing the connection after the answer stops the
    // client's upload instead of leaving the socket half-used (and the server unable to close).
    if (!request.raw.readableEnded) reply.header('connection', 'close')
    throw error
  }
}

async function receive(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
  const studyUid = (request.params as StudyParams).study
  if (studyUid !== undefined && (!UID.test(studyUid) || studyUid.length > 64)) {
    throw badRequest(STOW_ROUTE_MESSAGES.badStudyUid)
  }
  const contentType = parseRelatedContentType(request.headers['content-type'])
  if (contentType.type && contentType.type !== 'application/dicom') {
    throw new ApiError(415, STOW_ROUTE_MESSAGES.badMediaType)
  }
  const declared = Number(request.headers['content-length'])
  if (Number.isFinite(declared) && declared > STOW_LIMITS.maxTotalBytes) {
    throw new ApiError(413, MULTIPART_MESSAGES.totalTooLarge(STOW_LIMITS.maxTotalBytes))
  }

  const jobId = randomUUID()
  const prefix = stagingPrefixOf(jobId)
  const hospitalId = request.hospital!.id
  const job = await createJob(app.db, {
    id: jobId,
    kind: STOW_KIND,
    hospitalId,
    stagingPrefix: prefix,
  })
  const manifest: StowManifest = { ...(studyUid ? { studyUid } : {}), parts: [] }
  let received = 0
  try {
    await forEachRelatedPart(request.raw, contentType, STOW_LIMITS, async (part) => {
      const key = `${prefix}${part.index}`
      const info = await app.store.put(key, part.body, {
        contentType: part.contentType ?? 'application/dicom',
      })
      received += info.size
      manifest.parts.push({ key, contentType: part.contentType, bytes: info.size })
    })
    await app.store.put(manifestKey(prefix), Buffer.from(JSON.stringify(manifest)), {
      contentType: 'application/json',
    })
    await app.db
      .updateTable('ingest_jobs')
      .set({
        total_bytes: received,
        received_bytes: received,
        updated_at: new Date().toISOString(),
      })
      .where('id', '=', jobId)
      .execute()
  } catch (error) {
    // Nothing of a refused or broken body stays: no staging, and the job row says why.
    await app.store.deletePrefix(prefix).catch(() => undefined)
    const at = new Date().toISOString()
    await app.db
      .updateTable('ingest_jobs')
      .set({
        status: 'cancelled',
        message:
          error instanceof ApiError
            ? error.userMessage
            : isStorageFull(error)
              ? STORAGE_FULL
              : '接收推送数据失败',
        reason:
          error instanceof ApiError
            ? error.reason
            : isStorageFull(error)
              ? REASONS.storageFull
              : null,
        updated_at: at,
        finished_at: at,
      })
      .where('id', '=', job.id)
      .execute()
      .catch(() => undefined)
    throw error
  }

  await enqueueJob(app.jobs, { id: jobId })
  const done = await waitForJob(app.jobs, jobId, { timeoutMs: syncWaitMs(request) })
  return answer(request, reply, done ?? job)
}

/** RFC 7240: `respond-async` answers at once, `wait=n` waits at most n seconds (capped). */
function syncWaitMs(request: FastifyRequest): number {
  const prefer = String(request.headers.prefer ?? '').toLowerCase()
  if (/(^|[,;\s])respond-async($|[,;\s])/.test(prefer)) return 0
  const wait = /(?:^|[,;\s])wait\s*=\s*(\d+)/.exec(prefer)?.[1]
  if (wait !== undefined) return Math.min(Number(wait) * 1000, MAX_PREFER_WAIT_MS)
  return STOW_SYNC_WAIT_MS
}

function baseUrl(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}/dicomweb`
}

function answer(request: FastifyRequest, reply: FastifyReply, job: JobRow) {
  reply.header('cache-control', 'no-store')
  if (!isFinalJob(job)) {
    // Still being stored: where the outcome will be, and a machine-readable reason for the 202.
    reply.header('content-location', `/dicomweb/stow-jobs/${job.id}`)
    reply.header(
      'warning',
      '299 yingxiang "Received; the instances are being stored. See Content-Location for the outcome."',
    )
    return reply.code(202).type('application/dicom+json').send({})
  }
  if (job.reason === REASONS.storageFull) {
    // Received, or being stored, when the storage filled up: nothing of it was kept. Not the
    // sender's fault (no 400), and not one a retry in seconds fixes: 507, whose `message` says why,
    // as when the receiving itself met the full store (plugins/error-handler.ts).
    return reply.code(507).send(failure(507, null, { reason: REASONS.storageFull }))
  }
  if (job.status === 'cancelled') throw badRequest(job.message ?? STOW_ROUTE_MESSAGES.failed)
  if (job.status !== 'done' || !job.result_json) {
    // The job itself failed (not one instance): nothing of it was stored. Unlike the app's 5xx
    // envelopes, the job's message is kept: the caller is a hospital system whose operator reads
    // logs.
    return reply
      .code(503)
      .header('retry-after', '60')
      .send({ ...failure(503, null), error: job.message ?? STOW_ROUTE_MESSAGES.failed })
  }
  const { status, body } = stowResponse(JSON.parse(job.result_json) as StowResult, baseUrl(request))
  reply.header('content-location', `/dicomweb/stow-jobs/${job.id}`)
  return reply.code(status).type('application/dicom+json').send(body)
}
