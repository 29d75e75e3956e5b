import Taro from '@tarojs/taro'
import {
  DICOM_FILE_MIN_BYTES,
  DICOM_UPLOAD_MAX_FILES,
  DICOM_UPLOAD_NAME_MAX_BYTES,
} from '@contract/main/dicom-upload'

/**
 * Choosing a file to upload and cutting it into chunks, on each platform.
 *
 * - weapp: a mini-program cannot browse the phone's files; `chooseMessageFile` picks one a chat
 *   received (how patients are usually handed a zip). A chunk is read with the FileSystemManager
 *   (`readFile` with position/length, so the file is never read whole) into a temp file that
 *   uploadFile can send.
 * - H5: a hidden `<input type="file">`; a chunk is `Blob.slice`, sent through a blob: URL (Taro's
 *   H5 uploadFile reads blob: URLs).
 *
 * Several DICOM files (many from a chat on weapp; several files or a folder on H5) become one
 * PickedFile whose bytes are the files one after another, with `files` listing their names and
 * sizes: the server cuts them apart, so the same resumable chunked upload carries them. Files
 * under 132 bytes are left out (no DICOM file is that small: an empty desktop.ini must not stop a
 * folder), and long paths are shortened in the list so 5000 names fit in one request.
 */

export interface PickedFile {
  name: string
  size: number
  /** Several files joined: their names (paths inside a folder) and sizes, in the order sent. */
  files?: { name: string; size: number }[]
  /** Bytes [start, end) as a path uploadFile can send; release() frees it. */
  slice: (start: number, end: number) => Promise<{ filePath: string; release: () => void }>
}

export const PICK_MESSAGES = {
  notZip: '请选择 zip 格式的压缩包',
  failed: '无法读取所选文件，请重新选择',
  tooMany: `一次最多上传 ${DICOM_UPLOAD_MAX_FILES} 个文件，请分批上传`,
  noDicom: '所选文件中没有 DICOM 文件',
} as const

/** How many files one chat pick may take (chooseMessageFile's own maximum). */
export const WEAPP_MAX_MESSAGE_FILES = 100

function errMsgOf(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'errMsg' in error) {
    const { errMsg } = error as { errMsg: unknown }
    if (typeof errMsg === 'string') return errMsg
  }
  return error instanceof Error ? error.message : String(error)
}

const isCancel = (error: unknown) => /cancel/i.test(errMsgOf(error))

let chunkCounter = 0

function weappFile(path: string, name: string, size: number): PickedFile {
  const fs = Taro.getFileSystemManager()
  return {
    name,
    size,
    slice: (start, end) =>
      new Promise((resolve, reject) => {
        fs.readFile({
          filePath: path,
          position: start,
          length: end - start,
          success: ({ data }) => {
            chunkCounter += 1
            const chunkPath = `${Taro.env.USER_DATA_PATH}/upload-chunk-${chunkCounter}.part`
            fs.writeFile({
              filePath: chunkPath,
              data: data as ArrayBuffer,
              success: () =>
                resolve({
                  filePath: chunkPath,
                  release: () => fs.unlink({ filePath: chunkPath, fail: () => undefined }),
                }),
              fail: (error) => reject(new Error(errMsgOf(error))),
            })
          },
          fail: (error) => reject(new Error(errMsgOf(error))),
        })
      }),
  }
}

/** A piece of the joined bytes [start, end): which file, and the range inside it. */
export interface JoinedPiece {
  index: number
  from: number
  to: number
}

/** The pieces of files (by their sizes, one after another) that bytes [start, end) cover. */
export function joinedPieces(sizes: readonly number[], start: number, end: number): JoinedPiece[] {
  const pieces: JoinedPiece[] = []
  let offset = 0
  sizes.forEach((size, index) => {
    const from = Math.max(start, offset)
    const to = Math.min(end, offset + size)
    if (from < to) pieces.push({ index, from: from - offset, to: to - offset })
    offset += size
  })
  return pieces
}

/** A character's bytes in the request's JSON text, counted as the server counts a name. */
function jsonCharBytes(char: string): number {
  const code = char.codePointAt(0)!
  if (char === '"' || char === '\\') return 2
  if (code < 0x20) return 6
  if (code < 0x80) return 1
  if (code < 0x800) return 2
  // A lone surrogate is written as \uXXXX.
  if (code >= 0xd800 && code <= 0xdfff) return 6
  return code < 0x10000 ? 3 : 4
}

export function nameBytes(name: string): number {
  let bytes = 0
  for (const char of name) bytes += jsonCharBytes(char)
  return bytes
}

/** The longest start (or end) of `text`, in whole characters, of at most `max` bytes. */
function fitBytes(text: string, max: number, from: 'start' | 'end'): string {
  const chars = Array.from(text)
  if (from === 'end') chars.reverse()
  const kept: string[] = []
  let bytes = 0
  for (const char of chars) {
    bytes += jsonCharBytes(char)
    if (bytes > max) break
    kept.push(char)
  }
  if (from === 'end') kept.reverse()
  return kept.join('')
}

const ELLIPSIS = '…'
/** A folder's name keeps at most this many bytes when paths must be shortened. */
const FOLDER_NAME_MAX_BYTES = 60

/**
 * The names the list sends, each at most DICOM_UPLOAD_NAME_MAX_BYTES. Names are only labels on the
 * server: the folder (the study's title) and the file's own name (system files, DICOMDIR, messages)
 * are what count, so a long path loses its middle folders first, then the start of the file's name
 * (its end holds the number and extension). When any name is too long, a long folder name is cut
 * the same way in every name, so they all still name one folder.
 */
export function manifestNames(names: readonly string[]): string[] {
  const max = DICOM_UPLOAD_NAME_MAX_BYTES
  if (names.every((name) => nameBytes(name) <= max)) return [...names]
  return names.map((name) => {
    const parts = name.split('/')
    const base = parts[parts.length - 1]!
    if (parts.length === 1) return ELLIPSIS + fitBytes(name, max - nameBytes(ELLIPSIS), 'end')
    const folder =
      nameBytes(parts[0]!) > FOLDER_NAME_MAX_BYTES
        ? fitBytes(parts[0]!, FOLDER_NAME_MAX_BYTES - nameBytes(ELLIPSIS), 'start') + ELLIPSIS
        : parts[0]!
    const whole = [folder, ...parts.slice(1)].join('/')
    if (nameBytes(whole) <= max) return whole
    const withoutMiddle = parts.length > 2 ? `${folder}/${ELLIPSIS}/${base}` : `${folder}/${base}`
    if (nameBytes(withoutMiddle) <= max) return withoutMiddle
    const prefix = `${folder}/${ELLIPSIS}`
    return prefix + fitBytes(base, max - nameBytes(prefix), 'end')
  })
}

/** What several files are called in the list while they upload: their folder, or how many. */
function joinedName(names: readonly string[]): string {
  const folders = new Set(names.map((name) => (name.includes('/') ? name.split('/')[0] : '')))
  const [folder] = [...folders]
  if (folders.size === 1 && folder) return folder
  return names.length === 1 ? names[0]! : `${names.length} 个文件`
}

function weappFiles(tempFiles: { path: string; name: string; size: number }[]): PickedFile {
  const fs = Taro.getFileSystemManager()
  const read = (filePath: string, position: number, length: number) =>
    new Promise<ArrayBuffer>((resolve, reject) => {
      fs.readFile({
        filePath,
        position,
        length,
        success: ({ data }) => resolve(data as ArrayBuffer),
        fail: (error) => reject(new Error(errMsgOf(error))),
      })
    })
  const sizes = tempFiles.map((file) => file.size)
  const names = manifestNames(tempFiles.map((file) => file.name))
  return {
    name: joinedName(tempFiles.map((file) => file.name)),
    size: sizes.reduce((sum, size) => sum + size, 0),
    files: tempFiles.map(({ size }, index) => ({ name: names[index]!, size })),
    slice: async (start, end) => {
      // A chunk is at most 4 MB: the pieces of the few files it spans are read and joined.
      const joined = new Uint8Array(end - start)
      let at = 0
      for (const piece of joinedPieces(sizes, start, end)) {
        const data = await read(tempFiles[piece.index]!.path, piece.from, piece.to - piece.from)
        joined.set(new Uint8Array(data), at)
        at += data.byteLength
      }
      chunkCounter += 1
      const chunkPath = `${Taro.env.USER_DATA_PATH}/upload-chunk-${chunkCounter}.part`
      await new Promise<void>((resolve, reject) => {
        fs.writeFile({
          filePath: chunkPath,
          data: joined.buffer,
          success: () => resolve(),
          fail: (error) => reject(new Error(errMsgOf(error))),
        })
      })
      return {
        filePath: chunkPath,
        release: () => fs.unlink({ filePath: chunkPath, fail: () => undefined }),
      }
    },
  }
}

type BrowserFile = Blob & { name: string; webkitRelativePath?: string }

function browserFiles(list: readonly BrowserFile[]): PickedFile {
  // A folder's files carry their path inside it; the server reads the folder's name as the title.
  const names = list.map((file) => file.webkitRelativePath || file.name)
  const sent = manifestNames(names)
  const sizes = list.map((file) => file.size)
  return {
    name: joinedName(names),
    size: sizes.reduce((sum, size) => sum + size, 0),
    files: sent.map((name, index) => ({ name, size: sizes[index]! })),
    slice: async (start, end) => {
      const parts = joinedPieces(sizes, start, end).map((piece) =>
        list[piece.index]!.slice(piece.from, piece.to),
      )
      const url = URL.createObjectURL(new Blob(parts))
      return { filePath: url, release: () => URL.revokeObjectURL(url) }
    },
  }
}

function browserFile(file: Blob & { name: string }): PickedFile {
  return {
    name: file.name,
    size: file.size,
    slice: async (start, end) => {
      const url = URL.createObjectURL(file.slice(start, end))
      return { filePath: url, release: () => URL.revokeObjectURL(url) }
    },
  }
}

/** The input the H5 picker uses; tests pick files through it (`data-testid` says which). */
export function createFileInput(
  accept: string,
  testId = 'zip-file-input',
  options: { multiple?: boolean; folder?: boolean } = {},
): HTMLInputElement {
  const input = document.createElement('input')
  input.type = 'file'
  input.accept = accept
  input.multiple = options.multiple ?? false
  if (options.folder) input.setAttribute('webkitdirectory', '')
  input.style.display = 'none'
  input.setAttribute('data-testid', testId)
  document.body.appendChild(input)
  return input
}

/**
 * Opens the input's dialog and answers the files chosen (empty when closed without a choice).
 * Called in the tap's own task: browsers open a file dialog only for a user gesture.
 */
function chooseThrough(input: HTMLInputElement): Promise<File[]> {
  return new Promise<File[]>((resolve) => {
    const done = (files: File[]) => {
      input.remove()
      resolve(files)
    }
    input.addEventListener('change', () => done(Array.from(input.files ?? [])))
    // Browsers that fire it tell us the dialog was closed without a choice.
    input.addEventListener('cancel', () => done([]))
    input.click()
  })
}

/**
 * Whether a file can be DICOM by its size alone: a Part 10 file is at least its 128-byte preamble
 * and `DICM`. Smaller ones (an empty desktop.ini, a 0-byte placeholder) are left out before the
 * upload starts; the server would refuse the list with them.
 */
const canBeDicom = (file: { size: number }) => file.size >= DICOM_FILE_MIN_BYTES

/** Whether files come only from a chat (a mini-program cannot browse the phone's files). */
export function picksFromChat(): boolean {
  return process.env.TARO_ENV === 'weapp'
}

/** Whether this browser can pick a whole folder (`webkitdirectory`); never on weapp. */
export function canPickFolder(): boolean {
  if (process.env.TARO_ENV === 'weapp') return false
  return typeof document !== 'undefined' && 'webkitdirectory' in document.createElement('input')
}

/**
 * Asks for several DICOM files: on weapp up to 100 from a chat (no extension filter: DICOM files
 * often have none, and chooseMessageFile cannot ask for "no extension"); on H5 several files, or a
 * whole folder when `folder` is set. Resolves null when the person cancels; rejects with a Chinese
 * message when the choice cannot be used.
 */
export async function pickDicomFiles(
  options: { folder?: boolean } = {},
): Promise<PickedFile | null> {
  if (process.env.TARO_ENV === 'weapp') {
    let tempFiles: { path: string; name: string; size: number }[]
    try {
      ;({ tempFiles } = await Taro.chooseMessageFile({
        count: WEAPP_MAX_MESSAGE_FILES,
        type: 'file',
      }))
    } catch (error) {
      if (isCancel(error)) return null
      throw new Error(PICK_MESSAGES.failed)
    }
    if (tempFiles.length === 0) return null
    const usable = tempFiles.filter(canBeDicom)
    if (usable.length === 0) throw new Error(PICK_MESSAGES.noDicom)
    return weappFiles(usable)
  }
  const input = createFileInput('', 'dicom-files-input', {
    multiple: true,
    folder: options.folder ?? false,
  })
  const all = await chooseThrough(input)
  if (all.length === 0) return null
  const chosen = all.filter(canBeDicom)
  if (chosen.length === 0) throw new Error(PICK_MESSAGES.noDicom)
  if (chosen.length > DICOM_UPLOAD_MAX_FILES) throw new Error(PICK_MESSAGES.tooMany)
  return browserFiles(chosen)
}

/**
 * Asks for a zip. Resolves null when the person cancels; rejects with a Chinese message when the
 * choice cannot be used.
 */
export async function pickZipFile(): Promise<PickedFile | null> {
  if (process.env.TARO_ENV === 'weapp') {
    try {
      const { tempFiles } = await Taro.chooseMessageFile({
        count: 1,
        type: 'file',
        extension: ['zip'],
      })
      const file = tempFiles[0]
      if (!file) return null
      return weappFile(file.path, file.name, file.size)
    } catch (error) {
      if (isCancel(error)) return null
      throw new Error(PICK_MESSAGES.failed)
    }
  }
  const input = createFileInput('.zip,application/zip,application/x-zip-compressed')
  const [file] = await chooseThrough(input)
  return file ? browserFile(file) : null
}

/** Photos of a paper report: the camera or the album, at most `count`. Empty when cancelled. */
export async function pickPhotos(count: number): Promise<string[]> {
  try {
    const { tempFilePaths } = await Taro.chooseImage({
      count,
      sizeType: ['compressed'],
      sourceType: ['album', 'camera'],
    })
    return tempFilePaths
  } catch (error) {
    if (isCancel(error)) return []
    throw new Error(PICK_MESSAGES.failed)
  }
}

/**
 * One file of the given types (`video/mp4`, `image/*`) as a path uploadFile can send, or null when
 * cancelled. The operators' pages use it; they are H5 only, where the browser's own dialog opens.
 */
export async function pickOneFile(
  accept: string,
  testId: string,
): Promise<{ filePath: string; name: string; size: number; release: () => void } | null> {
  const input = createFileInput(accept, testId)
  const [file] = await chooseThrough(input)
  if (!file) return null
  const url = URL.createObjectURL(file)
  return {
    filePath: url,
    name: file.name,
    size: file.size,
    release: () => URL.revokeObjectURL(url),
  }
}
