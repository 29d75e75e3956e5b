import { open } from 'node:fs/promises'
import {
  DICOM_FILE_MIN_BYTES,
  DICOM_UPLOAD_NAME_MAX_BYTES,
  type UploadManifestFile,
} from '@contract/main/dicom-upload'
import {
  type DicomZip,
  formatBytes,
  isDicomDir,
  isSystemClutter,
  looksLikeDicom,
  type ZipFileEntry,
  type ZipLimits,
  ZipRefusedError,
} from './zip'

/*
 * Several DICOM files sent as one upload without a zip (a folder picked on H5, files from a chat on
 * weapp): the bytes received are the files concatenated in the order of the manifest the upload
 * started with, and this cuts them apart by the sizes. The same rules as a zip apply: system files
 * and DICOMDIR are ignored, files that cannot be DICOM are skipped and counted, and a file too big
 * to parse in memory refuses the upload. Names are only labels (nothing is written under them).
 */

export const FILES_NO_DICOM = '所选文件中没有 DICOM 文件'
export const filesSkippedMessage = (count: number) => `有 ${count} 个文件不是 DICOM，已跳过`
export const filesEntryTooLarge = (name: string, limit: number) =>
  `文件 ${shortName(name)} 超过 ${formatBytes(limit)}，无法处理`
export const FILES_SIZE_MISMATCH = '文件列表与上传大小不一致，请重新选择文件'
export const filesBadName = (name: string) => `文件名 ${shortName(name)} 含有不支持的字符`
export const filesNameTooLong = (name: string) =>
  `文件名 ${shortName(name)} 过长（不能超过 ${DICOM_UPLOAD_NAME_MAX_BYTES} 字节），请改短后重试`
export const filesEntryTooSmall = (name: string, size: number) =>
  `文件 ${shortName(name)} 只有 ${size} 字节，不是 DICOM 文件（DICOM 文件至少 ${DICOM_FILE_MIN_BYTES} 字节），请不要选择它`

/** A name's bytes as the JSON text of the request carries it (quotes and backslashes escaped). */
export const manifestNameBytes = (name: string) => Buffer.byteLength(JSON.stringify(name)) - 2

function shortName(name: string): string {
  const clean = [...name].map((c) => (c.charCodeAt(0) < 0x20 ? '?' : c)).join('')
  return clean.length > 60 ? `…${clean.slice(-59)}` : clean
}

/**
 * Checks a manifest before anything is reserved or stored (the start of the upload): its sizes add
 * up to the upload's size, no file is over the per-file limit or smaller than a DICOM file can be,
 * names carry no control characters and are short enough that 5000 of them fit in one request.
 * Answers the Chinese reason, or null when it is acceptable.
 *
 * The smallest size matters beyond DICOM: the list is stored beside the chunks, so thousands of
 * empty entries would make a list of a megabyte for an upload of a few bytes.
 */
export function manifestProblem(
  files: readonly UploadManifestFile[],
  size: number,
  limits: Pick<ZipLimits, 'maxEntryBytes'>,
): string | null {
  let total = 0
  for (const file of files) {
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(file.name)) return filesBadName(file.name)
    if (manifestNameBytes(file.name) > DICOM_UPLOAD_NAME_MAX_BYTES)
      return filesNameTooLong(file.name)
    if (file.size < DICOM_FILE_MIN_BYTES) return filesEntryTooSmall(file.name, file.size)
    if (file.size > limits.maxEntryBytes) return filesEntryTooLarge(file.name, limits.maxEntryBytes)
    total += file.size
  }
  return total === size ? null : FILES_SIZE_MISMATCH
}

/**
 * The folder the files were picked from, when they all sit in one (`头颅MR/IM0001` → 头颅MR): the
 * study's title, as a zip's name is.
 */
export function manifestFolder(files: readonly UploadManifestFile[]): string | null {
  const first = files[0]?.name.split('/')
  if (!first || first.length < 2) return null
  const folder = first[0]!.trim()
  if (!folder || files.some((file) => file.name.split('/')[0]!.trim() !== folder)) return null
  return folder
}

/** Reads the concatenated files at `path` as the manifest lists them. */
export async function openDicomFiles(
  path: string,
  manifest: readonly UploadManifestFile[],
  limits: ZipLimits,
): Promise<DicomZip> {
  const handle = await open(path, 'r')
  const { size } = await handle.stat()
  const declared = manifest.reduce((sum, file) => sum + file.size, 0)
  if (declared !== size) {
    await handle.close()
    throw new ZipRefusedError('CORRUPT', FILES_SIZE_MISMATCH)
  }
  let skipped = 0
  let closed = false
  const close = () => {
    if (closed) return
    closed = true
    void handle.close().catch(() => undefined)
  }

  const read = async (position: number, length: number): Promise<Buffer> => {
    const buffer = Buffer.allocUnsafe(length)
    let done = 0
    while (done < length) {
      const { bytesRead } = await handle.read(buffer, done, length - done, position + done)
      if (bytesRead === 0) break
      done += bytesRead
    }
    return buffer.subarray(0, done)
  }

  async function* files(): AsyncGenerator<ZipFileEntry> {
    try {
      let offset = 0
      for (const file of manifest) {
        const start = offset
        offset += file.size
        if (isSystemClutter(file.name) || isDicomDir(file.name)) continue
        if (file.size > limits.maxEntryBytes) {
          throw new ZipRefusedError(
            'ENTRY_TOO_LARGE',
            filesEntryTooLarge(file.name, limits.maxEntryBytes),
          )
        }
        // The head first: a film or a PDF among the files is never read whole.
        if (!looksLikeDicom(await read(start, Math.min(file.size, 132)))) {
          skipped += 1
          continue
        }
        yield { name: file.name, bytes: await read(start, file.size) }
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
    fileCount: manifest.length,
    declaredBytes: declared,
    close,
  }
}
