import Taro from '@tarojs/taro'
import { pickZipFile, PICK_MESSAGES } from '../file-picker'

const taro = Taro as unknown as Record<string, unknown>
const savedEnv = process.env.TARO_ENV
const saved = {
  chooseMessageFile: taro.chooseMessageFile,
  getFileSystemManager: taro.getFileSystemManager,
  env: taro.env,
}

afterEach(() => {
  process.env.TARO_ENV = savedEnv
  Object.assign(taro, saved)
  document.querySelectorAll('input[type=file]').forEach((input) => input.remove())
})

describe('picking a zip on weapp', () => {
  beforeEach(() => {
    process.env.TARO_ENV = 'weapp'
    taro.env = { USER_DATA_PATH: 'wxfile://usr' }
  })

  it('takes a file a chat received and reads only the asked bytes for each chunk', async () => {
    const bytes = new Uint8Array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    const written = new Map<string, ArrayBuffer>()
    const unlinked: string[] = []
    taro.chooseMessageFile = jest.fn(async () => ({
      tempFiles: [{ path: 'wxfile://tmp/a.zip', name: '光盘.zip', size: 10 }],
    }))
    const readFile = jest.fn(
      (options: {
        position: number
        length: number
        success: (r: { data: ArrayBuffer }) => void
      }) =>
        options.success({
          data: bytes.slice(options.position, options.position + options.length).buffer,
        }),
    )
    taro.getFileSystemManager = () => ({
      readFile,
      writeFile: (options: { filePath: string; data: ArrayBuffer; success: () => void }) => {
        written.set(options.filePath, options.data)
        options.success()
      },
      unlink: (options: { filePath: string }) => unlinked.push(options.filePath),
    })
    const file = await pickZipFile()
    expect(taro.chooseMessageFile).toHaveBeenCalledWith({
      count: 1,
      type: 'file',
      extension: ['zip'],
    })
    expect(file).toMatchObject({ name: '光盘.zip', size: 10 })
    const part = await file!.slice(4, 8)
    expect(readFile).toHaveBeenCalledWith(
      expect.objectContaining({ filePath: 'wxfile://tmp/a.zip', position: 4, length: 4 }),
    )
    expect(part.filePath.startsWith('wxfile://usr/')).toBe(true)
    expect([...new Uint8Array(written.get(part.filePath)!)]).toEqual([4, 5, 6, 7])
    part.release()
    expect(unlinked).toEqual([part.filePath])
  })

  it('closing the picker is not an error; a failure says so in Chinese', async () => {
    taro.chooseMessageFile = jest.fn(async () => {
      throw { errMsg: 'chooseMessageFile:fail cancel' }
    })
    await expect(pickZipFile()).resolves.toBeNull()
    taro.chooseMessageFile = jest.fn(async () => {
      throw { errMsg: 'chooseMessageFile:fail no permission' }
    })
    await expect(pickZipFile()).rejects.toThrow(PICK_MESSAGES.failed)
  })
})

describe('picking a zip on H5', () => {
  beforeEach(() => {
    process.env.TARO_ENV = 'h5'
  })

  it('uses a file input and sends slices as blob: URLs', async () => {
    const created: Blob[] = []
    const revoked: string[] = []
    const savedCreate = URL.createObjectURL
    const savedRevoke = URL.revokeObjectURL
    URL.createObjectURL = (blob: Blob) => {
      created.push(blob)
      return `blob:test/${created.length}`
    }
    URL.revokeObjectURL = (url: string) => revoked.push(url)
    try {
      const picking = pickZipFile()
      const input = document.querySelector('input[type=file]') as HTMLInputElement
      expect(input.accept).toContain('.zip')
      const zip = new File([new Uint8Array(10)], '检查.zip', { type: 'application/zip' })
      Object.defineProperty(input, 'files', { value: [zip] })
      input.dispatchEvent(new Event('change'))
      const file = await picking
      expect(file).toMatchObject({ name: '检查.zip', size: 10 })
      expect(document.querySelector('input[type=file]')).toBeNull()
      const part = await file!.slice(2, 6)
      expect(part.filePath).toBe('blob:test/1')
      expect(created[0]!.size).toBe(4)
      part.release()
      expect(revoked).toEqual(['blob:test/1'])
    } finally {
      URL.createObjectURL = savedCreate
      URL.revokeObjectURL = savedRevoke
    }
  })

  it('a closed dialog answers null', async () => {
    const picking = pickZipFile()
    const input = document.querySelector('input[type=file]') as HTMLInputElement
    input.dispatchEvent(new Event('cancel'))
    await expect(picking).resolves.toBeNull()
  })
})
