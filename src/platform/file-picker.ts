import Taro from '@tarojs/taro'

/**
 * Choosing a file to upload and cutting it into chunks, on each platform.
 *
 * - weapp: a mini-program cannot browse the phone's files; `chooseMessageFile` picks one a chat
 *   received (how patients are usually handed a zip). A chunk is read with the FileSystemManager
 *   (`readFile` with position/length, so the file is never read whole) into a temp file that
 *   uploadFile can send.
 * - H5: a hidden `<input type="file">`; a chunk is `Blob.slice`, sent through a blob: URL (Taro's
 *   H5 uploadFile reads blob: URLs).
 */

export interface PickedFile {
  name: string
  size: number
  /** Bytes [start, end) as a path uploadFile can send; release() frees it. */
  slice: (start: number, end: number) => Promise<{ filePath: string; release: () => void }>
}

export const PICK_MESSAGES = {
  notZip: '请选择 zip 格式的压缩包',
  failed: '无法读取所选文件，请重新选择',
} as const

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

/** The input the H5 picker uses; tests pick a file through it. */
export function createFileInput(accept: string): HTMLInputElement {
  const input = document.createElement('input')
  input.type = 'file'
  input.accept = accept
  input.style.display = 'none'
  input.setAttribute('data-testid', 'zip-file-input')
  document.body.appendChild(input)
  return input
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
  return new Promise<PickedFile | null>((resolve) => {
    const done = (file: PickedFile | null) => {
      input.remove()
      resolve(file)
    }
    input.addEventListener('change', () => {
      const file = input.files?.[0]
      done(file ? browserFile(file) : null)
    })
    // Browsers that fire it tell us the dialog was closed without a choice.
    input.addEventListener('cancel', () => done(null))
    input.click()
  })
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
