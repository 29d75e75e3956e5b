import type { PickedFile } from '@/platform/file-picker'
import type { UploadState } from '../dicom-upload'
import { runZipUpload, type UploadProgress, type UploadSessionDeps } from '../dicom-upload-session'
import { HttpError, NetworkError } from '../http'

jest.mock('@/platform/ui', () => ({ showToast: jest.fn() }))

const CHUNK = 4

function state(over: Partial<UploadState> = {}): UploadState {
  return {
    uploadId: 'u1',
    fileName: 'a.zip',
    totalBytes: 10,
    receivedBytes: 0,
    chunkSize: CHUNK,
    status: 'receiving',
    statusLabel: '上传中',
    message: null,
    examIds: [],
    storedCount: 0,
    duplicateCount: 0,
    skippedCount: 0,
    createdAt: '2030-01-01T00:00:00.000Z',
    updatedAt: '2030-01-01T00:00:00.000Z',
    ...over,
  }
}

/** A 10-byte file; slices are named by their range so the test sees what was sent. */
function file(): PickedFile & { released: string[] } {
  const released: string[] = []
  return {
    name: 'a.zip',
    size: 10,
    released,
    slice: async (start, end) => ({
      filePath: `slice:${start}-${end}`,
      release: () => released.push(`slice:${start}-${end}`),
    }),
  }
}

/** A server that accepts chunks in order; `drop` makes the answer to those offsets get lost. */
function server(
  options: { drop?: number[]; processing?: number; result?: Partial<UploadState> } = {},
) {
  let received = 0
  let polls = options.processing ?? 1
  const dropped = new Set(options.drop ?? [])
  const sent: string[] = []
  const deps: UploadSessionDeps = {
    start: jest.fn(async () => state()),
    chunk: jest.fn(async (_id: string, offset: number, path: string) => {
      sent.push(`${offset}:${path}`)
      if (offset !== received) {
        throw new HttpError({ statusCode: 409, data: {}, header: {} }, 'response-hook')
      }
      received = Math.min(10, offset + CHUNK)
      if (dropped.delete(offset)) throw new NetworkError('request:fail timeout', true)
      return state({ receivedBytes: received })
    }),
    get: jest.fn(async () => {
      if (received < 10) return state({ receivedBytes: received })
      polls -= 1
      return polls > 0
        ? state({ receivedBytes: 10, status: 'processing', statusLabel: '解析中' })
        : state({ receivedBytes: 10, status: 'ready', statusLabel: '可查看', ...options.result })
    }),
    finish: jest.fn(async () =>
      state({ receivedBytes: 10, status: 'processing', statusLabel: '解析中' }),
    ),
    cancel: jest.fn(async () => ({ ok: true as const })),
    sleep: jest.fn(async () => undefined),
  }
  return { deps, sent }
}

describe('runZipUpload', () => {
  it('several files joined start with their list, then go as the same chunks', async () => {
    const { deps, sent } = server()
    const files = [
      { name: 'MR/IM0001', size: 6 },
      { name: 'MR/IM0002', size: 4 },
    ]
    const outcome = await runZipUpload(
      { ...file(), name: 'MR', files },
      () => undefined,
      {
        cancelled: false,
      },
      deps,
    )
    expect(outcome.phase).toBe('ready')
    expect(deps.start).toHaveBeenCalledWith('MR', 10, files)
    expect(sent).toEqual(['0:slice:0-4', '4:slice:4-8', '8:slice:8-10'])
  })

  it('sends the chunks in order, then polls 解析中 until 可查看', async () => {
    const { deps, sent } = server({ processing: 2 })
    const picked = file()
    const phases: UploadProgress['phase'][] = []
    const outcome = await runZipUpload(
      picked,
      (p) => phases.push(p.phase),
      { cancelled: false },
      deps,
    )
    expect(outcome.phase).toBe('ready')
    expect(sent).toEqual(['0:slice:0-4', '4:slice:4-8', '8:slice:8-10'])
    expect(picked.released).toHaveLength(3)
    expect(phases).toEqual([
      'starting',
      'uploading',
      'uploading',
      'uploading',
      'processing',
      'ready',
    ])
  })

  it('after a dropped connection asks the server where it is and continues from there', async () => {
    // The chunk at 4 arrived but its answer was lost: the session must not send it again.
    const { deps, sent } = server({ drop: [4] })
    const progress: UploadProgress[] = []
    const outcome = await runZipUpload(file(), (p) => progress.push(p), { cancelled: false }, deps)
    expect(outcome.phase).toBe('ready')
    expect(sent).toEqual(['0:slice:0-4', '4:slice:4-8', '8:slice:8-10'])
    expect(deps.get).toHaveBeenCalled()
    expect(deps.sleep).toHaveBeenCalledWith(1000)
    expect(progress.some((p) => p.phase === 'uploading' && p.retrying)).toBe(true)
  })

  it('gives up after repeated network failures with a message a person understands', async () => {
    const { deps } = server()
    deps.chunk = jest.fn(async () => {
      throw new NetworkError('request:fail', false)
    })
    deps.get = jest.fn(async () => {
      throw new NetworkError('request:fail', false)
    })
    const outcome = await runZipUpload(file(), () => undefined, { cancelled: false }, deps)
    expect(outcome).toEqual({
      phase: 'failed',
      uploadId: 'u1',
      message: '网络不稳定，上传中断，请检查网络后重试',
    })
    expect(deps.chunk).toHaveBeenCalledTimes(6)
  })

  it('a refusal (quota) at start fails with the server reason', async () => {
    const { deps } = server()
    deps.start = jest.fn(async () => {
      throw new HttpError(
        {
          statusCode: 400,
          data: {
            code: 400,
            message: '请求参数有误',
            data: null,
            error: '存储空间不足：已用 2000 MB',
          },
          header: {},
        },
        'business',
      )
    })
    const outcome = await runZipUpload(file(), () => undefined, { cancelled: false }, deps)
    expect(outcome).toEqual({ phase: 'failed', message: '存储空间不足：已用 2000 MB' })
  })

  it('cancel stops between chunks and deletes the upload on the server', async () => {
    const { deps, sent } = server()
    const control = { cancelled: false }
    const outcome = await runZipUpload(
      file(),
      (p) => {
        if (p.phase === 'uploading' && p.sent === 4) control.cancelled = true
      },
      control,
      deps,
    )
    expect(outcome.phase).toBe('cancelled')
    expect(sent).toEqual(['0:slice:0-4'])
    expect(deps.cancel).toHaveBeenCalledWith('u1')
    expect(deps.finish).not.toHaveBeenCalled()
  })

  it('a zip the server refuses ends 失败 with its reason', async () => {
    const { deps } = server({
      result: { status: 'failed', statusLabel: '失败', message: '压缩包中没有 DICOM 文件' },
    })
    const outcome = await runZipUpload(file(), () => undefined, { cancelled: false }, deps)
    expect(outcome).toEqual({ phase: 'failed', uploadId: 'u1', message: '压缩包中没有 DICOM 文件' })
  })
})
