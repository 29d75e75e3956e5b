import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { profile } from '@/services/__tests__/account-fixtures'
import { deleteDicomInstance, downloadReportPhoto } from '@/services/dicom-upload'
import {
  downloadAuthorisedImage,
  getExamDetail,
  listSeriesInstances,
  type SeriesInstance,
} from '@/services/records'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { renderPage } from '../../../../jest/taro-render'
import { UPLOADED_EXAM as EXAM } from './ys-fixtures'

jest.mock('@/services/dicom-upload', () => ({
  saveDicomReport: jest.fn(),
  deleteDicomReport: jest.fn(),
  deleteDicomInstance: jest.fn(),
  deleteReportPhoto: jest.fn(),
  uploadReportPhoto: jest.fn(),
  downloadReportPhoto: jest.fn(),
}))
jest.mock('@/services/records', () => ({
  getExamDetail: jest.fn(),
  listSeriesInstances: jest.fn(),
  downloadAuthorisedImage: jest.fn(),
}))
jest.mock('@/platform/file-picker', () => ({ pickPhotos: jest.fn(), pickZipFile: jest.fn() }))

const FILES: SeriesInstance[] = [1, 2, 3].map((n) => ({
  id: `i${n}`,
  instanceNumber: n,
  sopInstanceUid: `1.2.3.1.${n}`,
  sizeBytes: 250 * 1024,
  rows: 256,
  columns: 256,
  frameCount: 1,
}))

async function flush() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0))
  })
}

describe('/pages/personalReport/detail-ys: files of an uploaded study', () => {
  beforeEach(() => {
    resetStores()
    jest.clearAllMocks()
    jest.mocked(getExamDetail).mockResolvedValue({
      ...EXAM,
      instanceCount: 3,
      series: [{ ...EXAM.series[0]!, instanceCount: 3 }],
    })
    jest.mocked(listSeriesInstances).mockResolvedValue(FILES)
    jest
      .mocked(downloadAuthorisedImage)
      .mockResolvedValue({ src: 'blob:thumb', release: () => undefined })
    jest
      .mocked(downloadReportPhoto)
      .mockResolvedValue({ src: 'blob:photo', release: () => undefined })
    jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: true, cancel: false, errMsg: 'ok' })
  })

  it("lists a series' files on tap, deletes one after confirming, and the counts refresh", async () => {
    useAppStore.getState().setProfile(profile())
    await renderPage('pages/personalReport/detail-ys', { id: 'e1' })
    expect(await screen.findByText('序列 1 · T2 轴位')).toBeTruthy()
    // Nothing asked for until the person opens the series.
    expect(listSeriesInstances).not.toHaveBeenCalled()
    fireEvent.click(screen.getByText('3 个文件 查看'))
    await waitFor(() => expect(listSeriesInstances).toHaveBeenCalledWith('e1', 's1'))
    expect(await screen.findByText('第 2 张')).toBeTruthy()
    expect(screen.getAllByText('256×256 · 250 KB')).toHaveLength(3)

    // Cancelled: nothing deleted.
    jest
      .mocked(Taro.showModal)
      .mockResolvedValueOnce({ confirm: false, cancel: true, errMsg: 'ok' })
    fireEvent.click(screen.getAllByText('删除')[1]!)
    await flush()
    expect(deleteDicomInstance).not.toHaveBeenCalled()

    // Confirmed: that file goes, and the study is read again (its counts follow the server).
    jest.mocked(deleteDicomInstance).mockResolvedValue({ ok: true })
    jest.mocked(getExamDetail).mockResolvedValue({
      ...EXAM,
      instanceCount: 2,
      series: [{ ...EXAM.series[0]!, instanceCount: 2 }],
    })
    fireEvent.click(screen.getAllByText('删除')[1]!)
    await waitFor(() => expect(deleteDicomInstance).toHaveBeenCalledWith('e1', 'i2'))
    expect(jest.mocked(Taro.showModal).mock.calls.at(-1)![0]).toMatchObject({
      title: '删除文件',
      content: expect.stringContaining('第 2 张'),
    })
    await waitFor(() => expect(screen.queryByText('第 2 张')).toBeNull())
    expect(screen.getByText('第 1 张')).toBeTruthy()
    expect(screen.getByText('第 3 张')).toBeTruthy()
    expect(jest.mocked(getExamDetail).mock.calls.length).toBeGreaterThan(1)
    expect(await screen.findByText('2 个文件 收起')).toBeTruthy()
  })

  it('a series thumbnail opens the viewer on that series', async () => {
    useAppStore.getState().setProfile(profile())
    const navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
    await renderPage('pages/personalReport/detail-ys', { id: 'e1' })
    fireEvent.click(await screen.findByText('T2 轴位'))
    expect(navigateTo).toHaveBeenLastCalledWith({
      url: expect.stringMatching(
        // With the study and the thumbnail shown here, which the viewer paints first.
        /^\/pages\/personalImage\/viewer\?examId=e1&seriesUid=1\.2\.3\.1&t=\d+&studyUid=1\.2\.3&thumb=%2Fdicomweb%2Fstudies%2F1\.2\.3%2Fseries%2F1\.2\.3\.1%2Finstances%2F9%2Fthumbnail$/,
      ),
    })
    navigateTo.mockRestore()
  })

  it('a failed delete keeps the file and says why', async () => {
    useAppStore.getState().setProfile(profile())
    const toast = jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' })
    jest.mocked(deleteDicomInstance).mockRejectedValue(new Error('文件不存在或已删除'))
    await renderPage('pages/personalReport/detail-ys', { id: 'e1' })
    fireEvent.click(await screen.findByText('3 个文件 查看'))
    expect(await screen.findByText('第 1 张')).toBeTruthy()
    fireEvent.click(screen.getAllByText('删除')[0]!)
    await waitFor(() => expect(deleteDicomInstance).toHaveBeenCalledWith('e1', 'i1'))
    await flush()
    expect(screen.getByText('第 1 张')).toBeTruthy()
    expect(toast).toHaveBeenCalled()
  })
})
