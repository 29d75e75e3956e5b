import { Readable, Transform } from 'node:stream'
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3'
import {
  asStorageFull,
  assertValidKey,
  assertValidPrefix,
  type ByteRange,
  DEFAULT_CONTENT_TYPE,
  type GetResult,
  inParallel,
  type ObjectInfo,
  type ObjectStore,
  ObjectNotFoundError,
  type PutOptions,
  RangeNotSatisfiableError,
  resolveRange,
} from './object-store'

export interface S3StoreConfig {
  bucket: string
  region: string
  endpoint?: string
  accessKeyId?: string
  secretAccessKey?: string
  /** Path-style URLs (http://host/bucket/key): MinIO, s3rver and most self-hosted services need it. */
  forcePathStyle: boolean
}

/** Streams larger than this go up in parts of this size (S3's minimum part is 5 MiB). */
const PART_SIZE = 8 * 1024 * 1024

/**
 * Objects in an S3-compatible bucket. The bucket must exist (creating it is the operator's job, with
 * its own policy). A PutObject is atomic on S3: readers see the old object or the new one.
 */
export class S3ObjectStore implements ObjectStore {
  readonly kind = 's3'
  readonly client: S3Client
  readonly bucket: string

  constructor(config: S3StoreConfig) {
    this.bucket = config.bucket
    this.client = new S3Client({
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      // Without explicit keys the SDK's own chain applies (AWS_* variables, instance roles).
      ...(config.accessKeyId && config.secretAccessKey
        ? {
            credentials: {
              accessKeyId: config.accessKeyId,
              secretAccessKey: config.secretAccessKey,
            },
          }
        : {}),
    })
  }

  async put(
    key: string,
    body: Buffer | Uint8Array | Readable,
    options: PutOptions,
  ): Promise<ObjectInfo> {
    assertValidKey(key)
    try {
      return await this.upload(key, body, options)
    } catch (error) {
      throw asStorageFull(error, `s3 ${this.bucket}`)
    }
  }

  private async upload(
    key: string,
    body: Buffer | Uint8Array | Readable,
    options: PutOptions,
  ): Promise<ObjectInfo> {
    const contentType = options.contentType || DEFAULT_CONTENT_TYPE
    if (!(body instanceof Readable)) {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: body,
          ContentType: contentType,
        }),
      )
      return { key, size: body.byteLength, contentType }
    }
    // A stream of unknown length: one PutObject if it fits in a part, else a multipart upload, so
    // a large video or zip is never held whole in memory.
    const parts = chunks(body, PART_SIZE)
    const first = await parts.next()
    const firstPart = first.done ? Buffer.alloc(0) : first.value
    const second = first.done ? undefined : await parts.next()
    if (!second || second.done) {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: firstPart,
          ContentType: contentType,
        }),
      )
      return { key, size: firstPart.length, contentType }
    }
    const { UploadId } = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: contentType }),
    )
    if (!UploadId) throw new Error('S3 did not start a multipart upload')
    const done: { ETag: string; PartNumber: number }[] = []
    let size = 0
    try {
      const upload = async (part: Buffer) => {
        const PartNumber = done.length + 1
        const { ETag } = await this.client.send(
          new UploadPartCommand({
            Bucket: this.bucket,
            Key: key,
            UploadId,
            PartNumber,
            Body: part,
          }),
        )
        done.push({ ETag: ETag ?? '', PartNumber })
        size += part.length
      }
      await upload(firstPart)
      await upload(second.value)
      for await (const part of parts) await upload(part)
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId,
          MultipartUpload: { Parts: done },
        }),
      )
    } catch (error) {
      // An abandoned upload keeps its parts (and their cost) until aborted.
      await this.client
        .send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId }))
        .catch(() => undefined)
      throw error
    }
    return { key, size, contentType }
  }

  async get(key: string, options: { range?: ByteRange } = {}): Promise<GetResult> {
    assertValidKey(key)
    const range = options.range
    let header: string | undefined
    if (range) {
      // Malformed ranges are ignored by S3 (it sends the whole object); refuse them as the local store does.
      const malformed =
        'suffix' in range
          ? !Number.isSafeInteger(range.suffix) || range.suffix <= 0
          : !Number.isSafeInteger(range.start) ||
            range.start < 0 ||
            (range.end !== undefined &&
              (!Number.isSafeInteger(range.end) || range.end < range.start))
      if (malformed) {
        const known = await this.head(key)
        if (!known) throw new ObjectNotFoundError(key)
        throw new RangeNotSatisfiableError(key, known.size)
      }
      // Suffix ranges (bytes=-N) are not understood by every S3-compatible server (s3rver reads
      // them as 0-N): they are sent as an explicit span, which costs a HEAD.
      let span: ByteRange = range
      if ('suffix' in range) {
        const known = await this.head(key)
        if (!known) throw new ObjectNotFoundError(key)
        if (known.size === 0) throw new RangeNotSatisfiableError(key, 0)
        span = { start: Math.max(0, known.size - range.suffix), end: known.size - 1 }
      }
      if (!('suffix' in span)) header = `bytes=${span.start}-${span.end ?? ''}`
    }
    try {
      const answer = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(header ? { Range: header } : {}),
        }),
      )
      const size = totalSize(answer.ContentRange) ?? answer.ContentLength ?? 0
      const span = resolveRange(range, size)
      if (!span) throw new RangeNotSatisfiableError(key, size)
      let body = answer.Body as Readable
      // A server that ignored part of the Range sent more bytes than asked (s3rver answers
      // bytes=0-0 with the whole object): what was asked for is cut out of what came.
      const sent = sentSpan(answer.ContentRange) ?? { start: 0, end: size - 1 }
      if (sent.start !== span.start || sent.end !== span.end) {
        body = body.pipe(slice(span.start - sent.start, span.end - sent.start))
      }
      return {
        key,
        size,
        contentType: answer.ContentType ?? DEFAULT_CONTENT_TYPE,
        body,
        start: span.start,
        end: span.end,
        length: span.end - span.start + 1,
      }
    } catch (error) {
      if (status(error) === 404) throw new ObjectNotFoundError(key)
      if (status(error) === 416) {
        const known = await this.head(key)
        if (!known) throw new ObjectNotFoundError(key)
        throw new RangeNotSatisfiableError(key, known.size)
      }
      throw error
    }
  }

  async head(key: string): Promise<ObjectInfo | undefined> {
    assertValidKey(key)
    try {
      const answer = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: key }),
      )
      return {
        key,
        size: answer.ContentLength ?? 0,
        contentType: answer.ContentType ?? DEFAULT_CONTENT_TYPE,
      }
    } catch (error) {
      if (status(error) === 404) return undefined
      throw error
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.head(key)) !== undefined
  }

  /** S3 has no deferred writes (an acknowledged PutObject is durable): only checks the keys exist. */
  async sync(keys: readonly string[]): Promise<void> {
    await inParallel(keys, 8, async (key) => {
      if (!(await this.exists(key))) throw new ObjectNotFoundError(key)
    })
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key)
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }))
  }

  async deletePrefix(prefix: string): Promise<number> {
    assertValidPrefix(prefix)
    let removed = 0
    // Listed and deleted a page (≤ 1000 keys, DeleteObjects' limit) at a time.
    for (;;) {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, MaxKeys: 1000 }),
      )
      const keys = (page.Contents ?? []).flatMap((item) => (item.Key ? [{ Key: item.Key }] : []))
      if (keys.length === 0) return removed
      const answer = await this.client.send(
        new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys, Quiet: true } }),
      )
      if (answer.Errors && answer.Errors.length > 0) {
        throw new Error(`S3 refused to delete ${answer.Errors.length} objects under ${prefix}`)
      }
      removed += keys.length
    }
  }
}

function status(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata
    ?.httpStatusCode
}

/** `bytes 0-9/1234` → { start: 0, end: 9 }. */
function sentSpan(contentRange: string | undefined): { start: number; end: number } | undefined {
  const match = contentRange ? /^bytes (\d+)-(\d+)\//.exec(contentRange) : null
  return match ? { start: Number(match[1]), end: Number(match[2]) } : undefined
}

/** `bytes 0-9/1234` → 1234. */
function totalSize(contentRange: string | undefined): number | undefined {
  const match = contentRange ? /\/(\d+)$/.exec(contentRange) : null
  return match ? Number(match[1]) : undefined
}

/** The stream re-cut into buffers of exactly `size` bytes (the last may be shorter). */
async function* chunks(source: Readable, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = []
  let length = 0
  for await (const chunk of source as AsyncIterable<Buffer | string>) {
    let bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    while (length + bytes.length >= size) {
      const take = size - length
      pending.push(bytes.subarray(0, take))
      yield Buffer.concat(pending)
      pending = []
      length = 0
      bytes = bytes.subarray(take)
    }
    if (bytes.length > 0) {
      pending.push(bytes)
      length += bytes.length
    }
  }
  if (length > 0) yield Buffer.concat(pending)
}

/** Passes on only bytes start..end (inclusive) of what flows through. */
function slice(start: number, end: number): Transform {
  let offset = 0
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const from = Math.max(0, start - offset)
      const to = Math.min(chunk.length, end + 1 - offset)
      offset += chunk.length
      callback(null, from < to ? chunk.subarray(from, to) : undefined)
    },
  })
}
