import { Transform } from 'node:stream'
import yauzl, { type Entry, type ZipFile } from 'yauzl'

/*
 * A patient's zip of DICOM files, unpacked without trusting it. Nothing is ever written to disk under
 * an entry's name: entries are read into memory one at a time and handed to the ingest, so a path in
 * the archive cannot reach the file system. The archive is still refused as a whole when it carries
 * what only a crafted zip carries (absolute or `..` paths, backslashes, links, encryption), because
 * a person who packed a disc never produces those and the honest answer is to say so.
 *
 * Two passes: the central directory first (cheap, nothing inflated) checks names, kinds, count and
 * the declared sizes and ratios; then each entry is inflated through a counter that stops a bomb the
 * moment it passes its declared size, the per-file limit, the total limit or the ratio, while
 * inflating, never after.
 */

export interface ZipLimits {
  /** Entries in the central directory, folders included. */
  maxEntries: number
  /** One file, inflated (it is held in memory while it is parsed). */
  maxEntryBytes: number
  /** All files together, inflated. */
  maxTotalBytes: number
  /** Inflated / compressed, per entry, for entries larger than ratioFloorBytes. */
  maxRatio: number
  /** Small entries are not ratio-checked: an empty 4 KB file compresses 400:1 and harms nobody. */
  ratioFloorBytes: number
}

const MB = 1024 * 1024

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 20_000,
  maxEntryBytes: 256 * MB,
  maxTotalBytes: 4 * 1024 * MB,
  // Real DICOM deflates 2:1 to 10:1; blank padding can reach a few dozen. A bomb is thousands.
  maxRatio: 100,
  ratioFloorBytes: 1 * MB,
}

export type ZipRefusal =
  | 'NOT_ZIP'
  | 'CORRUPT'
  | 'UNSAFE_PATH'
  | 'LINK'
  | 'ENCRYPTED'
  | 'UNSUPPORTED_METHOD'
  | 'TOO_MANY_ENTRIES'
  | 'ENTRY_TOO_LARGE'
  | 'TOO_LARGE'
  | 'BOMB'

/** The archive as a whole is refused; `message` is for the person who uploaded it. */
export class ZipRefusedError extends Error {
  constructor(
    readonly code: ZipRefusal,
    message: string,
  ) {
    super(message)
    this.name = 'ZipRefusedError'
  }
}

export const ZIP_NOT_ZIP = '文件不是有效的 zip 压缩包，请将 DICOM 文件打包为 zip 后上传'
export const ZIP_CORRUPT = '压缩包已损坏或不完整，请重新打包后上传'
export const ZIP_ENCRYPTED = '压缩包设置了密码，请解压后不设密码重新打包再上传'
export const ZIP_UNSUPPORTED_METHOD =
  '压缩包使用了不支持的压缩方式，请用普通 zip 格式重新打包后上传'
export const ZIP_BOMB = '压缩包内容异常（压缩比过高），已拒绝'
export const zipUnsafePath = (name: string) =>
  `压缩包中含有不安全的路径（${shortName(name)}），已拒绝`
export const zipLink = (name: string) => `压缩包中含有链接或特殊文件（${shortName(name)}），已拒绝`
export const zipTooManyEntries = (limit: number) =>
  `压缩包中的文件过多（超过 ${limit} 个），请分批上传`
export const zipEntryTooLarge = (name: string, limit: number) =>
  `压缩包中的文件 ${shortName(name)} 超过 ${formatBytes(limit)}，无法处理`
export const zipTooLarge = (limit: number) => `压缩包解压后超过 ${formatBytes(limit)}，请分批上传`

/** What the person is told about files that were left out. */
export const zipSkippedMessage = (count: number) => `压缩包中有 ${count} 个文件不是 DICOM，已跳过`
export const ZIP_NO_DICOM = '压缩包中没有 DICOM 文件'

function shortName(name: string): string {
  const clean = [...name].map((c) => (c.charCodeAt(0) < 0x20 ? '?' : c)).join('')
  return clean.length > 60 ? `…${clean.slice(-59)}` : clean
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * MB) return `${+(bytes / (1024 * MB)).toFixed(1)} GB`
  return `${Math.round(bytes / MB)} MB`
}

/** One file of the archive, read whole (the ingest parses it in memory). */
export interface ZipFileEntry {
  name: string
  bytes: Buffer
}

export interface DicomZip {
  /** Files to ingest, inflated one at a time as the caller asks for the next. */
  files(): AsyncGenerator<ZipFileEntry>
  /** Files left out because they are not DICOM; final once files() has finished. */
  readonly skippedNotDicom: number
  /** Regular files in the archive (after the first pass). */
  readonly fileCount: number
  /** What its files inflate to, as the directory says (enforced while inflating). */
  readonly declaredBytes: number
  close(): void
}

// Unix file type bits in the high half of externalFileAttributes (made by Unix, versionMadeBy >> 8 == 3).
const S_IFMT = 0o170000
const S_IFREG = 0o100000
const S_IFDIR = 0o040000
const MADE_BY_UNIX = 3
// Windows' FILE_ATTRIBUTE_REPARSE_POINT: a junction or a symbolic link.
const DOS_REPARSE_POINT = 0x400

/** Files the packer's own system adds; neither DICOM nor worth mentioning to the person. */
export function isSystemClutter(name: string): boolean {
  const parts = name.split('/')
  const base = parts[parts.length - 1]!
  return (
    parts[0] === '__MACOSX' ||
    base.startsWith('._') ||
    base === '.DS_Store' ||
    base.toLowerCase() === 'thumbs.db' ||
    base.toLowerCase() === 'desktop.ini'
  )
}

/** The index of a disc (PS3.10): the instances it lists are in the archive themselves. */
export function isDicomDir(name: string): boolean {
  const base = name.split('/').pop()!
  return base.toUpperCase() === 'DICOMDIR'
}

/**
 * Whether the first bytes can start a DICOM file: the Part 10 preamble + `DICM`, or (old files
 * written without a preamble) a data set starting with a group 0002/0008 element in either byte
 * order. The ingest's parser is the final judge; this only spares reading a film in full.
 */
export function looksLikeDicom(head: Buffer): boolean {
  if (head.length >= 132 && head.toString('latin1', 128, 132) === 'DICM') return true
  if (head.length < 8) return false
  const groupLe = head.readUInt16LE(0)
  const groupBe = head.readUInt16BE(0)
  return groupLe === 0x0002 || groupLe === 0x0008 || groupBe === 0x0002 || groupBe === 0x0008
}

function checkName(name: string): void {
  if (
    name.includes('\\') ||
    name.includes('\u0000') ||
    name.startsWith('/') ||
    /^[A-Za-z]:/.test(name) ||
    name.split('/').some((part) => part === '..')
  ) {
    throw new ZipRefusedError('UNSAFE_PATH', zipUnsafePath(name))
  }
}

function checkKind(entry: Entry, name: string): 'file' | 'dir' {
  const madeBy = entry.versionMadeBy >> 8
  const mode = (entry.externalFileAttributes >>> 16) & S_IFMT
  const isDirName = name.endsWith('/')
  if (madeBy === MADE_BY_UNIX && mode !== 0) {
    if (mode === S_IFDIR) return 'dir'
    if (mode !== S_IFREG) throw new ZipRefusedError('LINK', zipLink(name))
  }
  if ((entry.externalFileAttributes & DOS_REPARSE_POINT) !== 0) {
    throw new ZipRefusedError('LINK', zipLink(name))
  }
  return isDirName ? 'dir' : 'file'
}

function openZip(path: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(
      path,
      // Names decoded here (strict: a backslash is kept and refused, not silently turned into a
      // separator); entry sizes enforced by yauzl while inflating.
      { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true },
      (error, zip) => {
        if (error || !zip) reject(new ZipRefusedError('NOT_ZIP', ZIP_NOT_ZIP))
        else resolve(zip)
      },
    )
  })
}

function readDirectory(zip: ZipFile, limits: ZipLimits): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    if (zip.entryCount > limits.maxEntries) {
      reject(new ZipRefusedError('TOO_MANY_ENTRIES', zipTooManyEntries(limits.maxEntries)))
      return
    }
    const entries: Entry[] = []
    const fail = (error: unknown) => {
      zip.removeAllListeners('entry')
      zip.removeAllListeners('end')
      if (error instanceof ZipRefusedError) reject(error)
      // yauzl refuses strong (certificate) encryption itself while reading the directory.
      else if (/encryption/i.test((error as Error)?.message ?? '')) {
        reject(new ZipRefusedError('ENCRYPTED', ZIP_ENCRYPTED))
      } else reject(new ZipRefusedError('CORRUPT', ZIP_CORRUPT))
    }
    zip.on('error', fail)
    zip.on('entry', (entry: Entry) => {
      entries.push(entry)
      zip.readEntry()
    })
    zip.on('end', () => {
      zip.removeListener('error', fail)
      resolve(entries)
    })
    zip.readEntry()
  })
}

interface Planned {
  entry: Entry
  name: string
}

/**
 * Opens a zip on local disk and checks its directory. Throws ZipRefusedError (with the Chinese reason)
 * for anything that refuses the whole archive; files() then yields the DICOM candidates.
 */
export async function openDicomZip(
  path: string,
  limits: ZipLimits = DEFAULT_ZIP_LIMITS,
): Promise<DicomZip> {
  const zip = await openZip(path)
  let planned: Planned[]
  let declaredTotal = 0
  try {
    const entries = await readDirectory(zip, limits)
    planned = []
    for (const entry of entries) {
      const name = yauzl.getFileNameLowLevel(
        entry.generalPurposeBitFlag,
        entry.fileNameRaw,
        entry.extraFields,
        true,
      )
      checkName(name)
      if (checkKind(entry, name) === 'dir') continue
      if (entry.isEncrypted()) throw new ZipRefusedError('ENCRYPTED', ZIP_ENCRYPTED)
      if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
        throw new ZipRefusedError('UNSUPPORTED_METHOD', ZIP_UNSUPPORTED_METHOD)
      }
      if (
        entry.uncompressedSize > limits.ratioFloorBytes &&
        entry.uncompressedSize > limits.maxRatio * Math.max(entry.compressedSize, 1)
      ) {
        throw new ZipRefusedError('BOMB', ZIP_BOMB)
      }
      if (entry.uncompressedSize > limits.maxEntryBytes) {
        throw new ZipRefusedError('ENTRY_TOO_LARGE', zipEntryTooLarge(name, limits.maxEntryBytes))
      }
      declaredTotal += entry.uncompressedSize
      if (declaredTotal > limits.maxTotalBytes) {
        throw new ZipRefusedError('TOO_LARGE', zipTooLarge(limits.maxTotalBytes))
      }
      planned.push({ entry, name })
    }
  } catch (error) {
    zip.close()
    throw error
  }

  let skipped = 0
  let closed = false
  const close = () => {
    if (closed) return
    closed = true
    zip.close()
  }
  let inflatedTotal = 0

  async function* files(): AsyncGenerator<ZipFileEntry> {
    try {
      for (const { entry, name } of planned) {
        if (isSystemClutter(name) || isDicomDir(name)) continue
        const bytes = await readEntry(zip, entry, name, limits, inflatedTotal)
        if (bytes === null) {
          skipped += 1
          continue
        }
        inflatedTotal += bytes.length
        yield { name, bytes }
      }
    } finally {
      close()
    }
  }

  return {
    files,
    get skippedNotDicom() {
      return skipped
    },
    fileCount: planned.length,
    declaredBytes: declaredTotal,
    close,
  }
}

/**
 * One entry, inflated through a counter. Answers null (without reading further) when its first bytes
 * cannot be DICOM. The counter stops the stream as soon as a limit is passed: a bomb costs at most
 * one chunk past the limit, never the whole inflation.
 */
async function readEntry(
  zip: ZipFile,
  entry: Entry,
  name: string,
  limits: ZipLimits,
  inflatedBefore: number,
): Promise<Buffer | null> {
  let stream
  try {
    stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) => {
      zip.openReadStream(entry, (error, readable) => {
        if (error || !readable) reject(error ?? new Error('no stream'))
        else resolve(readable)
      })
    })
  } catch {
    throw new ZipRefusedError('CORRUPT', ZIP_CORRUPT)
  }
  const ratioLimit = Math.max(limits.ratioFloorBytes, limits.maxRatio * entry.compressedSize)
  const entryLimit = Math.min(limits.maxEntryBytes, ratioLimit)
  let seen = 0
  let refusal: ZipRefusedError | undefined
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length
      if (seen > limits.maxEntryBytes) {
        refusal = new ZipRefusedError(
          'ENTRY_TOO_LARGE',
          zipEntryTooLarge(name, limits.maxEntryBytes),
        )
      } else if (seen > entryLimit) {
        refusal = new ZipRefusedError('BOMB', ZIP_BOMB)
      } else if (inflatedBefore + seen > limits.maxTotalBytes) {
        refusal = new ZipRefusedError('TOO_LARGE', zipTooLarge(limits.maxTotalBytes))
      }
      callback(refusal ?? null, refusal ? undefined : chunk)
    },
  })
  const source = stream as unknown as import('node:stream').Readable
  source.on('error', (error) => counter.destroy(error))
  source.pipe(counter)

  const chunks: Buffer[] = []
  let length = 0
  let checkedHead = false
  try {
    for await (const chunk of counter as AsyncIterable<Buffer>) {
      chunks.push(chunk)
      length += chunk.length
      if (!checkedHead && (length >= 132 || length === entry.uncompressedSize)) {
        checkedHead = true
        if (!looksLikeDicom(Buffer.concat(chunks))) {
          stop(source, counter)
          return null
        }
      }
    }
  } catch (error) {
    stop(source, counter)
    if (refusal) throw refusal
    if (error instanceof ZipRefusedError) throw error
    // yauzl's own size check (more bytes than declared), a bad CRC or broken deflate data.
    const message = (error as Error).message ?? ''
    if (/too many bytes/i.test(message)) throw new ZipRefusedError('BOMB', ZIP_BOMB)
    throw new ZipRefusedError('CORRUPT', ZIP_CORRUPT)
  }
  const bytes = Buffer.concat(chunks, length)
  if (!checkedHead && !looksLikeDicom(bytes)) return null
  return bytes
}

function stop(source: import('node:stream').Readable, counter: Transform): void {
  source.unpipe(counter)
  source.destroy()
  counter.destroy()
}
