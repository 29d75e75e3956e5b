import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { pickDicomFiles, pickZipFile, type PickedFile } from '@/platform/file-picker'
import { profile } from '@/services/__tests__/account-fixtures'
import {
  cancelDicomUpload,
  finishDicomUpload,
  getDicomUpload,
  getStorageQuota,
  listYsReports,
  startDicomUpload,
  uploadDicomChunk,
  type UploadState,
  type YsReportItem,
} from '@/services/dicom-upload'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { renderPage } from '../../../../jest/taro-render'

jest.mock('@/services/dicom-upload', () => ({
  listYsReports: jest.fn(),
  getStorageQuota: jest.fn(),
  startDicomUpload: jest.fn(),
  uploadDicomChunk: jest.fn(),
  getDicomUpload: jest.fn(),
  finishDicomUpload: jest.fn(),
  cancelDicomUpload: jest.fn(),
}))
jest.mock('@/platform/file-picker', () => ({
  pickZipFile: jest.fn(),
  pickDicomFiles: jest.fn(),
  pickPhotos: jest.fn(),
  canPickFolder: () => true,
  picksFromChat: () => false,
}))

jest.setTimeout(30_000)

const MB = 1024 * 1024

function item(over: Partial<YsReportItem>): YsReportItem {
  return {
    examId: null,
    uploadId: 'u0',
    title: '上传的影像',
    hospitalText: null,
    studyDate: null,
    modalities: [],
    seriesCount: 0,
    instanceCount: 0,
    sizeBytes: 0,
    photoCount: 0,
    status: 'receiving',
    statusLabel: '上传中',
    statusMessage: null,
    createdAt: '2030-06-01T08:00:00.000Z',
    updatedAt: '2030-06-01T08:00:00.000Z',
    ...over,
  }
}

function state(over: Partial<UploadState> = {}): UploadState {
  return {
    uploadId: 'u1',
    fileName: '头颅MR.zip',
    totalBytes: 10 * MB,
    receivedBytes: 0,
    chunkSize: 4 * MB,
    status: 'receiving',
    statusLabel: '上传中',
    message: null,
    examIds: [],
    storedCount: 0,
    duplicateCount: 0,
    skippedCount: 0,
    createdAt: '2030-06-01T08:00:00.000Z',
    updatedAt: '2030-06-01T08:00:00.000Z',
    ...over,
  }
}

const picked: PickedFile = {
  name: '头颅MR.zip',
  size: 10 * MB,
  slice: async (start, end) => ({ filePath: `slice:${start}-${end}`, release: () => undefined }),
}

/** uploadDicomChunk answers only when the test lets it (to look at 上传中 in between). */
function gatedChunks() {
  const gates: (() => void)[] = []
  let received = 0
  jest.mocked(uploadDicomChunk).mockImplementation(
    (_id, offset) =>
      new Promise((resolve) => {
        gates.push(() => {
          received = Math.min(10 * MB, offset + 4 * MB)
          resolve(state({ receivedBytes: received }))
        })
      }),
  )
  return {
    async release() {
      await waitFor(() => expect(gates.length).toBeGreaterThan(0))
      await act(async () => {
        gates.shift()!()
        await new Promise((resolve) => setTimeout(resolve, 0))
      })
    },
  }
}

/** 上传DICOM, then one of the sheet's choices. */
async function chooseSource(option: string) {
  fireEvent.click(await screen.findByText('上传DICOM'))
  fireEvent.click(await screen.findByText(option))
}

async function openSignedIn() {
  useAppStore.getState().setProfile(profile())
  await renderPage('pages/personalReport/index-ys')
}

describe('/pages/personalReport/index-ys', () => {
  beforeEach(() => {
    resetStores()
    jest.clearAllMocks()
    jest.mocked(getStorageQuota).mockResolvedValue({ usedBytes: 512 * MB, quotaBytes: 2000 * MB })
    jest.mocked(listYsReports).mockResolvedValue({ items: [], total: 0, page: 1, pageSize: 10 })
    jest.mocked(pickZipFile).mockResolvedValue(picked)
    jest.mocked(startDicomUpload).mockResolvedValue(state())
    jest
      .mocked(finishDicomUpload)
      .mockResolvedValue(
        state({ receivedBytes: 10 * MB, status: 'processing', statusLabel: '解析中' }),
      )
    jest.mocked(cancelDicomUpload).mockResolvedValue({ ok: true })
  })

  it('lists uploads in every state, with the reason of a failed one and the quota', async () => {
    jest.mocked(listYsReports).mockResolvedValue({
      items: [
        item({ uploadId: 'u2', title: '胸部CT.zip', status: 'processing', statusLabel: '解析中' }),
        item({
          uploadId: 'u3',
          title: '照片.zip',
          status: 'failed',
          statusLabel: '失败',
          statusMessage: '压缩包中没有 DICOM 文件',
        }),
        item({
          examId: 'e1',
          uploadId: 'u1',
          title: '头颅MR',
          status: 'ready',
          statusLabel: '可查看',
          modalities: ['MR'],
          seriesCount: 1,
          instanceCount: 20,
          sizeBytes: 5 * MB,
          statusMessage: '压缩包中有 1 个文件不是 DICOM，已跳过',
        }),
      ],
      total: 3,
      page: 1,
      pageSize: 10,
    })
    await openSignedIn()
    expect(await screen.findByText('头颅MR')).toBeTruthy()
    expect(screen.getByText('解析中')).toBeTruthy()
    expect(screen.getByText('失败')).toBeTruthy()
    expect(screen.getByText('压缩包中没有 DICOM 文件')).toBeTruthy()
    expect(screen.getByText('可查看')).toBeTruthy()
    expect(screen.getByText('1 个序列 · 20 张')).toBeTruthy()
    expect(screen.getByText('压缩包中有 1 个文件不是 DICOM，已跳过')).toBeTruthy()
    expect(screen.getByText('已用 512 MB / 共 2.0 GB')).toBeTruthy()
    expect(screen.getByText('删除记录')).toBeTruthy()
  })

  it('shows the empty state before the first upload', async () => {
    await openSignedIn()
    expect(await screen.findByText('还没有上传的影像，点击上方 上传DICOM')).toBeTruthy()
  })

  it('上传DICOM: 上传中 with progress, then 解析中, then 可查看', async () => {
    const chunks = gatedChunks()
    jest
      .mocked(getDicomUpload)
      .mockResolvedValue(
        state({ receivedBytes: 10 * MB, status: 'ready', statusLabel: '可查看', storedCount: 20 }),
      )
    await openSignedIn()
    await chooseSource('上传压缩包')
    expect(await screen.findByText('头颅MR.zip')).toBeTruthy()
    expect(screen.getByText('上传中')).toBeTruthy()
    expect(screen.getByText('0.0 MB / 10.0 MB')).toBeTruthy()
    await chunks.release()
    expect(await screen.findByText('4.0 MB / 10.0 MB')).toBeTruthy()
    expect(screen.getByText('40%')).toBeTruthy()
    await chunks.release()
    await chunks.release()
    expect(await screen.findByText('解析中')).toBeTruthy()
    expect(await screen.findByText('可查看', {}, { timeout: 5000 })).toBeTruthy()
    expect(screen.getByText('已保存 20 个影像文件')).toBeTruthy()
    expect(uploadDicomChunk).toHaveBeenCalledWith('u1', 8 * MB, `slice:${8 * MB}-${10 * MB}`)
    expect(finishDicomUpload).toHaveBeenCalledWith('u1')
    // The list is loaded again to show the new study.
    await waitFor(() => expect(jest.mocked(listYsReports).mock.calls.length).toBeGreaterThan(1))
  })

  it('上传DICOM offers a zip, several files or a folder; several files are sent with their list', async () => {
    const joined: PickedFile = {
      name: '头颅MR',
      size: 10 * MB,
      files: [
        { name: '头颅MR/IM0001', size: 6 * MB },
        { name: '头颅MR/IM0002', size: 4 * MB },
      ],
      slice: picked.slice,
    }
    jest.mocked(pickDicomFiles).mockResolvedValue(joined)
    jest
      .mocked(uploadDicomChunk)
      .mockImplementation(async (_id, offset) =>
        state({ receivedBytes: Math.min(10 * MB, offset + 4 * MB) }),
      )
    jest.mocked(getDicomUpload).mockResolvedValue(
      state({
        receivedBytes: 10 * MB,
        status: 'ready',
        statusLabel: '可查看',
        storedCount: 2,
        message: '有 1 个文件不是 DICOM，已跳过',
      }),
    )
    await openSignedIn()
    fireEvent.click(await screen.findByText('上传DICOM'))
    expect(await screen.findByText('上传压缩包')).toBeTruthy()
    expect(screen.getByText('选择DICOM文件')).toBeTruthy()
    fireEvent.click(screen.getByText('选择文件夹'))
    await waitFor(() => expect(pickDicomFiles).toHaveBeenCalledWith({ folder: true }))
    expect(pickZipFile).not.toHaveBeenCalled()
    expect(
      await screen.findByText('有 1 个文件不是 DICOM，已跳过', {}, { timeout: 5000 }),
    ).toBeTruthy()
    expect(startDicomUpload).toHaveBeenCalledWith('头颅MR', 10 * MB, joined.files)
    expect(screen.getByText('头颅MR')).toBeTruthy()
  })

  it('取消上传 stops sending and deletes the upload on the server', async () => {
    const chunks = gatedChunks()
    await openSignedIn()
    await chooseSource('上传压缩包')
    fireEvent.click(await screen.findByText('取消上传'))
    await chunks.release()
    await waitFor(() => expect(cancelDicomUpload).toHaveBeenCalledWith('u1'))
    expect(uploadDicomChunk).toHaveBeenCalledTimes(1)
    expect(finishDicomUpload).not.toHaveBeenCalled()
    await waitFor(() => expect(screen.queryByText('取消上传')).toBeNull())
  })

  it('a zip the server refuses shows 失败 with its reason', async () => {
    jest
      .mocked(uploadDicomChunk)
      .mockImplementation(async (_id, offset) =>
        state({ receivedBytes: Math.min(10 * MB, offset + 4 * MB) }),
      )
    jest.mocked(getDicomUpload).mockResolvedValue(
      state({
        receivedBytes: 10 * MB,
        status: 'failed',
        statusLabel: '失败',
        message: '压缩包内容异常（压缩比过高），已拒绝',
      }),
    )
    await openSignedIn()
    await chooseSource('上传压缩包')
    expect(
      await screen.findByText('压缩包内容异常（压缩比过高），已拒绝', {}, { timeout: 5000 }),
    ).toBeTruthy()
    expect(screen.getByText('失败')).toBeTruthy()
    fireEvent.click(screen.getByText('知道了'))
    await waitFor(() => expect(screen.queryByText('失败')).toBeNull())
  })

  it('signed out, asks to log in', async () => {
    await renderPage('pages/personalReport/index-ys')
    expect(await screen.findByText('登录后才能上传和查看影像')).toBeTruthy()
    expect(listYsReports).not.toHaveBeenCalled()
  })
})
