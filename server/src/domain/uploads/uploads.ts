import { randomUUID } from 'node:crypto'
import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import {
  DICOM_UPLOAD_CHUNK_BYTES,
  type UploadManifestFile,
  type UploadState,
  type StorageQuota,
} from '@contract/main/dicom-upload'
import { EXAM_STATUS_LABELS, type ExamStatus } from '@contract/main/records'
import type { DB } from '../../db'
import type { IngestJobsTable } from '../../db/schema'
import { ApiError, badRequest, notFound } from '../../http/errors'
import { asStorageFull } from '../../storage'
import { EXAM_NOT_FOUND, findVisibleExam, refreshExamCounts, previewKeyPrefix } from '../records'
import { type IngestContext, ingestFiles, type IngestResult } from '../ingest'
import {
  attemptBatchId,
  batchPrefix,
  enqueueJob,
  type JobContext,
  JobFailure,
  type JobKind,
  type JobOutcome,
  type JobRow,
  type JobRunner,
} from '../../jobs/runner'
import {
  FILES_NO_DICOM,
  filesSkippedMessage,
  manifestFolder,
  manifestProblem,
  openDicomFiles,
} from './bundle'
import {
  DEFAULT_ZIP_LIMITS,
  formatBytes,
  openDicomZip,
  ZIP_NO_DICOM,
  type ZipLimits,
  ZipRefusedError,
  zipSkippedMessage,
} from './zip'

/*
 * A patient's zip upload (or several DICOM files sent as one, see bundle.ts), from the first chunk
 * to the studies it became.
 *
 * The upload is an ingest_jobs row of kind 'upload' (its id is the upload id): status receiving
 * while chunks arrive (each chunk an object under staging/uploads/<id>/), queued once finished,
 * running while a worker unpacks it, then done or failed with a Chinese message. The zip's size is
 * reserved against the person's quota when the upload starts, before a byte is stored; the job
 * reserves what the zip inflates to before ingesting, and settles to what was really stored after.
 * Every failure gives back what was reserved. The amount held is kept in result_json
 * (`reservedBytes`), so a worker that dies and is replaced neither loses nor doubles it.
 */

export interface UploadsContext extends IngestContext {
  /** Bytes each person may store (UPLOAD_QUOTA_MB). */
  quotaBytes: number
  /** Per-file limits checked when a several-files upload starts (tests lower them). */
  zipLimits?: ZipLimits
  /** Uploads one person may have receiving at once (MAX_RECEIVING_UPLOADS unless a test says). */
  maxReceiving?: number
}

/**
 * Uploads a person may have 上传中 at once. Each holds its reservation and (several files) its file
 * list until finished or cancelled; a person sends one at a time, and a few allow a retry or a
 * second device without leaving room for piles of abandoned starts.
 */
export const MAX_RECEIVING_UPLOADS = 3
export const tooManyReceiving = (count: number) =>
  `已有 ${count} 个上传尚未完成，请先完成或取消其中一个后再上传`

export const UPLOAD_KIND = 'upload'

export const UPLOAD_NOT_FOUND = '上传记录不存在'
export const UPLOAD_ALREADY_FINISHED = '该文件已上传完成，无需继续上传'
export const UPLOAD_NOT_COMPLETE = '文件还没有上传完，请继续上传'
export const UPLOAD_PROCESSING = '影像正在解析，暂时无法取消'
export const UPLOAD_CHUNK_SIZE = '分片大小不正确，请重新上传'
export const UPLOAD_FAILED_GENERIC = '解析失败，请稍后重新上传'
export const NOT_A_ZIP_NAME = '请选择 zip 格式的压缩包'
export const UPLOAD_EXAM_ONLY = '只能修改自己上传的影像'
export const uploadOffsetMismatch = (expected: number) =>
  `上传进度不一致，请从第 ${expected} 字节继续上传`
export const quotaExceeded = (used: number, quota: number, needed: number) =>
  `存储空间不足：已用 ${formatBytes(used)}，共 ${formatBytes(quota)}，本次需要 ${formatBytes(needed)}。请删除不需要的影像后再试`

const chunkKey = (prefix: string, offset: number) => `${prefix}${String(offset).padStart(13, '0')}`
const stagingPrefix = (uploadId: string) => `staging/uploads/${uploadId}/`
/**
 * The file list of a several-files upload, beside its chunks (deleted with them). Its presence is
 * what makes the job cut the bytes apart instead of unzipping them.
 */
const manifestKey = (prefix: string) => `${prefix}manifest.json`

async function readManifest(
  store: JobContext['store'],
  prefix: string,
): Promise<UploadManifestFile[] | null> {
  const key = manifestKey(prefix)
  if (!(await store.exists(key))) return null
  const { body } = await store.get(key)
  const parts: Buffer[] = []
  for await (const data of body as AsyncIterable<Buffer>) parts.push(data)
  return JSON.parse(Buffer.concat(parts).toString('utf8')) as UploadManifestFile[]
}

/** result_json of an upload job: what it holds of the quota (and of which quota), what it became. */
interface UploadJobResult {
  reservedBytes: number
  /**
   * What the start reserved for the bytes it keeps while receiving: the upload's size and its file
   * list (manifest.json). Absent on rows started before the list was counted: total_bytes then.
   */
  stagedBytes?: number
  quotaBytes?: number
  chargedBytes?: number
  examIds?: string[]
}

function readResult(job: Pick<IngestJobsTable, 'result_json'>): UploadJobResult {
  if (!job.result_json) return { reservedBytes: 0 }
  try {
    const parsed = JSON.parse(job.result_json) as Partial<UploadJobResult>
    return {
      reservedBytes: Number(parsed.reservedBytes ?? 0),
      stagedBytes: typeof parsed.stagedBytes === 'number' ? parsed.stagedBytes : undefined,
      quotaBytes: typeof parsed.quotaBytes === 'number' ? parsed.quotaBytes : undefined,
      chargedBytes: parsed.chargedBytes,
      examIds: Array.isArray(parsed.examIds) ? parsed.examIds : [],
    }
  } catch {
    return { reservedBytes: 0 }
  }
}

// --- storage quota ---------------------------------------------------------------------------

type Executor = Pick<DB, 'insertInto' | 'updateTable' | 'selectFrom'>

/** The person's usage row, created at 0 the first time (racing creators: one insert wins). */
async function ensureUsageRow(db: Executor, userId: string, at: string): Promise<void> {
  await db
    .insertInto('storage_usage')
    .values({ user_id: userId, used_bytes: 0, updated_at: at })
    .onConflict((conflict) => conflict.column('user_id').doNothing())
    .execute()
}

/**
 * Reserves `bytes` for the person if they fit: ONE conditional UPDATE (`used + n <= quota`), so
 * parallel uploads can never together pass the quota, on SQLite (writes are serial) and on
 * PostgreSQL (the row lock makes the second UPDATE re-check the condition after the first commits).
 */
export async function reserveStorage(
  db: Executor,
  userId: string,
  bytes: number,
  quotaBytes: number,
  now: Date,
): Promise<boolean> {
  const at = now.toISOString()
  await ensureUsageRow(db, userId, at)
  if (bytes <= 0) return true
  const result = await db
    .updateTable('storage_usage')
    .set({ used_bytes: sql`used_bytes + ${bytes}`, updated_at: at })
    .where('user_id', '=', userId)
    .where(sql<boolean>`used_bytes + ${bytes} <= ${quotaBytes}`)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/** Gives bytes back (never below zero). */
export async function releaseStorage(
  db: Executor,
  userId: string,
  bytes: number,
  now: Date,
): Promise<void> {
  if (bytes <= 0) return
  await db
    .updateTable('storage_usage')
    .set({
      used_bytes: sql`case when used_bytes > ${bytes} then used_bytes - ${bytes} else 0 end`,
      updated_at: now.toISOString(),
    })
    .where('user_id', '=', userId)
    .execute()
}

export async function storageQuota(
  db: DB,
  userId: string,
  quotaBytes: number,
): Promise<StorageQuota> {
  const row = await db
    .selectFrom('storage_usage')
    .select('used_bytes')
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return { usedBytes: Number(row?.used_bytes ?? 0), quotaBytes }
}

async function refuseQuota(db: DB, userId: string, quotaBytes: number, needed: number) {
  const { usedBytes } = await storageQuota(db, userId, quotaBytes)
  return badRequest(quotaExceeded(usedBytes, quotaBytes, needed))
}

// --- the upload's state ----------------------------------------------------------------------

export function uploadStatus(jobStatus: string): ExamStatus {
  if (jobStatus === 'receiving') return 'receiving'
  if (jobStatus === 'done') return 'ready'
  if (jobStatus === 'failed' || jobStatus === 'cancelled') return 'failed'
  return 'processing'
}

export function uploadState(job: IngestJobsTable): UploadState {
  const status = uploadStatus(job.status)
  return {
    uploadId: job.id,
    fileName: job.file_name ?? '',
    totalBytes: Number(job.total_bytes ?? 0),
    receivedBytes: Number(job.received_bytes),
    chunkSize: DICOM_UPLOAD_CHUNK_BYTES,
    status,
    statusLabel: EXAM_STATUS_LABELS[status],
    message: job.message,
    examIds: readResult(job).examIds ?? [],
    storedCount: Number(job.stored_count),
    duplicateCount: Number(job.duplicate_count),
    skippedCount: Number(job.skipped_count),
    createdAt: job.created_at,
    updatedAt: job.updated_at,
  }
}

async function ownUpload(db: DB, userId: string, uploadId: string): Promise<IngestJobsTable> {
  const job = await db
    .selectFrom('ingest_jobs')
    .selectAll()
    .where('id', '=', uploadId)
    .where('kind', '=', UPLOAD_KIND)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  if (!job) throw notFound(UPLOAD_NOT_FOUND)
  return job
}

export async function getUpload(ctx: UploadsContext, userId: string, uploadId: string) {
  return uploadState(await ownUpload(ctx.db, userId, uploadId))
}

// --- receiving -------------------------------------------------------------------------------

/**
 * Takes the person's usage row (created if need be) for the rest of the transaction: an UPDATE
 * locks it on PostgreSQL, and SQLite runs one write transaction at a time. Starts racing each other
 * then count the uploads still receiving one after another.
 */
async function lockUsage(db: Executor, userId: string, now: Date): Promise<void> {
  const at = now.toISOString()
  await ensureUsageRow(db, userId, at)
  await db
    .updateTable('storage_usage')
    .set({ updated_at: at })
    .where('user_id', '=', userId)
    .execute()
}

async function receivingCount(db: Pick<DB, 'selectFrom'>, userId: string): Promise<number> {
  const row = await db
    .selectFrom('ingest_jobs')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('kind', '=', UPLOAD_KIND)
    .where('user_id', '=', userId)
    .where('status', '=', 'receiving')
    .executeTakeFirst()
  return Number(row?.count ?? 0)
}

export async function startUpload(
  ctx: UploadsContext,
  userId: string,
  input: { fileName: string; size: number; files?: UploadManifestFile[] },
): Promise<UploadState> {
  const fileName = input.fileName.trim()
  const manifest = input.files
  if (manifest) {
    const problem = manifestProblem(manifest, input.size, ctx.zipLimits ?? DEFAULT_ZIP_LIMITS)
    if (problem) throw badRequest(problem)
  } else if (!/\.zip$/i.test(fileName)) {
    throw badRequest(NOT_A_ZIP_NAME)
  }
  const maxReceiving = ctx.maxReceiving ?? MAX_RECEIVING_UPLOADS
  // Checked again under the lock below; this spares writing a list that would be thrown away.
  if ((await receivingCount(ctx.db, userId)) >= maxReceiving) {
    throw badRequest(tooManyReceiving(maxReceiving))
  }
  const now = ctx.now()
  const id = randomUUID()
  const at = now.toISOString()
  // The list is stored until the upload ends: its bytes are reserved with the upload's own.
  const manifestJson = manifest ? Buffer.from(JSON.stringify(manifest)) : null
  const reservation = input.size + (manifestJson?.length ?? 0)
  // Written before the row: a row that exists is never missing its list (a crash between the two
  // leaves an object no row points at, under a prefix nothing else uses).
  if (manifestJson) {
    await ctx.store.put(manifestKey(stagingPrefix(id)), manifestJson, {
      contentType: 'application/json',
    })
  }
  const outcome = await ctx.db.transaction().execute(async (trx) => {
    await lockUsage(trx, userId, now)
    if ((await receivingCount(trx, userId)) >= maxReceiving) return 'busy' as const
    if (!(await reserveStorage(trx, userId, reservation, ctx.quotaBytes, now))) {
      return 'quota' as const
    }
    await trx
      .insertInto('ingest_jobs')
      .values({
        id,
        kind: UPLOAD_KIND,
        hospital_id: null,
        user_id: userId,
        exam_id: null,
        status: 'receiving',
        staging_prefix: stagingPrefix(id),
        file_name: fileName,
        total_bytes: input.size,
        received_bytes: 0,
        stored_count: 0,
        duplicate_count: 0,
        skipped_count: 0,
        attempts: 0,
        message: null,
        result_json: JSON.stringify({
          reservedBytes: reservation,
          stagedBytes: reservation,
          quotaBytes: ctx.quotaBytes,
        } satisfies UploadJobResult),
        locked_by: null,
        locked_until: null,
        created_at: at,
        updated_at: at,
        finished_at: null,
      })
      .execute()
    return 'started' as const
  })
  if (outcome !== 'started') {
    if (manifestJson) await ctx.store.deletePrefix(stagingPrefix(id)).catch(() => undefined)
    if (outcome === 'busy') throw badRequest(tooManyReceiving(maxReceiving))
    throw await refuseQuota(ctx.db, userId, ctx.quotaBytes, reservation)
  }
  return getUpload(ctx, userId, id)
}

/**
 * One chunk at `offset`. Chunks have a fixed size (the last one: the rest), so the object at an
 * offset is always the same bytes: a chunk sent twice (its answer was lost) is answered again
 * without being written, and two requests racing for the same offset write the same object.
 */
export async function receiveChunk(
  ctx: UploadsContext,
  userId: string,
  uploadId: string,
  offset: number,
  bytes: Buffer,
): Promise<UploadState> {
  const job = await ownUpload(ctx.db, userId, uploadId)
  if (job.status !== 'receiving') throw new ApiError(409, UPLOAD_ALREADY_FINISHED)
  const total = Number(job.total_bytes)
  const received = Number(job.received_bytes)
  if (!Number.isSafeInteger(offset) || offset < 0 || offset % DICOM_UPLOAD_CHUNK_BYTES !== 0) {
    throw new ApiError(409, uploadOffsetMismatch(received))
  }
  const expectedLength = Math.min(DICOM_UPLOAD_CHUNK_BYTES, total - offset)
  if (offset < received) {
    if (bytes.length !== expectedLength) throw badRequest(UPLOAD_CHUNK_SIZE)
    return uploadState(job)
  }
  if (offset !== received) throw new ApiError(409, uploadOffsetMismatch(received))
  if (expectedLength <= 0 || bytes.length !== expectedLength) throw badRequest(UPLOAD_CHUNK_SIZE)

  await ctx.store.put(chunkKey(job.staging_prefix, offset), bytes, {
    contentType: 'application/octet-stream',
  })
  await ctx.db
    .updateTable('ingest_jobs')
    .set({ received_bytes: offset + bytes.length, updated_at: ctx.now().toISOString() })
    .where('id', '=', uploadId)
    .where('status', '=', 'receiving')
    .where('received_bytes', '=', offset)
    .execute()
  // Whoever won a race, the answer is the row as it now stands.
  return getUpload(ctx, userId, uploadId)
}

/** Marks the upload complete and queues it for the runner. */
export async function finishUpload(
  ctx: UploadsContext,
  runner: JobRunner,
  userId: string,
  uploadId: string,
): Promise<UploadState> {
  const job = await ownUpload(ctx.db, userId, uploadId)
  if (job.status !== 'receiving') return uploadState(job)
  if (Number(job.received_bytes) !== Number(job.total_bytes)) {
    throw badRequest(UPLOAD_NOT_COMPLETE)
  }
  try {
    await enqueueJob(runner, { id: uploadId })
  } catch (error) {
    // A double tap on 完成: the other request queued it; answer the row as it stands.
    const now = await ownUpload(ctx.db, userId, uploadId)
    if (now.status === 'receiving') throw error
  }
  return getUpload(ctx, userId, uploadId)
}

/** Cancels an upload still receiving, or removes the record of a failed one. */
export async function cancelUpload(
  ctx: UploadsContext,
  userId: string,
  uploadId: string,
): Promise<void> {
  const job = await ownUpload(ctx.db, userId, uploadId)
  if (job.status !== 'receiving' && job.status !== 'failed' && job.status !== 'cancelled') {
    if (job.status === 'done') throw badRequest('影像已解析完成，请在影像详情中删除')
    throw new ApiError(409, UPLOAD_PROCESSING)
  }
  await dropUpload(ctx, job)
}

/** Removes an upload that will never be processed: its row, its chunks, what it reserved. */
async function dropUpload(ctx: UploadsContext, job: IngestJobsTable): Promise<void> {
  const deleted = await ctx.db.transaction().execute(async (trx) => {
    const result = await trx
      .deleteFrom('ingest_jobs')
      .where('id', '=', job.id)
      .where('status', '=', job.status)
      .where('updated_at', '=', job.updated_at)
      .executeTakeFirst()
    if (Number(result.numDeletedRows) !== 1) return false
    // A failed or cancelled upload already gave its reservation back when it ended.
    if (job.status === 'receiving') {
      await releaseStorage(trx, job.user_id!, readResult(job).reservedBytes, ctx.now())
    }
    return true
  })
  if (!deleted) throw new ApiError(409, '上传状态已变化，请刷新后重试')
  await ctx.store.deletePrefix(job.staging_prefix)
}

// --- processing (the 'upload' job) -------------------------------------------------------------

/** What was sent: a zip, or several files (whose messages do not speak of a 压缩包). */
type UploadSource = 'zip' | 'files'

function emptyResultMessage(result: IngestResult, source: UploadSource): string {
  const unreadable = result.instances.find(
    (item) => item.status === 'failed' && item.code !== 'NOT_DICOM',
  )
  const where = source === 'zip' ? '压缩包中的' : '所选的'
  if (unreadable?.reason) return `${where} DICOM 文件无法读取：${unreadable.reason}`
  return source === 'zip' ? ZIP_NO_DICOM : FILES_NO_DICOM
}

export const UPLOAD_ALL_DUPLICATES = '压缩包中的影像之前已上传过'
export const FILES_ALL_DUPLICATES = '所选文件中的影像之前已上传过'

function resultMessage(
  source: UploadSource,
  stored: number,
  skipped: number,
  unreadable: number,
): string | null {
  const parts: string[] = []
  if (stored === 0) parts.push(source === 'zip' ? UPLOAD_ALL_DUPLICATES : FILES_ALL_DUPLICATES)
  if (skipped > 0) {
    parts.push(source === 'zip' ? zipSkippedMessage(skipped) : filesSkippedMessage(skipped))
  }
  if (unreadable > 0) parts.push(`有 ${unreadable} 个 DICOM 文件无法读取，已跳过`)
  return parts.length > 0 ? parts.join('；') : null
}

/** Every attempt's objects of a job (the runner gives each attempt its own batch id). */
const jobObjectsPattern = (jobId: string) =>
  `${batchPrefix(attemptBatchId(jobId, 0)).slice(0, -2)}%`

/**
 * The 'upload' job: assemble the chunks into a local file, unpack it safely, ingest its DICOM files
 * into the person's studies, settle the quota. Refusals (unsafe zip, no DICOM, quota) end the job
 * `failed` with their Chinese reason and leave nothing stored (the runner's onFailed hook gives the
 * reservation back). Safe to run again after a crash: the reservation is read back from the row, and
 * instances an earlier attempt committed are duplicates now, stored once.
 */
export async function processUpload(
  job: JobRow,
  ctx: Pick<JobContext, 'db' | 'store' | 'cipher' | 'now' | 'batchId'>,
  options: { zipLimits?: ZipLimits; scratchDir?: string } = {},
): Promise<JobOutcome> {
  const userId = job.user_id
  if (!userId) throw new JobFailure(UPLOAD_FAILED_GENERIC)
  const fresh = await ctx.db
    .selectFrom('ingest_jobs')
    .select('result_json')
    .where('id', '=', job.id)
    .executeTakeFirst()
  const held = readResult(fresh ?? job)
  const quotaBytes = held.quotaBytes ?? Number.MAX_SAFE_INTEGER
  let reserved = held.reservedBytes
  // What the chunks (and the file list) hold while they exist: kept through an unforeseen failure.
  const zipReservation = held.stagedBytes ?? Number(job.total_bytes ?? 0)
  // A refusal gives the reservation back before the job is marked failed: the person who sees
  // 失败 must already see the space free (the runner's onFailed then finds nothing held).
  const refusal = async (message: string): Promise<JobOutcome> => {
    const none = JSON.stringify({ reservedBytes: 0, quotaBytes } satisfies UploadJobResult)
    await ctx.db.transaction().execute(async (trx) => {
      await releaseStorage(trx, userId, reserved, ctx.now())
      await trx
        .updateTable('ingest_jobs')
        .set({ result_json: none })
        .where('id', '=', job.id)
        .execute()
    })
    reserved = 0
    await ctx.store.deletePrefix(job.staging_prefix).catch(() => undefined)
    return { status: 'failed', message, result: JSON.parse(none) as UploadJobResult }
  }

  const scratchDir = options.scratchDir ?? os.tmpdir()
  const inScratch = <T>(work: Promise<T>) =>
    work.catch((error: unknown) => {
      throw asStorageFull(error, `scratch ${path.resolve(scratchDir)}`)
    })
  const scratch = await inScratch(mkdtemp(path.join(scratchDir, 'upload-')))
  try {
    const zipPath = path.join(scratch, 'upload.zip')
    await inScratch(assemble(ctx, job, zipPath))
    const manifest = await readManifest(ctx.store, job.staging_prefix)
    const source: UploadSource = manifest ? 'files' : 'zip'
    const limits = options.zipLimits ?? DEFAULT_ZIP_LIMITS
    let zip
    try {
      zip = manifest
        ? await openDicomFiles(zipPath, manifest, limits)
        : await openDicomZip(zipPath, limits)
    } catch (error) {
      if (error instanceof ZipRefusedError) return await refusal(error.message)
      throw error
    }
    try {
      // The files are stored as they inflate: reserve the difference now, so a zip whose contents
      // do not fit is refused before anything is written (and parallel jobs cannot overcommit).
      const extra = zip.declaredBytes - reserved
      if (extra > 0) {
        const ok = await ctx.db.transaction().execute(async (trx) => {
          if (!(await reserveStorage(trx, userId, extra, quotaBytes, ctx.now()))) return false
          await trx
            .updateTable('ingest_jobs')
            .set({
              result_json: JSON.stringify({
                reservedBytes: reserved + extra,
                stagedBytes: zipReservation,
                quotaBytes,
              } satisfies UploadJobResult),
            })
            .where('id', '=', job.id)
            .execute()
          return true
        })
        if (!ok) {
          const { usedBytes } = await storageQuota(ctx.db, userId, quotaBytes)
          return await refusal(quotaExceeded(usedBytes, quotaBytes, zip.declaredBytes))
        }
        reserved += extra
      }

      let result: IngestResult
      try {
        result = await ingestFiles(ctx, { kind: 'upload', userId }, zip.files(), {
          batchId: ctx.batchId,
        })
      } catch (error) {
        if (error instanceof ZipRefusedError) return await refusal(error.message)
        throw error
      }
      if (result.stored + result.duplicates === 0) {
        return await refusal(emptyResultMessage(result, source))
      }
      const title = manifest
        ? manifestFolder(manifest)
        : (job.file_name ?? '').replace(/\.zip$/i, '').trim() || null
      return await settle(ctx, job, reserved, quotaBytes, result, {
        source,
        title,
        skipped: zip.skippedNotDicom,
      })
    } finally {
      zip.close()
    }
  } catch (error) {
    // Something unforeseen (the runner retries): hold only the zip's own size meanwhile, so a job
    // that ends up failing for good gives back exactly what the row says.
    if (reserved > zipReservation) {
      await ctx.db.transaction().execute(async (trx) => {
        await releaseStorage(trx, userId, reserved - zipReservation, ctx.now())
        await trx
          .updateTable('ingest_jobs')
          .set({
            result_json: JSON.stringify({
              reservedBytes: zipReservation,
              stagedBytes: zipReservation,
              quotaBytes,
            } satisfies UploadJobResult),
          })
          .where('id', '=', job.id)
          .execute()
      })
    }
    throw error
  } finally {
    await rm(scratch, { recursive: true, force: true })
  }
}

/** The runner's hook when an upload ends failed or cancelled for good: the reservation comes back. */
export async function releaseUploadReservation(
  job: JobRow,
  ctx: Pick<JobContext, 'db' | 'now'>,
): Promise<void> {
  if (!job.user_id) return
  const fresh = await ctx.db
    .selectFrom('ingest_jobs')
    .select('result_json')
    .where('id', '=', job.id)
    .executeTakeFirst()
  // A failure the processor did not describe leaves no result: the zip's size is what is held.
  const held = fresh?.result_json ? readResult(fresh).reservedBytes : Number(job.total_bytes ?? 0)
  await releaseStorage(ctx.db, job.user_id, held, ctx.now())
}

/** A patient's zip upload, ingested by the job runner (listed in src/job-kinds.ts). */
export const uploadJob: JobKind = {
  kind: UPLOAD_KIND,
  process: (job, ctx) => processUpload(job, ctx),
  onFailed: releaseUploadReservation,
}

/** Concatenates the chunk objects into one local file, streamed (never held whole). */
async function assemble(ctx: Pick<JobContext, 'store'>, job: JobRow, file: string): Promise<void> {
  const total = Number(job.total_bytes)
  const out = createWriteStream(file, { flags: 'w', mode: 0o600 })
  // The first write error (a full disk) is the one to report: it may come while no one awaits the
  // stream, and ending the destroyed stream afterwards only says ERR_STREAM_DESTROYED.
  let failed: Error | undefined
  out.on('error', (error) => (failed ??= error))
  try {
    for (let offset = 0; offset < total; offset += DICOM_UPLOAD_CHUNK_BYTES) {
      const { body } = await ctx.store.get(chunkKey(job.staging_prefix, offset))
      // Written by hand rather than pipeline(…, { end: false }): that leaves listeners on the one
      // output stream per chunk (a warning, and a leak, for a zip of hundreds of chunks).
      for await (const data of body as AsyncIterable<Buffer>) {
        if (failed) throw failed
        if (!out.write(data)) await once(out, 'drain')
      }
    }
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    )
  } catch (error) {
    out.destroy()
    throw failed ?? error
  }
}

async function settle(
  ctx: Pick<JobContext, 'db' | 'now' | 'store'>,
  job: JobRow,
  reserved: number,
  quotaBytes: number,
  result: IngestResult,
  sent: { source: UploadSource; title: string | null; skipped: number },
): Promise<JobOutcome> {
  const now = ctx.now()
  const examIds = [
    ...new Set(result.instances.map((item) => item.examId).filter((id): id is string => !!id)),
  ]
  const stored = await ctx.db
    .selectFrom('instances')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('file_size'), eb.val(0)).as('bytes'))
    .where('file_key', 'like', jobObjectsPattern(job.id))
    .executeTakeFirst()
  const charged = Number(stored?.bytes ?? 0)
  const { title } = sent
  const skipped = sent.skipped + result.notDicom
  const unreadable = result.failed - result.notDicom
  const message = resultMessage(sent.source, result.stored, skipped, unreadable)
  await ctx.db.transaction().execute(async (trx) => {
    await releaseStorage(trx, job.user_id!, reserved - charged, now)
    await trx
      .updateTable('ingest_jobs')
      .set({
        result_json: JSON.stringify({ reservedBytes: 0, quotaBytes } satisfies UploadJobResult),
      })
      .where('id', '=', job.id)
      .execute()
    if (title && examIds.length > 0) {
      await trx
        .updateTable('exams')
        .set({ title })
        .where('id', 'in', examIds)
        .where('title', 'is', null)
        .execute()
    }
    // The list line of the study says what was left out of the zip (or nothing, when all was kept).
    if (examIds.length > 0) {
      await trx
        .updateTable('exams')
        .set({ status_message: message })
        .where('id', 'in', examIds)
        .execute()
    }
  })
  // The chunks served their purpose (the runner deletes them too, after marking the job done).
  await ctx.store.deletePrefix(job.staging_prefix).catch(() => undefined)
  return {
    status: 'done',
    examId: examIds[0] ?? null,
    storedCount: result.stored,
    duplicateCount: result.duplicates,
    skippedCount: skipped + unreadable,
    message,
    result: {
      reservedBytes: 0,
      chargedBytes: charged,
      examIds,
      quotaBytes,
    } satisfies UploadJobResult,
  }
}

// --- the study's record and deletes ------------------------------------------------------------

/** An upload of the caller's own (404 for anything else, including hospital exams they can see). */
export async function ownUploadExam(ctx: UploadsContext, userId: string, examId: string) {
  const exam = await findVisibleExam(ctx.db, ctx.cipher, { kind: 'user', userId }, examId)
  if (exam.source !== 'upload' || exam.owner_user_id !== userId) throw notFound(EXAM_NOT_FOUND)
  return exam
}

export async function saveDicomReport(
  ctx: UploadsContext,
  userId: string,
  examId: string,
  input: {
    title?: string | null
    hospitalText?: string | null
    studyDate?: string | null
    notes?: string | null
  },
): Promise<void> {
  await ownUploadExam(ctx, userId, examId)
  const clean = (value: string | null | undefined) =>
    value === undefined ? undefined : value?.trim() || null
  const updates = {
    title: clean(input.title),
    hospital_text: clean(input.hospitalText),
    study_date: clean(input.studyDate),
    notes: clean(input.notes),
  }
  const set = Object.fromEntries(Object.entries(updates).filter(([, v]) => v !== undefined))
  if (Object.keys(set).length === 0) return
  await ctx.db
    .updateTable('exams')
    .set({ ...set, updated_at: ctx.now().toISOString() })
    .where('id', '=', examId)
    .execute()
}

/** Keys of an instance's objects (previews rendered from it are under previewKeyPrefix). */
function instanceKeys(row: { file_key: string; pixels_key: string | null }): string[] {
  return [row.file_key, ...(row.pixels_key ? [row.pixels_key] : [])]
}

async function removeObjects(ctx: UploadsContext, keys: string[], prefixes: string[]) {
  // After the rows are gone nothing points at these; a failed delete is retried once, then left
  // for the log (the row that would show it no longer exists).
  for (const key of keys) {
    await ctx.store.delete(key).catch(() => ctx.store.delete(key))
  }
  for (const prefix of prefixes) {
    await ctx.store.deletePrefix(prefix).catch(() => ctx.store.deletePrefix(prefix))
  }
}

export const INSTANCE_NOT_FOUND = '文件不存在或已删除'

/**
 * Deletes the study and gives back what its files took. The rows are deleted with RETURNING and
 * the bytes released are summed from what this request's DELETEs removed: a one-file delete (or
 * another study delete) racing it has either removed a row first (then it is not counted here) or
 * waits for this transaction and finds nothing (then it releases nothing), so no byte is given
 * back twice, on SQLite (serial writes) or PostgreSQL (row locks).
 */
export async function deleteUploadExam(
  ctx: UploadsContext,
  userId: string,
  examId: string,
): Promise<void> {
  await ownUploadExam(ctx, userId, examId)
  const now = ctx.now()
  const { instances, files } = await ctx.db.transaction().execute(async (trx) => {
    const instances = await trx
      .deleteFrom('instances')
      .where('exam_id', '=', examId)
      .returning(['file_key', 'pixels_key', 'file_size'])
      .execute()
    const files = await trx
      .deleteFrom('exam_files')
      .where('exam_id', '=', examId)
      .returning(['file_key', 'size_bytes'])
      .execute()
    const result = await trx
      .deleteFrom('exams')
      .where('id', '=', examId)
      .where('owner_user_id', '=', userId)
      .executeTakeFirst()
    // Gone meanwhile (another delete won): thrown, so the transaction rolls back.
    if (Number(result.numDeletedRows) !== 1) throw notFound(EXAM_NOT_FOUND)
    const freed =
      instances.reduce((sum, row) => sum + Number(row.file_size), 0) +
      files.reduce((sum, row) => sum + Number(row.size_bytes), 0)
    await releaseStorage(trx, userId, freed, now)
    return { instances, files }
  })
  await removeObjects(
    ctx,
    [...instances.flatMap(instanceKeys), ...files.map((row) => row.file_key)],
    [previewKeyPrefix(examId)],
  )
}

/**
 * Deletes one file of the study. The row is read by the DELETE that removes it (RETURNING): of
 * requests racing to delete the same file only one removes the row, and only that one releases its
 * bytes; the others answer 404.
 */
export async function deleteUploadInstance(
  ctx: UploadsContext,
  userId: string,
  examId: string,
  instanceId: string,
): Promise<void> {
  await ownUploadExam(ctx, userId, examId)
  const now = ctx.now()
  const row = await ctx.db.transaction().execute(async (trx) => {
    const gone = await trx
      .deleteFrom('instances')
      .where('id', '=', instanceId)
      .where('exam_id', '=', examId)
      .returning(['id', 'file_key', 'pixels_key', 'file_size', 'series_id'])
      .executeTakeFirst()
    if (!gone) return null
    // A series without instances is gone too (a study is what its files are).
    const left = await trx
      .selectFrom('instances')
      .select('id')
      .where('series_id', '=', gone.series_id)
      .limit(1)
      .executeTakeFirst()
    if (!left) await trx.deleteFrom('series').where('id', '=', gone.series_id).execute()
    await refreshExamCounts(trx, examId, now)
    await releaseStorage(trx, userId, Number(gone.file_size), now)
    return gone
  })
  if (!row) throw notFound(INSTANCE_NOT_FOUND)
  await removeObjects(ctx, instanceKeys(row), [`${previewKeyPrefix(examId)}${row.id}/`])
}
