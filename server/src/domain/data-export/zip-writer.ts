// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- bench/ (root tsconfig, which excludes server/) imports this file and must see the ambient module
/// <reference path="./archiver.d.ts" />
import { once } from 'node:events'
import { PassThrough, type Readable } from 'node:stream'
import archiver from 'archiver'

/*
 * One zip, written entry after entry into a stream (the object store's put reads it). An entry's
 * source is opened only when the previous entry is done: a stream handed to archiver starts reading
 * at once, so appending thousands of DICOM files together would open them all (file handles, S3
 * connections, their first buffers). Waiting for each 'entry' keeps one source open at a time, and
 * the output's backpressure (the store writing) holds the rest: memory stays at a few buffers
 * whatever the archive's size. Sizes past 4 GiB take zip64 (archiver switches by itself).
 */
export class ZipWriter {
  readonly output: Readable
  private readonly zip = archiver('zip', { zlib: { level: 6 } })
  private failed: Error | undefined
  readonly names = new Set<string>()

  constructor() {
    this.zip.on('error', (error: Error) => {
      this.failed = error
    })
    this.zip.on('warning', (error: Error) => {
      this.failed = error
    })
    // archiver's stream is readable-stream's, not node's: a store that asks `instanceof Readable`
    // (the S3 adapter, to choose a multipart upload) must get a node stream.
    this.output = this.zip.pipe(new PassThrough())
  }

  /** Adds one entry; resolves when archiver has taken it whole. */
  async add(
    name: string,
    source: Buffer | string | (() => Promise<Readable> | Readable),
    options: { store?: boolean; date?: Date } = {},
  ): Promise<void> {
    if (this.failed) throw this.failed
    if (this.names.has(name)) throw new Error(`duplicate entry ${name}`)
    this.names.add(name)
    const body = typeof source === 'function' ? await source() : source
    const done = once(this.zip, 'entry')
    this.zip.append(body, {
      name,
      ...(options.date ? { date: options.date } : {}),
      ...(options.store ? { store: true } : {}),
    })
    await done
    if (this.failed) throw this.failed
  }

  async finish(): Promise<number> {
    if (this.failed) throw this.failed
    await this.zip.finalize()
    return this.zip.pointer()
  }

  abort(): void {
    this.zip.abort()
  }
}
