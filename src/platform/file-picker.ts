import Taro from '@tarojs/taro'
import { DICOM_UPLOAD_MAX_FILES } from '@contract/main/dicom-upload'

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
 * sizes: the server cuts them apart, so the same resumable chunked upload carries them.
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
  return {
    name: joinedName(tempFiles.map((file) => file.name)),
    size: sizes.reduce((sum, size) => sum + size, 0),
    files: tempFiles.map(({ name, size }) => ({ name, size })),
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
  const sizes = list.map((file) => file.size)
  return {
    name: joinedName(names),
    size: sizes.reduce((sum, size) => sum + size, 0),
    files: names.map((name, index) => ({ name, size: sizes[index]! })),
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
    try {
      const { tempFiles } = await Taro.chooseMessageFile({
        count: WEAPP_MAX_MESSAGE_FILES,
        type: 'file',
      })
      if (tempFiles.length === 0) return null
      return weappFiles(tempFiles)
    } catch (error) {
      if (isCancel(error)) return null
      throw new Error(PICK_MESSAGES.failed)
    }
  }
  const input = createFileInput('', 'dicom-files-input', {
    multiple: true,
    folder: options.folder ?? false,
  })
  const chosen = await chooseThrough(input)
  if (chosen.length === 0) return null
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
