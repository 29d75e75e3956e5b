import Taro from '@tarojs/taro'
import {
  joinedPieces,
  manifestNames,
  nameBytes,
  pickDicomFiles,
  pickZipFile,
  PICK_MESSAGES,
} from '../file-picker'

/** `length` bytes counting up from `first` (mod 256): which file a joined byte came from shows. */
const counting = (length: number, first = 0) => Array.from({ length }, (_, i) => (first + i) % 256)

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

describe('several files joined into one upload', () => {
  it('joinedPieces: the ranges of the files a span of the joined bytes covers', () => {
    // Files of 3, 0, 5 and 2 bytes: joined offsets 0-3, 3-3, 3-8, 8-10.
    expect(joinedPieces([3, 0, 5, 2], 0, 10)).toEqual([
      { index: 0, from: 0, to: 3 },
      { index: 2, from: 0, to: 5 },
      { index: 3, from: 0, to: 2 },
    ])
    expect(joinedPieces([3, 0, 5, 2], 2, 9)).toEqual([
      { index: 0, from: 2, to: 3 },
      { index: 2, from: 0, to: 5 },
      { index: 3, from: 0, to: 1 },
    ])
    expect(joinedPieces([3, 0, 5, 2], 4, 6)).toEqual([{ index: 2, from: 1, to: 3 }])
  })

  it('weapp: up to 100 files from a chat, any extension; a chunk spanning files reads only its pieces', async () => {
    process.env.TARO_ENV = 'weapp'
    taro.env = { USER_DATA_PATH: 'wxfile://usr' }
    const contents: Record<string, number[]> = {
      'wxfile://tmp/1': counting(140),
      'wxfile://tmp/2': counting(150, 200),
    }
    const written = new Map<string, ArrayBuffer>()
    taro.chooseMessageFile = jest.fn(async () => ({
      tempFiles: [
        { path: 'wxfile://tmp/1', name: 'IM0001', size: 140 },
        { path: 'wxfile://tmp/2', name: 'IM0002.dcm', size: 150 },
      ],
    }))
    const readFile = jest.fn(
      (options: {
        filePath: string
        position: number
        length: number
        success: (r: { data: ArrayBuffer }) => void
      }) =>
        options.success({
          data: new Uint8Array(
            contents[options.filePath]!.slice(options.position, options.position + options.length),
          ).buffer,
        }),
    )
    taro.getFileSystemManager = () => ({
      readFile,
      writeFile: (options: { filePath: string; data: ArrayBuffer; success: () => void }) => {
        written.set(options.filePath, options.data)
        options.success()
      },
      unlink: () => undefined,
    })
    const file = await pickDicomFiles()
    expect(taro.chooseMessageFile).toHaveBeenCalledWith({ count: 100, type: 'file' })
    expect(file).toMatchObject({
      name: '2 个文件',
      size: 290,
      files: [
        { name: 'IM0001', size: 140 },
        { name: 'IM0002.dcm', size: 150 },
      ],
    })
    const part = await file!.slice(138, 142)
    expect(
      readFile.mock.calls.map(([call]) => [call.filePath, call.position, call.length]),
    ).toEqual([
      ['wxfile://tmp/1', 138, 2],
      ['wxfile://tmp/2', 0, 2],
    ])
    expect([...new Uint8Array(written.get(part.filePath)!)]).toEqual([138, 139, 200, 201])
  })

  it('H5: a folder input; names keep the path inside the folder; a chunk is the joined slices', async () => {
    process.env.TARO_ENV = 'h5'
    const created: Blob[] = []
    const savedCreate = URL.createObjectURL
    URL.createObjectURL = (blob: Blob) => {
      created.push(blob)
      return `blob:test/${created.length}`
    }
    try {
      const picking = pickDicomFiles({ folder: true })
      const input = document.querySelector(
        'input[data-testid="dicom-files-input"]',
      ) as HTMLInputElement
      expect(input.multiple).toBe(true)
      expect(input.hasAttribute('webkitdirectory')).toBe(true)
      const inFolder = (bytes: number[], name: string) => {
        const file = new File([new Uint8Array(bytes)], name.split('/').pop()!)
        Object.defineProperty(file, 'webkitRelativePath', { value: name })
        return file
      }
      Object.defineProperty(input, 'files', {
        value: [
          inFolder(counting(140), '头颅MR/IM0001'),
          inFolder(counting(150, 200), '头颅MR/IM0002'),
        ],
      })
      input.dispatchEvent(new Event('change'))
      const file = await picking
      expect(file).toMatchObject({
        name: '头颅MR',
        size: 290,
        files: [
          { name: '头颅MR/IM0001', size: 140 },
          { name: '头颅MR/IM0002', size: 150 },
        ],
      })
      expect(document.querySelector('input[type=file]')).toBeNull()
      await file!.slice(138, 142)
      // jsdom's Blob has no arrayBuffer(); FileReader reads it.
      const buffer = await new Promise<ArrayBuffer>((resolve) => {
        const reader = new FileReader()
        reader.onload = () => resolve(reader.result as ArrayBuffer)
        reader.readAsArrayBuffer(created[0]!)
      })
      const bytes = new Uint8Array(buffer)
      expect([...bytes]).toEqual([138, 139, 200, 201])
    } finally {
      URL.createObjectURL = savedCreate
    }
  })

  it('H5: more files than one upload takes are refused before anything is sent', async () => {
    process.env.TARO_ENV = 'h5'
    const picking = pickDicomFiles({ folder: true })
    const input = document.querySelector('input[type=file]') as HTMLInputElement
    Object.defineProperty(input, 'files', {
      value: Array.from({ length: 5001 }, (_, i) => new File([new Uint8Array(132)], `IM${i}`)),
    })
    input.dispatchEvent(new Event('change'))
    await expect(picking).rejects.toThrow('一次最多上传 5000 个文件，请分批上传')
  })

  it('H5: several loose files without a folder; closing the dialog answers null', async () => {
    process.env.TARO_ENV = 'h5'
    const picking = pickDicomFiles()
    const input = document.querySelector('input[type=file]') as HTMLInputElement
    expect(input.hasAttribute('webkitdirectory')).toBe(false)
    Object.defineProperty(input, 'files', {
      value: [new File([new Uint8Array(200)], 'a'), new File([new Uint8Array(132)], 'b.dcm')],
    })
    input.dispatchEvent(new Event('change'))
    expect(await picking).toMatchObject({ name: '2 个文件', size: 332 })

    const closing = pickDicomFiles()
    ;(document.querySelector('input[type=file]') as HTMLInputElement).dispatchEvent(
      new Event('cancel'),
    )
    await expect(closing).resolves.toBeNull()
  })

  it('H5: files too small to be DICOM (an empty desktop.ini) are left out; only such files say so', async () => {
    process.env.TARO_ENV = 'h5'
    const inFolder = (size: number, name: string) => {
      const file = new File([new Uint8Array(size)], name.split('/').pop()!)
      Object.defineProperty(file, 'webkitRelativePath', { value: name })
      return file
    }
    const picking = pickDicomFiles({ folder: true })
    Object.defineProperty(document.querySelector('input[type=file]'), 'files', {
      value: [
        inFolder(0, 'CT/desktop.ini'),
        inFolder(131, 'CT/小文件'),
        inFolder(132, 'CT/IM0001'),
        inFolder(5000, 'CT/IM0002'),
      ],
    })
    document.querySelector('input[type=file]')!.dispatchEvent(new Event('change'))
    expect(await picking).toMatchObject({
      name: 'CT',
      size: 5132,
      files: [
        { name: 'CT/IM0001', size: 132 },
        { name: 'CT/IM0002', size: 5000 },
      ],
    })

    const empties = pickDicomFiles()
    Object.defineProperty(document.querySelector('input[type=file]'), 'files', {
      value: [new File([], 'desktop.ini'), new File([new Uint8Array(10)], 'a.txt')],
    })
    document.querySelector('input[type=file]')!.dispatchEvent(new Event('change'))
    await expect(empties).rejects.toThrow('所选文件中没有 DICOM 文件')
  })

  it('weapp: files from a chat too small to be DICOM are left out too', async () => {
    process.env.TARO_ENV = 'weapp'
    taro.env = { USER_DATA_PATH: 'wxfile://usr' }
    taro.getFileSystemManager = () => ({})
    taro.chooseMessageFile = jest.fn(async () => ({
      tempFiles: [
        { path: 'wxfile://tmp/1', name: 'IM0001', size: 600 },
        { path: 'wxfile://tmp/2', name: '空.dcm', size: 0 },
      ],
    }))
    expect(await pickDicomFiles()).toMatchObject({
      size: 600,
      files: [{ name: 'IM0001', size: 600 }],
    })
    taro.chooseMessageFile = jest.fn(async () => ({
      tempFiles: [{ path: 'wxfile://tmp/2', name: '空.dcm', size: 0 }],
    }))
    await expect(pickDicomFiles()).rejects.toThrow(PICK_MESSAGES.noDicom)
  })
})

describe('names in the file list', () => {
  it('counts bytes as the JSON text of the request carries them', () => {
    expect(nameBytes('IM0001')).toBe(6)
    expect(nameBytes('头颅MR')).toBe(8)
    expect(nameBytes('a"b\\c')).toBe(7)
    expect(nameBytes('é')).toBe(2)
    expect(nameBytes('😀')).toBe(4)
  })

  it('short names are sent as they are', () => {
    const names = ['头颅MR/DICOM/ST0/SE1/IM0001', '头颅MR/DICOMDIR']
    expect(manifestNames(names)).toEqual(names)
  })

  it('a long path loses its middle folders first, then the start of the file name; the folder stays one', () => {
    const folder = '张三_头颅磁共振平扫加增强_第一次复查'
    const middle = '检查序列'.repeat(10)
    const names = [
      `${folder}/${middle}/IM0001`,
      `${folder}/${'很长的文件名'.repeat(20)}IM0002.dcm`,
      `${folder}/DICOMDIR`,
    ]
    const sent = manifestNames(names)
    expect(sent[0]).toBe(`${folder}/…/IM0001`)
    expect(sent[1]!.startsWith(`${folder}/…`)).toBe(true)
    expect(sent[1]!.endsWith('名IM0002.dcm')).toBe(true)
    // Short names in the same list keep their folder as it is: one title for the study.
    expect(sent[2]).toBe(`${folder}/DICOMDIR`)
    for (const name of sent) expect(nameBytes(name)).toBeLessThanOrEqual(160)
  })

  it('a folder name too long is cut the same way in every name', () => {
    const folder = '长'.repeat(80)
    const sent = manifestNames([`${folder}/IM0001`, `${folder}/IM0002`, '长'.repeat(300)])
    const folders = new Set(sent.slice(0, 2).map((name) => name.split('/')[0]))
    expect(folders.size).toBe(1)
    expect(nameBytes([...folders][0]!)).toBeLessThanOrEqual(60)
    expect(sent[0]!.endsWith('/IM0001')).toBe(true)
    // A loose file keeps the end of its name.
    expect(sent[2]!.startsWith('…')).toBe(true)
    for (const name of sent) expect(nameBytes(name)).toBeLessThanOrEqual(160)
  })

  it('5000 of the longest paths a folder can give fit in one request (1 MiB)', () => {
    const names = Array.from(
      { length: 5000 },
      (_, i) => `${'影'.repeat(255)}/${'序'.repeat(255)}/${'像'.repeat(250)}${i}`,
    )
    const files = manifestNames(names).map((name) => ({ name, size: 2_000_000 }))
    const body = JSON.stringify({ fileName: '影'.repeat(255), size: 1, files })
    expect(new Blob([body]).size).toBeLessThan(1024 * 1024)
  })
})
