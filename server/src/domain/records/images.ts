import { createHash } from 'node:crypto'
import type { Readable } from 'node:stream'
import { sql } from 'kysely'
import {
  type DicomJson,
  type Frame,
  NO_PIXELS_MESSAGE,
  NO_SUCH_FRAME_MESSAGE,
  renderOptionsFor,
  renderPixels,
  renderPng,
  type RenderOptions,
  UNSUPPORTED_PREVIEW_MESSAGE,
} from '../../dicom'
import { encodeJpeg } from '../../dicom/codecs'
import type { DB } from '../../db'
import type { InstancesTable } from '../../db/schema'
import { ApiError, notFound } from '../../http/errors'
import type { ObjectStore } from '../../storage'

/*
 * A study's stored images, shared by the write path (ingest warms the thumbnails 影像详情 asks for
 * first) and the read paths (WADO-RS, the patient's exam detail): an instance's metadata as served,
 * its decoded frames, rendered images and thumbnails, and which instance a series' thumbnail shows.
 * Rendered images are made on the first request and kept in the object store next to nothing else
 * of the exam's, under previewKeyPrefix(examId): deleting an exam deletes that prefix too.
 */

/** An instance as the reads need it: its row, with its series' and study's identifiers. */
export type InstanceRow = Omit<InstancesTable, 'series_id' | 'created_at'> & {
  series_uid: string
  series_number: number | null
  study_uid: string
}

/**
 * WADO-RS metadata of one instance: the stored DICOM JSON, UIDs guaranteed, and its pixel module
 * describing the frames as /frames serves them (see describeServedPixels).
 */
export function instanceMetadata(row: InstanceRow): DicomJson {
  let json: DicomJson = {}
  try {
    json = JSON.parse(row.metadata_json) as DicomJson
  } catch {
    json = {}
  }
  json['0020000D'] = { vr: 'UI', Value: [row.study_uid] }
  json['0020000E'] = { vr: 'UI', Value: [row.series_uid] }
  json['00080018'] = { vr: 'UI', Value: [row.sop_instance_uid] }
  describeServedPixels(json, row)
  return json
}

const PALETTE_TAGS = [
  '00281101',
  '00281102',
  '00281103',
  '00281199',
  '00281201',
  '00281202',
  '00281203',
  '00281221',
  '00281222',
  '00281223',
]

/**
 * /frames answers our decoded pixels, not the stored encoding: colour always as interleaved 8-bit
 * RGB (YBR converted, PALETTE COLOR expanded), monochrome as 8- or 16-bit little-endian samples. A
 * DICOMweb viewer reads frames by the metadata's image pixel module, so that module describes the
 * frames as served; a palette left in it would be applied a second time. The file itself
 * (instance retrieve) is untouched.
 */
function describeServedPixels(json: DicomJson, row: InstanceRow): void {
  if (row.preview_status !== 'ready' || !row.pixel_format) return
  const us = (value: number) => ({ vr: 'US', Value: [value] })
  if (row.pixel_format === 'rgb8') {
    json['00280002'] = us(3)
    json['00280004'] = { vr: 'CS', Value: ['RGB'] }
    json['00280006'] = us(0)
    json['00280100'] = us(8)
    json['00280101'] = us(8)
    json['00280102'] = us(7)
    json['00280103'] = us(0)
    for (const tag of PALETTE_TAGS) delete json[tag]
    return
  }
  json['00280100'] = us(row.pixel_format === 'u8' ? 8 : 16)
  json['00280103'] = us(row.pixel_format === 's16' ? 1 : 0)
}

// ----------------------------------------------------------------------------------------- frames

/** Why an instance has no image to give: 406, with the Chinese reason ingest recorded. */
export class NoPreviewError extends ApiError {
  constructor(
    readonly previewStatus: string,
    message: string,
  ) {
    super(406, message)
  }
}

function requirePixels(row: InstanceRow): { key: string; frameBytes: number; format: string } {
  if (row.preview_status !== 'ready' || !row.pixels_key || !row.frame_bytes || !row.pixel_format) {
    const message =
      row.preview_message ??
      (row.preview_status === 'none' ? NO_PIXELS_MESSAGE : UNSUPPORTED_PREVIEW_MESSAGE)
    throw new NoPreviewError(row.preview_status, message)
  }
  return { key: row.pixels_key, frameBytes: row.frame_bytes, format: row.pixel_format }
}

/** The decoded bytes of one frame (1-based), read by range from pixels_key. */
export async function openFrame(
  store: ObjectStore,
  row: InstanceRow,
  frameNumber: number,
): Promise<{ body: Readable; length: number }> {
  const { key, frameBytes } = requirePixels(row)
  const start = (frameNumber - 1) * frameBytes
  const got = await store.get(key, { range: { start, end: start + frameBytes - 1 } })
  return { body: got.body, length: got.length }
}

export function checkFramesAvailable(row: InstanceRow): void {
  requirePixels(row)
}

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk))
  return Buffer.concat(chunks)
}

const numbersOf = (json: DicomJson, tag: string): number[] =>
  (json[tag]?.Value ?? []).map(Number).filter((n) => Number.isFinite(n))

/** One decoded frame as the renderer wants it, from the stored bytes and the instance's metadata. */
function frameOf(row: InstanceRow, metadata: DicomJson, bytes: Buffer, format: string): Frame {
  const rows = row.rows ?? numbersOf(metadata, '00280010')[0] ?? 0
  const columns = row.columns ?? numbersOf(metadata, '00280011')[0] ?? 0
  // A copy, so typed arrays start on an aligned offset of their own buffer.
  const copy = new Uint8Array(bytes).buffer
  if (format === 'rgb8') return { kind: 'rgb', rows, columns, pixels: new Uint8Array(copy) }
  const photometric =
    metadata['00280004']?.Value?.[0] === 'MONOCHROME1' ? 'MONOCHROME1' : 'MONOCHROME2'
  const bitsStored = numbersOf(metadata, '00280101')[0] ?? (format === 'u8' ? 8 : 16)
  const pixels =
    format === 'u8'
      ? new Uint8Array(copy)
      : format === 's16'
        ? new Int16Array(copy)
        : new Uint16Array(copy)
  return { kind: 'mono', rows, columns, photometric, bitsStored, signed: format === 's16', pixels }
}

// -------------------------------------------------------------------------------------- rendering

export type RenderedMime = 'image/jpeg' | 'image/png'

export interface RenderRequest {
  kind: 'rendered' | 'thumbnail'
  frame: number
  mime: RenderedMime
  /** Window in modality units (PS3.18 window=center,width,function). */
  window?: { center: number; width: number }
  /** Fit within this box (PS3.18 viewport=vw,vh). */
  viewport?: { width: number; height: number }
  quality?: number
}

/** Longest side of a thumbnail when the client names no viewport: sharp on a 3x phone screen. */
export const THUMBNAIL_SIZE = 256

/** Where the rendered images of an exam are cached; delete this prefix with the exam. */
export const previewKeyPrefix = (examId: string) => `previews/${examId}/`

/** Only the parameterless images are cached: a window per drag of a viewer would fill the store. */
function cacheKey(row: InstanceRow, request: RenderRequest): string | undefined {
  if (request.window || request.viewport || request.quality !== undefined) return undefined
  const ext = request.mime === 'image/png' ? 'png' : 'jpg'
  return `${previewKeyPrefix(row.exam_id)}${row.id}/${request.kind}-${request.frame}.${ext}`
}

/** A strong validator for a rendered image: the instance, what was asked, how. */
export function renderedEtag(row: InstanceRow, request: RenderRequest): string {
  const hash = createHash('sha256')
    .update(JSON.stringify([row.id, request]))
    .digest('base64url')
  return `"${hash.slice(0, 27)}"`
}

const inFlight = new Map<string, Promise<Buffer>>()

export interface RenderOutcome {
  body: Buffer
  mime: RenderedMime
  /** Served from the store (rendered by an earlier request). */
  cached: boolean
}

/**
 * A rendered frame. Cached variants come from the store when present; otherwise rendered from the
 * decoded pixels (never from the original file: decoding once at ingest is the point) and stored.
 * Concurrent first requests in one process render once.
 */
export async function renderFrame(
  store: ObjectStore,
  row: InstanceRow,
  request: RenderRequest,
): Promise<RenderOutcome> {
  const pixels = requirePixels(row)
  if (request.frame > row.frame_count) {
    throw notFound(`${NO_SUCH_FRAME_MESSAGE}（共 ${row.frame_count} 帧）`)
  }
  const key = cacheKey(row, request)
  if (key) {
    const stored = await store.get(key).catch(() => undefined)
    if (stored) return { body: await readAll(stored.body), mime: request.mime, cached: true }
    const pending = inFlight.get(key)
    if (pending) return { body: await pending, mime: request.mime, cached: true }
  }
  const work = (async () => {
    const frame = await openFrame(store, row, request.frame)
    const bytes = await readAll(frame.body)
    const metadata = instanceMetadata(row)
    const image = frameOf(row, metadata, bytes, pixels.format)
    const overrides: RenderOptions = {}
    if (request.window) {
      overrides.windowCenter = request.window.center
      overrides.windowWidth = request.window.width
    }
    if (request.quality !== undefined) overrides.quality = request.quality
    const size = renderSize(image.rows, image.columns, request)
    if (size) overrides.size = size
    const options = renderOptionsFor(
      {
        windowCenter: numbersOf(metadata, '00281050'),
        windowWidth: numbersOf(metadata, '00281051'),
        rescaleSlope: numbersOf(metadata, '00281053')[0] ?? 1,
        rescaleIntercept: numbersOf(metadata, '00281052')[0] ?? 0,
      },
      overrides,
    )
    const body =
      request.mime === 'image/png'
        ? (await renderPng(image, options)).body
        : await renderSafeJpeg(image, options)
    if (key) await store.put(key, body, { contentType: request.mime })
    return body
  })()
  if (key) {
    inFlight.set(key, work)
    void work.catch(() => undefined).finally(() => inFlight.delete(key))
  }
  return { body: await work, mime: request.mime, cached: false }
}

/*
 * The libjpeg-turbo WASM encoder writes the JPEG into a buffer the size of the raw input and
 * overflows it when the JPEG comes out larger (a tiny image, whose headers alone are ~600 bytes; a
 * noisy one at quality 100). The overflow corrupts the encoder for the whole process: every later
 * render fails. So no JPEG is encoded from fewer than JPEG_MIN_PIXELS (small images are enlarged,
 * nearest neighbour) or above JPEG_MAX_QUALITY: at q90 even pure noise stays near 0.8 bytes/pixel.
 */
export const JPEG_MIN_PIXELS = 128 * 128
export const JPEG_MAX_QUALITY = 90

async function renderSafeJpeg(frame: Frame, options: RenderOptions): Promise<Buffer> {
  let out = renderPixels(frame, options)
  if (out.width * out.height < JPEG_MIN_PIXELS) {
    const factor = Math.ceil(Math.sqrt(JPEG_MIN_PIXELS / (out.width * out.height)))
    const width = out.width * factor
    const height = out.height * factor
    const pixels = new Uint8Array(width * height * out.channels)
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const from = (Math.floor(y / factor) * out.width + Math.floor(x / factor)) * out.channels
        for (let c = 0; c < out.channels; c++)
          pixels[(y * width + x) * out.channels + c] = out.pixels[from + c]!
      }
    }
    out = { pixels, width, height, channels: out.channels }
  }
  const quality = Math.min(options.quality ?? JPEG_MAX_QUALITY, JPEG_MAX_QUALITY)
  return Buffer.from(await encodeJpeg(out.pixels, out.width, out.height, out.channels, quality))
}

function renderSize(rows: number, columns: number, request: RenderRequest): number | undefined {
  const longest = Math.max(rows, columns)
  let size: number | undefined = request.kind === 'thumbnail' ? THUMBNAIL_SIZE : undefined
  if (request.viewport) {
    const scale = Math.min(request.viewport.width / columns, request.viewport.height / rows)
    size = Math.max(1, Math.round(longest * scale))
  }
  return size !== undefined && size < longest ? size : undefined
}

/** The instance a series or study thumbnail shows: the middle one that has an image. */
export function representativeInstance(rows: InstanceRow[]): InstanceRow {
  const ready = rows.filter((r) => r.preview_status === 'ready' && r.pixels_key)
  if (ready.length === 0) {
    const first = rows[0]!
    throw new NoPreviewError(
      first.preview_status,
      first.preview_message ?? UNSUPPORTED_PREVIEW_MESSAGE,
    )
  }
  return ready[Math.floor((ready.length - 1) / 2)]!
}

/** What 影像详情 fetches first for each series (patient/patient.ts examDetail → thumbnailPath). */
const DETAIL_THUMBNAIL: RenderRequest = { kind: 'thumbnail', frame: 1, mime: 'image/jpeg' }

/**
 * Renders and caches the thumbnails 影像详情 will ask for, so its first view is a cached read
 * (a first render cost 630–1330 ms with the codec load; a cached read a few ms): for each of the
 * given series of the exam, the instance examDetail picks (pickThumbnail over the series' instances
 * in the same order), as JPEG at the default size. At most `limit` series, in the page's order.
 * Answers how many were rendered; a series whose image cannot be rendered is skipped (the route
 * renders it on demand, or answers why not).
 */
export async function warmDetailThumbnails(
  db: DB,
  store: ObjectStore,
  examId: string,
  seriesUids: readonly string[],
  limit = Number.POSITIVE_INFINITY,
): Promise<number> {
  if (seriesUids.length === 0 || limit <= 0) return 0
  const series = await db
    .selectFrom('series')
    .select(['id'])
    .where('exam_id', '=', examId)
    .where('series_uid', 'in', [...seriesUids])
    .orderBy(sql`coalesce(series_number, 2147483647)`)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute()
  if (series.length === 0) return 0
  // Ordered as examDetail orders them, so pickThumbnail picks the same instance.
  const instances = await db
    .selectFrom('instances')
    .select(['id', 'series_id', 'sop_instance_uid', 'instance_number', 'preview_status'])
    .select('preview_message')
    .where('exam_id', '=', examId)
    .where(
      'series_id',
      'in',
      series.map((row) => row.id),
    )
    .orderBy('series_id')
    .orderBy(sql`coalesce(instance_number, 2147483647)`)
    .orderBy('sop_instance_uid')
    .execute()
  const picked: string[] = []
  for (const { id } of series) {
    const { instance } = pickThumbnail(instances.filter((row) => row.series_id === id))
    if (instance) picked.push((instance as (typeof instances)[number]).id)
  }
  if (picked.length === 0) return 0
  const rows = (await db
    .selectFrom('instances')
    .innerJoin('series', 'series.id', 'instances.series_id')
    .innerJoin('exams', 'exams.id', 'instances.exam_id')
    .selectAll('instances')
    .select(['series.series_uid', 'series.series_number', 'exams.study_uid'])
    .where('instances.id', 'in', picked)
    .execute()) as InstanceRow[]
  let rendered = 0
  for (const id of picked) {
    const row = rows.find((candidate) => candidate.id === id)
    if (!row) continue
    try {
      const outcome = await renderFrame(store, row, DETAIL_THUMBNAIL)
      if (!outcome.cached) rendered += 1
    } catch {
      // Best effort: the page's request renders it (or says why it cannot).
    }
  }
  return rendered
}

// ------------------------------------------------------------------------------------ thumbnails

/** What pickThumbnail needs of an instance. */
export interface ThumbnailCandidate {
  series_id: string
  sop_instance_uid: string
  instance_number: number | null
  preview_status: string
  preview_message: string | null
}

/**
 * The series' picture: its middle instance (the middle slice says more than the first), or the
 * previewable instance nearest to it when the middle one has no pixels we can show.
 */
export function pickThumbnail<T extends ThumbnailCandidate>(
  instances: readonly T[],
): {
  instance: T | undefined
  middle: T | undefined
} {
  const middleIndex = Math.floor((instances.length - 1) / 2)
  const middle = instances[middleIndex]
  if (!middle || middle.preview_status === 'ready') return { instance: middle, middle }
  for (let distance = 1; distance < instances.length; distance += 1) {
    for (const index of [middleIndex + distance, middleIndex - distance]) {
      const candidate = instances[index]
      if (candidate?.preview_status === 'ready') return { instance: candidate, middle }
    }
  }
  return { instance: undefined, middle }
}
