import type { Readable } from 'node:stream'

/*
 * Files (DICOM instances, rendered previews, report photos, videos) live in an object store behind
 * this interface: local disk by default, an S3-compatible service to scale out. Metadata stays in the
 * database; the store only knows keys, bytes and a content type.
 */

/** What a stored object is. `size` is in bytes. */
export interface ObjectInfo {
  key: string
  size: number
  contentType: string
}

/**
 * Bytes to read, as HTTP ranges say them: `{ start, end }` with `end` inclusive (omitted: to the end),
 * or `{ suffix }` for the last `suffix` bytes. An `end` past the object is clamped, as HTTP does.
 */
export type ByteRange = { start: number; end?: number } | { suffix: number }

export interface GetResult extends ObjectInfo {
  body: Readable
  /** The bytes actually sent: the whole object, or the satisfied range (end inclusive). */
  start: number
  end: number
  length: number
}

export interface PutOptions {
  contentType: string
  /**
   * 'now' (the default): durable when put answers. 'deferred': written whole and renamed into place
   * like any put (a reader never sees half of it), but not yet flushed to disk, so a crash before
   * `sync` names the key may lose it or leave it torn. For a batch under keys that nothing points
   * at until a commit that follows `sync` (ingest): one flush per batch instead of four per object.
   */
  durability?: 'now' | 'deferred'
}

export interface ObjectStore {
  readonly kind: 'local' | 's3'
  /** Stores (or replaces) the object whole: a reader never sees a half-written one. */
  put(key: string, body: Buffer | Uint8Array | Readable, options: PutOptions): Promise<ObjectInfo>
  /** Throws ObjectNotFoundError, or RangeNotSatisfiableError for a range outside the object. */
  get(key: string, options?: { range?: ByteRange }): Promise<GetResult>
  /** Undefined when there is no such object. */
  head(key: string): Promise<ObjectInfo | undefined>
  exists(key: string): Promise<boolean>
  /**
   * Makes the objects of deferred puts durable (their bytes and their names); answers when they
   * are. Throws when one of the keys is missing (a row about to point at it would be dangling).
   */
  sync(keys: readonly string[]): Promise<void>
  /** Removes one object; removing a missing one is not an error (deletes are retried after crashes). */
  delete(key: string): Promise<void>
  /** Removes every object whose key starts with `prefix` (a study, a user's uploads); returns how many. */
  deletePrefix(prefix: string): Promise<number>
}

export class ObjectNotFoundError extends Error {
  override name = 'ObjectNotFoundError'
  constructor(readonly key: string) {
    super(`对象不存在：${key}`)
  }
}

/** The requested range starts past the object's end (HTTP 416; `size` is for Content-Range: *\/size). */
export class RangeNotSatisfiableError extends Error {
  override name = 'RangeNotSatisfiableError'
  constructor(
    readonly key: string,
    readonly size: number,
  ) {
    super(`请求的范围超出文件大小（${size} 字节）`)
  }
}

/**
 * The storage under a write has no room left: a full disk or file system (ENOSPC), a user or
 * project quota (EDQUOT), an S3-compatible service that says so (507 Insufficient Storage, MinIO's
 * XMinioStorageFull). Not the caller's fault and not passing on a retry seconds later, so neither a
 * 500 nor a job retried at once: requests answer 507 (http/errors.ts STORAGE_FULL) and ingest jobs
 * end failed with that reason. `storage` names what is full for the operator's log (`local <dir>`,
 * `s3 <bucket>`): never a key, which may name a person's files.
 */
export class StorageFullError extends Error {
  override name = 'StorageFullError'
  constructor(
    readonly storage: string,
    /** ENOSPC, EDQUOT, or the S3 error's name. */
    readonly code: string,
  ) {
    super(`storage full: ${storage} (${code})`)
  }
}

const FULL_ERRNO = new Set(['ENOSPC', 'EDQUOT'])
const FULL_S3_NAMES = new Set(['XMinioStorageFull', 'InsufficientStorage'])

/** The reason code when `error` says the storage is full (see StorageFullError), else undefined. */
function fullCode(error: unknown): string | undefined {
  if (error instanceof StorageFullError) return error.code
  if (typeof error !== 'object' || error === null) return undefined
  const { code, name, $metadata } = error as {
    code?: unknown
    name?: unknown
    $metadata?: { httpStatusCode?: unknown }
  }
  if (typeof code === 'string' && FULL_ERRNO.has(code)) return code
  if (typeof name === 'string' && FULL_S3_NAMES.has(name)) return name
  if ($metadata?.httpStatusCode === 507) return typeof name === 'string' ? name : '507'
  return undefined
}

/** Whether `error` (wrapped or as the file system or S3 gave it) says the storage is full. */
export function isStorageFull(error: unknown): boolean {
  return fullCode(error) !== undefined
}

/**
 * `error` as a StorageFullError naming `storage` when it says the storage is full, else `error`
 * itself: the adapters pass every failure of a write through this.
 */
export function asStorageFull(error: unknown, storage: string): unknown {
  if (error instanceof StorageFullError) return error
  const code = fullCode(error)
  return code === undefined ? error : new StorageFullError(storage, code)
}

/** What the operator's log says is full: the store named by the adapter, or what the error tells. */
export function fullStorageOf(error: unknown): { storage: string; code: string } {
  if (error instanceof StorageFullError) return { storage: error.storage, code: error.code }
  const syscall = (error as { syscall?: unknown } | null)?.syscall
  return {
    storage: typeof syscall === 'string' ? `unnamed (${syscall})` : 'unnamed',
    code: fullCode(error) ?? 'unknown',
  }
}

/** A key (or prefix) that the store refuses: a programming error, never user input passed through. */
export class InvalidKeyError extends Error {
  override name = 'InvalidKeyError'
}

const MAX_KEY_LENGTH = 1024
/** Letters, digits and `._-=+@` in each `/`-separated segment: safe as a path and as an S3 key. */
const SEGMENT = /^[A-Za-z0-9_=+@-][A-Za-z0-9._=+@-]*$/

/**
 * Keys are relative, `/`-separated, and portable between both adapters: no empty, `.` or `..`
 * segments, no absolute paths, no backslashes or NUL, and no segment starting with a dot (the local
 * adapter keeps its temporary and metadata files under dot names, where no key can reach them).
 */
export function assertValidKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw new InvalidKeyError(`无效的存储键（长度须为 1–${MAX_KEY_LENGTH}）`)
  }
  if (key.includes('\0')) throw new InvalidKeyError('无效的存储键（含 NUL）')
  if (key.startsWith('/') || key.includes('\\') || /^[A-Za-z]:/.test(key)) {
    throw new InvalidKeyError(`无效的存储键（不能是绝对路径）：${JSON.stringify(key)}`)
  }
  for (const segment of key.split('/')) {
    if (!SEGMENT.test(segment)) {
      throw new InvalidKeyError(`无效的存储键（段不合法）：${JSON.stringify(key)}`)
    }
  }
}

/**
 * A prefix is a key's beginning: the same rules, except it may end with `/` and its last segment may
 * be partial. An empty prefix is refused: "delete everything" is never what a caller meant.
 */
export function assertValidPrefix(prefix: string): void {
  if (typeof prefix !== 'string' || prefix.length === 0) {
    throw new InvalidKeyError('前缀不能为空（不允许删除全部对象）')
  }
  assertValidKey(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix)
}

/** The inclusive byte span a range selects from an object of `size` bytes, or undefined if none. */
export function resolveRange(
  range: ByteRange | undefined,
  size: number,
): { start: number; end: number } | undefined {
  if (!range) return { start: 0, end: size - 1 }
  if ('suffix' in range) {
    if (!Number.isSafeInteger(range.suffix) || range.suffix <= 0 || size === 0) return undefined
    return { start: Math.max(0, size - range.suffix), end: size - 1 }
  }
  const { start } = range
  const end = range.end === undefined ? size - 1 : Math.min(range.end, size - 1)
  if (!Number.isSafeInteger(start) || start < 0 || start >= size) return undefined
  if (range.end !== undefined && (!Number.isSafeInteger(range.end) || range.end < start)) {
    return undefined
  }
  return { start, end }
}

export const DEFAULT_CONTENT_TYPE = 'application/octet-stream'

/** Runs `work` over `items`, at most `limit` at a time; the first failure rejects. */
export async function inParallel<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < items.length) await work(items[next++]!)
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
}
