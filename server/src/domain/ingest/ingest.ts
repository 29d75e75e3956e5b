import { randomUUID } from 'node:crypto'
import type { FieldCipher } from '../../crypto/field-cipher'
import type { DB } from '../../db'
import type { InstancesTable } from '../../db/schema'
import {
  decodeFrames,
  dicomJson,
  type DicomInstance,
  DicomParseError,
  type Frame,
  parse,
} from '../../dicom'
import { loadJpegEncoder } from '../../dicom/codecs'
import { batchPrefix } from '../../jobs/runner'
import type { ObjectStore } from '../../storage'
import {
  type Executor,
  mobileIn,
  refreshExamCounts,
  residentIdAmong,
  upsertHospitalExam,
  upsertUploadExam,
} from '../records'
import { warmDetailThumbnails } from '../records'

/*
 * Ingest: DICOM files in, exams/series/instances out. Used by STOW-RS (hospital pushes) and by zip
 * uploads (a patient's own studies), always inside a job (jobs.ts).
 *
 * Order of work, so that a crash at any point leaves no half-stored exam:
 * 1. each file is parsed and decoded once, and its original bytes and decoded frames are written to
 *    the object store under objects/<batchId>/ (only the metadata stays in memory, so a 1 GB zip is
 *    never held whole). These puts are deferred (not flushed one by one: four fsyncs per object
 *    made a 500-slice CT take 30 s); the whole batch is made durable by one store.sync before
 *    step 2, so a committed row never points at an object a crash could lose or tear;
 * 2. every row of the batch (exams, series, instances, counts) is written in ONE transaction;
 * 3. objects of instances that turned out to be duplicates are deleted after the commit.
 * A crash before 2 leaves only objects under the batch prefix. Each attempt of a job uses a batch id
 * of its own (jobs.ts: `<job>-a<n>`), and the runner deletes the prefixes of attempts that never
 * committed: reusing a committed attempt's id would let its duplicate clean-up delete stored files.
 */

export interface IngestContext {
  db: DB
  store: ObjectStore
  cipher: FieldCipher
  now: () => Date
}

export type IngestTarget =
  { kind: 'hospital'; hospitalId: string } | { kind: 'upload'; userId: string }

export interface IngestFile {
  name: string
  bytes: Buffer
}

export interface InstanceOutcome {
  name: string
  status: 'stored' | 'duplicate' | 'failed'
  sopClassUid?: string
  sopInstanceUid?: string
  studyUid?: string
  seriesUid?: string
  examId?: string
  /** failed only: the DicomParseError code ('NOT_DICOM', ...) and a reason a person understands. */
  code?: string
  reason?: string
}

export interface IngestResult {
  instances: InstanceOutcome[]
  /** Exams that received at least one new instance. */
  examIds: string[]
  stored: number
  duplicates: number
  failed: number
  /** Of the failed: files that were not DICOM at all (a zip's stray files). */
  notDicom: number
}

/**
 * Files prepared at once: one is parsed and decoded (CPU) while the objects of the others are
 * written (the disk, on libuv's threads). One at a time left the CPU idle half of a CT's ingest.
 */
const FILES_IN_FLIGHT = 4

/**
 * Bytes prepared at once (each file's bytes, its decoded frames and their concatenated copy),
 * so a zip of 256 MB entries is not held four at a time (the server stays under 300 MB while it
 * ingests). A file larger than this alone is still prepared, alone.
 */
export const BYTES_IN_FLIGHT = 64 * 1024 * 1024

/** Rows are inserted in chunks: one statement per instance is slow on PostgreSQL for 500 slices. */
const INSERT_CHUNK = 100

/**
 * What the rows need from a parsed instance, and nothing more: the parsed data set holds the whole
 * file's bytes, and a 1 GB upload must not keep every file alive until its commit.
 */
type InstanceFacts = Omit<DicomInstance, 'dataSet' | 'image'> & { bodyPart?: string }

interface Prepared {
  outcome: InstanceOutcome
  facts: InstanceFacts
  phone?: string
  row: Omit<InstancesTable, 'id' | 'exam_id' | 'series_id' | 'created_at'>
}

export async function ingestFiles(
  ctx: IngestContext,
  target: IngestTarget,
  files: AsyncIterable<IngestFile> | Iterable<IngestFile>,
  options: {
    batchId?: string
    /**
     * Patient uploads: render the new series' detail thumbnails after the commit (default true).
     * Hospital pushes never do (see warmThumbnails).
     */
    thumbnails?: boolean
  } = {},
): Promise<IngestResult> {
  const warm = target.kind === 'upload' && options.thumbnails !== false
  // The JPEG encoder is instantiated (WASM, ~0.2–1 s) while the files are parsed, not after the
  // commit when the thumbnails need it; loaded once per process (the server also loads it at start).
  if (warm) void loadJpegEncoder().catch(() => undefined)
  const batchId = options.batchId ?? randomUUID()
  const prefix = batchPrefix(batchId)
  const outcomes: InstanceOutcome[] = []
  const prepared: Prepared[] = []
  const examIds = new Set<string>()
  const ready: (Prepared | { outcome: InstanceOutcome })[] = []
  // Every file's task is kept until the end, and the first failure is remembered: a task that
  // failed while ingest waited on the source (zip and several-files readers are async) was once
  // dropped with its error, and the batch committed without that file as a success.
  const tasks: Promise<void>[] = []
  const running = new Set<Promise<void>>()
  let bytesInFlight = 0
  let failure: { error: unknown } | undefined
  const throwIfFailed = () => {
    if (failure) throw failure.error
  }
  let position = 0
  try {
    for await (const file of files) {
      throwIfFailed()
      const index = position++
      const read = readFile(file)
      if ('outcome' in read) {
        ready[index] = read
        continue
      }
      const weight = file.bytes.length + 2 * decodedBytes(read.instance)
      while (
        running.size > 0 &&
        (running.size >= FILES_IN_FLIGHT || bytesInFlight + weight > BYTES_IN_FLIGHT)
      ) {
        await Promise.race(running)
        throwIfFailed()
      }
      bytesInFlight += weight
      const task: Promise<void> = prepareFile(ctx.store, prefix, index, file, read.instance)
        .then(
          (result) => {
            ready[index] = result
          },
          (error: unknown) => {
            failure ??= { error }
          },
        )
        .finally(() => {
          bytesInFlight -= weight
          running.delete(task)
        })
      tasks.push(task)
      running.add(task)
      // Tasks never reject (their error is in `failure`), so the race only waits for room. The
      // next file is pulled (the source reads it into memory) only once there is some.
      while (running.size >= FILES_IN_FLIGHT || bytesInFlight >= BYTES_IN_FLIGHT) {
        await Promise.race(running)
        throwIfFailed()
      }
    }
    await Promise.all(tasks)
    throwIfFailed()
    // One outcome per file, or nothing is committed (a hole is a bug, never a silent omission).
    for (let index = 0; index < position; index++) {
      if (!ready[index]) throw new Error(`ingest: file ${index} of ${position} has no outcome`)
    }
    // In the order the files came, whatever order they finished in.
    for (const item of ready) {
      outcomes.push(item.outcome)
      if ('row' in item) prepared.push(item)
    }

    const duplicateKeys: string[] = []
    if (prepared.length > 0) {
      // Durable before any row can point at them (see the order of work above).
      await ctx.store.sync(prepared.flatMap(({ row }) => objectKeys(row)))
      await ctx.db.transaction().execute(async (trx) => {
        const now = ctx.now()
        for (const group of groupByStudy(prepared)) {
          const examId = await examFor(trx, ctx.cipher, target, group, now)
          const inserted = await insertInstances(trx, examId, group, now)
          for (const item of group) {
            item.outcome.examId = examId
            if (inserted.has(item.row.file_key)) {
              item.outcome.status = 'stored'
              examIds.add(examId)
            } else {
              item.outcome.status = 'duplicate'
              duplicateKeys.push(...objectKeys(item.row))
            }
          }
          await refreshExamCounts(trx, examId, now)
        }
      })
    }
    // After the commit: the rows no longer point at these, so removing them cannot lose anything.
    for (const key of duplicateKeys) await ctx.store.delete(key).catch(() => undefined)
  } catch (error) {
    // Nothing was committed: the batch's objects go too, once no file is still being written.
    await Promise.allSettled(tasks)
    await ctx.store.deletePrefix(prefix).catch(() => undefined)
    throw error
  }

  // Committed. A patient's upload: the thumbnails 影像详情 shows first are rendered now, so its
  // first view is a cached read; before the job reports done, so 可查看 means that. Never throws
  // (best effort). Not for hospital pushes: a PACS pushes a series one instance a request and the
  // middle instance moves with each, so nearly every render was of a thumbnail never shown, and the
  // hospital's synchronous STOW answer waited for it. Their page renders on first view and caches.
  if (warm) await warmThumbnails(ctx, outcomes)

  return {
    instances: outcomes,
    examIds: [...examIds],
    stored: outcomes.filter((item) => item.status === 'stored').length,
    duplicates: outcomes.filter((item) => item.status === 'duplicate').length,
    failed: outcomes.filter((item) => item.status === 'failed').length,
    notDicom: outcomes.filter((item) => item.code === 'NOT_DICOM').length,
  }
}

/**
 * Series thumbnails rendered per upload at most (in the page's order, the rest on demand): a study
 * has a handful; the page shows the first.
 */
export const WARM_THUMBNAIL_SERIES = 12

/** Renders the detail page's thumbnails of the series that received new instances. */
async function warmThumbnails(ctx: IngestContext, outcomes: InstanceOutcome[]): Promise<void> {
  const seriesByExam = new Map<string, Set<string>>()
  for (const outcome of outcomes) {
    if (outcome.status !== 'stored' || !outcome.examId || !outcome.seriesUid) continue
    const series = seriesByExam.get(outcome.examId) ?? new Set<string>()
    series.add(outcome.seriesUid)
    seriesByExam.set(outcome.examId, series)
  }
  let budget = WARM_THUMBNAIL_SERIES
  for (const [examId, series] of seriesByExam) {
    if (budget <= 0) break
    try {
      budget -= await warmDetailThumbnails(ctx.db, ctx.store, examId, [...series], budget)
    } catch {
      // The rows are committed and the page renders on demand: a failure here changes nothing.
    }
  }
}

/** Parses one file; a file we cannot read is an outcome, not an error. */
function readFile(file: IngestFile): { instance: DicomInstance } | { outcome: InstanceOutcome } {
  try {
    return { instance: parse(file.bytes) }
  } catch (error) {
    if (error instanceof DicomParseError) {
      return {
        outcome: { name: file.name, status: 'failed', code: error.code, reason: error.message },
      }
    }
    throw error
  }
}

/** Bytes of the frames decodeFrames will give (8 or 16 bits a sample), from the header alone. */
function decodedBytes(instance: DicomInstance): number {
  const image = instance.image
  if (!image) return 0
  const sampleBytes = Math.max(1, Math.ceil(image.bitsAllocated / 8))
  // PALETTE COLOR arrives as RGB.
  const samples = image.photometricInterpretation === 'PALETTE COLOR' ? 3 : image.samplesPerPixel
  return image.rows * image.columns * samples * sampleBytes * image.numberOfFrames
}

/** Decode and write one parsed file's objects. */
async function prepareFile(
  store: ObjectStore,
  prefix: string,
  index: number,
  file: IngestFile,
  instance: DicomInstance,
): Promise<Prepared> {
  const outcome: InstanceOutcome = {
    name: file.name,
    status: 'stored',
    sopClassUid: instance.sopClassUid,
    sopInstanceUid: instance.sopInstanceUid,
    studyUid: instance.studyInstanceUid,
    seriesUid: instance.seriesInstanceUid,
  }

  const fileKey = `${prefix}${index}.dcm`
  await store.put(fileKey, file.bytes, { contentType: 'application/dicom', durability: 'deferred' })

  const decoded = await decodeFrames(instance)
  let pixels: { key: string; format: string; frameBytes: number } | undefined
  let previewStatus = 'ready'
  let previewMessage: string | null = null
  if (decoded.ok && decoded.frames.length > 0) {
    const key = `${prefix}${index}.pixels`
    const buffers = decoded.frames.map(frameBytes)
    await store.put(key, Buffer.concat(buffers), {
      contentType: 'application/octet-stream',
      durability: 'deferred',
    })
    pixels = { key, format: pixelFormat(decoded.frames[0]!), frameBytes: buffers[0]!.length }
  } else if (!decoded.ok) {
    previewStatus =
      decoded.reason === 'NoPixelData'
        ? 'none'
        : decoded.reason === 'UnsupportedTransferSyntax'
          ? 'unsupported'
          : 'failed'
    previewMessage = decoded.message
  }

  const image = instance.image
  const { dataSet, image: _image, ...facts } = instance
  return {
    outcome,
    facts: { ...facts, bodyPart: dataSet.string('x00180015')?.trim() || undefined },
    phone: mobileIn(dataSet.string('x00102154')),
    row: {
      sop_instance_uid: instance.sopInstanceUid,
      sop_class_uid: instance.sopClassUid || null,
      instance_number: instance.instanceNumber ?? null,
      transfer_syntax: instance.transferSyntaxUid,
      rows: image?.rows ?? null,
      columns: image?.columns ?? null,
      frame_count: image?.numberOfFrames ?? 1,
      file_key: fileKey,
      file_size: file.bytes.length,
      pixels_key: pixels?.key ?? null,
      pixel_format: pixels?.format ?? null,
      frame_bytes: pixels?.frameBytes ?? null,
      preview_status: previewStatus,
      preview_message: previewMessage,
      metadata_json: JSON.stringify(dicomJson(instance)),
    },
  }
}

/** The objects an instance row points at. */
function objectKeys(row: Prepared['row']): string[] {
  return row.pixels_key ? [row.file_key, row.pixels_key] : [row.file_key]
}

function frameBytes(frame: Frame): Buffer {
  const { buffer, byteOffset, byteLength } = frame.pixels
  // Typed arrays are little-endian on every platform Node runs on here (x86, ARM).
  return Buffer.from(buffer, byteOffset, byteLength)
}

function pixelFormat(frame: Frame): string {
  if (frame.kind === 'rgb') return 'rgb8'
  if (frame.pixels instanceof Int16Array) return 's16'
  if (frame.pixels instanceof Uint16Array) return 'u16'
  return 'u8'
}

function groupByStudy(items: Prepared[]): Prepared[][] {
  const groups = new Map<string, Prepared[]>()
  for (const item of items) {
    const uid = item.facts.studyInstanceUid
    const group = groups.get(uid)
    if (group) group.push(item)
    else groups.set(uid, [item])
  }
  return [...groups.values()]
}

/** DICOM DA (YYYYMMDD) → YYYY-MM-DD; TM (HHMMSS.frac) → HH:mm:ss. Anything else is dropped. */
export function dicomDate(value: string | undefined): string | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(value?.trim() ?? '')
  return match ? `${match[1]}-${match[2]}-${match[3]}` : undefined
}

export function dicomTime(value: string | undefined): string | undefined {
  const match = /^(\d{2})(\d{2})?(\d{2})?/.exec(value?.trim() ?? '')
  return match ? `${match[1]}:${match[2] ?? '00'}:${match[3] ?? '00'}` : undefined
}

async function examFor(
  trx: Executor,
  cipher: FieldCipher,
  target: IngestTarget,
  group: Prepared[],
  now: Date,
): Promise<string> {
  const first = group[0]!.facts
  const study = {
    date: dicomDate(first.study.date),
    time: dicomTime(first.study.time),
    description: first.study.description?.trim() || undefined,
  }
  if (target.kind === 'upload') {
    const exam = await upsertUploadExam(
      trx,
      cipher,
      {
        userId: target.userId,
        studyUid: first.studyInstanceUid,
        accessionNumber: first.study.accessionNumber,
        patientName: first.patient.name,
        sex: first.patient.sex,
        birthDate: dicomDate(first.patient.birthDate),
        study,
      },
      now,
    )
    return exam.id
  }
  const exam = await upsertHospitalExam(
    trx,
    cipher,
    {
      hospitalId: target.hospitalId,
      studyUid: first.studyInstanceUid,
      accessionNumber: first.study.accessionNumber,
      patient: {
        idNumber: residentIdAmong([first.patient.id, ...first.patient.otherIds], now),
        name: first.patient.name,
        phone: group.find((item) => item.phone)?.phone,
        sex: first.patient.sex,
        birthDate: dicomDate(first.patient.birthDate),
      },
      study,
    },
    now,
  )
  return exam.id
}

/** Inserts the group's series and instances; answers the file keys of the rows actually inserted. */
async function insertInstances(
  trx: Executor,
  examId: string,
  group: Prepared[],
  now: Date,
): Promise<Set<string>> {
  const at = now.toISOString()
  const seriesIds = new Map<string, string>()
  for (const item of group) {
    const uid = item.facts.seriesInstanceUid
    if (seriesIds.has(uid)) continue
    await trx
      .insertInto('series')
      .values({
        id: randomUUID(),
        exam_id: examId,
        series_uid: uid,
        modality: item.facts.modality?.trim() || null,
        series_number: item.facts.series.number ?? null,
        description: item.facts.series.description?.trim() || null,
        body_part: item.facts.bodyPart ?? null,
        instance_count: 0,
        created_at: at,
      })
      .onConflict((conflict) => conflict.columns(['exam_id', 'series_uid']).doNothing())
      .execute()
    const row = await trx
      .selectFrom('series')
      .select('id')
      .where('exam_id', '=', examId)
      .where('series_uid', '=', uid)
      .executeTakeFirstOrThrow()
    seriesIds.set(uid, row.id)
  }

  const inserted = new Set<string>()
  for (let start = 0; start < group.length; start += INSERT_CHUNK) {
    const chunk = group.slice(start, start + INSERT_CHUNK)
    const rows = await trx
      .insertInto('instances')
      .values(
        chunk.map((item) => ({
          ...item.row,
          id: randomUUID(),
          exam_id: examId,
          series_id: seriesIds.get(item.facts.seriesInstanceUid)!,
          created_at: at,
        })),
      )
      .onConflict((conflict) => conflict.columns(['exam_id', 'sop_instance_uid']).doNothing())
      .returning('file_key')
      .execute()
    for (const row of rows) inserted.add(row.file_key)
  }
  return inserted
}
