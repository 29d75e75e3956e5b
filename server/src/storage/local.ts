import { randomBytes } from 'node:crypto'
import { createReadStream } from 'node:fs'
import {
  type FileHandle,
  mkdir,
  open as openFile,
  readdir,
  readFile,
  rename,
  rm,
  rmdir,
  stat,
  unlink,
} from 'node:fs/promises'
import path from 'node:path'
import { Readable } from 'node:stream'
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

/**
 * The directory under UPLOAD_DIR that holds the store. UPLOAD_DIR itself is served publicly at
 * /uploads (avatars); a dot directory is not (@fastify/static ignores dot files), and objects here
 * (DICOM, reports) are private: they are read only through routes that check who asks.
 */
export const LOCAL_STORE_DIR = '.objects'
const TEMP_DIR = '.tmp'
/** Beside each object `name`, its metadata as `.name.meta` (keys' segments never start with a dot). */
const metaName = (name: string) => `.${name}.meta`

/**
 * Objects as files under `root`. A put writes a temporary file in the same file system, fsyncs it,
 * then renames it over the key (rename is atomic) and fsyncs the directory, so a crash leaves either
 * the old object or the new one, never half of one. A deferred put skips both fsyncs and `sync`
 * does them later for a whole batch: every file once, then every directory once (ingest of a 500-
 * slice CT spent 31 ms per object on four fsyncs each, 30 s in all). The content type lives in a
 * `.name.meta` sidecar only when it is not the default. Limitation of a file tree: a key cannot
 * also be the folder of another (`a/b` and `a/b/c`); such a put fails.
 */
export class LocalObjectStore implements ObjectStore {
  readonly kind = 'local'
  constructor(readonly root: string) {}

  private file(key: string): string {
    assertValidKey(key)
    const file = path.resolve(this.root, ...key.split('/'))
    // Belt and braces: the key rules already keep it inside the root.
    if (!file.startsWith(path.resolve(this.root) + path.sep))
      throw new Error('key escapes the store')
    return file
  }

  private metaFile(file: string): string {
    return path.join(path.dirname(file), metaName(path.basename(file)))
  }

  async put(
    key: string,
    body: Buffer | Uint8Array | Readable,
    options: PutOptions,
  ): Promise<ObjectInfo> {
    const file = this.file(key)
    const contentType = options.contentType || DEFAULT_CONTENT_TYPE
    const durable = options.durability !== 'deferred'
    try {
      // Metadata first: once the data file appears, its content type is already there. The default
      // type needs no file (a missing sidecar reads as the default): one write less per object.
      if (contentType === DEFAULT_CONTENT_TYPE) {
        await rm(this.metaFile(file), { force: true })
      } else {
        const meta = Buffer.from(JSON.stringify({ contentType }))
        await this.writeAtomically(this.metaFile(file), meta, durable)
      }
      try {
        const size = await this.writeAtomically(file, body, durable)
        return { key, size, contentType }
      } catch (error) {
        // A sidecar without its object (a full disk stopped the data) is a dot file: deletePrefix
        // never lists it, so it would stay for good. An object that was already there keeps it.
        if (!(await this.exists(key).catch(() => true))) {
          await rm(this.metaFile(file), { force: true }).catch(() => undefined)
        }
        throw error
      }
    } catch (error) {
      throw asStorageFull(error, this.describe)
    }
  }

  /** What the operator's log calls this store when it is full. */
  private get describe(): string {
    return `local ${path.resolve(this.root)}`
  }

  async sync(keys: readonly string[]): Promise<void> {
    const directories = new Set<string>()
    const root = path.resolve(this.root)
    for (const file of keys.map((key) => this.file(key))) {
      // The file's folder and every folder up to the root: a put may have created them.
      for (let dir = path.dirname(file); dir.startsWith(root); dir = path.dirname(dir)) {
        if (directories.has(dir)) break
        directories.add(dir)
      }
    }
    try {
      await inParallel(keys, SYNC_PARALLEL, async (key) => {
        const file = this.file(key)
        try {
          await this.flush(file)
        } catch (error) {
          if (isMissing(error)) throw new ObjectNotFoundError(key)
          throw error
        }
        // A sidecar is there only for a non-default content type.
        await this.flush(this.metaFile(file)).catch((error: unknown) => {
          if (!isMissing(error)) throw error
        })
      })
      // Names after contents: a directory entry must never outlive the bytes it names.
      await inParallel([...directories], SYNC_PARALLEL, (dir) => this.flush(dir))
    } catch (error) {
      // fsync reports a full disk too (space allocated late, network file systems).
      throw asStorageFull(error, this.describe)
    }
  }

  /**
   * fsync of one file or directory (a directory's fsync makes its entries durable), through `open`
   * when it is already open. The one place the store flushes, so a test can count the flushes.
   */
  protected async flush(target: string, open?: FileHandle): Promise<void> {
    if (open) return open.sync()
    // Windows cannot open a directory to flush it; its renames are as durable as NTFS makes them.
    if (process.platform === 'win32' && (await stat(target)).isDirectory()) return
    const handle = await openFile(target, 'r')
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
  }

  private async writeAtomically(
    target: string,
    body: Buffer | Uint8Array | Readable,
    durable: boolean,
  ): Promise<number> {
    const tempDir = path.join(this.root, TEMP_DIR)
    const temp = path.join(tempDir, `${randomBytes(12).toString('hex')}.part`)
    // Folders are made when a write finds them missing, not checked before every put (a mkdir
    // per put was a tenth of a CT's ingest time).
    const handle = await openFile(temp, 'wx', 0o600).catch(async (error: unknown) => {
      if (!isMissing(error)) throw error
      await mkdir(tempDir, { recursive: true })
      return openFile(temp, 'wx', 0o600)
    })
    let size = 0
    try {
      if (body instanceof Readable) {
        // Written chunk by chunk: each write waits, so a fast source cannot fill memory.
        for await (const chunk of body as AsyncIterable<Buffer | string>) {
          const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
          await handle.write(bytes)
          size += bytes.length
        }
      } else {
        await handle.writeFile(body)
        size = body.byteLength
      }
      // The bytes must be on disk before the rename makes them the object (deferred: before the
      // batch's sync, which comes before anything points at the object).
      if (durable) await this.flush(temp, handle)
      await handle.close()
      await rename(temp, target).catch(async (error: unknown) => {
        if (!isMissing(error)) throw error
        await mkdir(path.dirname(target), { recursive: true })
        await rename(temp, target)
      })
    } catch (error) {
      await handle.close().catch(() => undefined)
      await unlink(temp).catch(() => undefined)
      throw error
    }
    if (durable) await this.flush(path.dirname(target))
    return size
  }

  async get(key: string, options: { range?: ByteRange } = {}): Promise<GetResult> {
    const file = this.file(key)
    const info = await this.info(key, file)
    if (!info) throw new ObjectNotFoundError(key)
    const span = resolveRange(options.range, info.size)
    if (!span) throw new RangeNotSatisfiableError(key, info.size)
    const length = span.end - span.start + 1
    const body =
      length === 0
        ? Readable.from([])
        : createReadStream(file, { start: span.start, end: span.end })
    return { ...info, body, start: span.start, end: span.end, length }
  }

  private async info(key: string, file: string): Promise<ObjectInfo | undefined> {
    let size: number
    try {
      const stats = await stat(file)
      if (!stats.isFile()) return undefined
      size = stats.size
    } catch (error) {
      if (isMissing(error)) return undefined
      throw error
    }
    let contentType = DEFAULT_CONTENT_TYPE
    try {
      const meta = JSON.parse(await readFile(this.metaFile(file), 'utf8')) as {
        contentType?: unknown
      }
      if (typeof meta.contentType === 'string') contentType = meta.contentType
    } catch (error) {
      if (!isMissing(error) && !(error instanceof SyntaxError)) throw error
    }
    return { key, size, contentType }
  }

  async head(key: string): Promise<ObjectInfo | undefined> {
    return this.info(key, this.file(key))
  }

  async exists(key: string): Promise<boolean> {
    return (await this.head(key)) !== undefined
  }

  async delete(key: string): Promise<void> {
    const file = this.file(key)
    // Data first: an object without its metadata reads as octet-stream, never the other way round.
    await rm(file, { force: true })
    await rm(this.metaFile(file), { force: true })
  }

  async deletePrefix(prefix: string): Promise<number> {
    assertValidPrefix(prefix)
    // The prefix is a string prefix, as in S3: `a/b` covers `a/b/c` and `a/bc` alike.
    const cut = prefix.lastIndexOf('/')
    const dirKey = cut < 0 ? '' : prefix.slice(0, cut)
    const start = dirKey ? path.resolve(this.root, ...dirKey.split('/')) : path.resolve(this.root)
    let removed = 0
    const visit = async (dir: string, keyBase: string) => {
      let entries
      try {
        entries = await readdir(dir, { withFileTypes: true })
      } catch (error) {
        if (isMissing(error) || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return
        throw error
      }
      for (const entry of entries) {
        if (entry.name.startsWith('.')) continue
        const key = keyBase ? `${keyBase}/${entry.name}` : entry.name
        // A folder is entered when some key under it could still match the prefix.
        if (entry.isDirectory()) {
          if (`${key}/`.startsWith(prefix) || prefix.startsWith(`${key}/`)) {
            await visit(path.join(dir, entry.name), key)
          }
        } else if (entry.isFile() && key.startsWith(prefix)) {
          await this.delete(key)
          removed += 1
        }
      }
      // A folder wholly under the prefix goes too once empty: every STOW push and upload has a
      // staging folder of its own, and empty ones would pile up by the thousand. A put racing
      // this finds its folder gone and makes it again (writeAtomically); one with files stays.
      if (keyBase && `${keyBase}/`.startsWith(prefix)) {
        await rmdir(dir).catch((error: unknown) => {
          const code = (error as NodeJS.ErrnoException).code
          if (code !== 'ENOTEMPTY' && code !== 'EEXIST' && !isMissing(error)) throw error
        })
      }
    }
    await visit(start, dirKey)
    return removed
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  return code === 'ENOENT' || code === 'ENOTDIR'
}

/** fsyncs at a time: enough to keep libuv's threads and the disk's queue busy, few file handles. */
const SYNC_PARALLEL = 16
