import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { pickPhotos } from '@/platform/file-picker'
import { profile } from '@/services/__tests__/account-fixtures'
import {
  deleteDicomReport,
  deleteReportPhoto,
  downloadReportPhoto,
  saveDicomReport,
  uploadReportPhoto,
} from '@/services/dicom-upload'
import { downloadAuthorisedImage, getExamDetail } from '@/services/records'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { renderPage } from '../../../../jest/taro-render'
import { UPLOADED_EXAM as EXAM } from './ys-fixtures'

jest.mock('@/services/dicom-upload', () => ({
  saveDicomReport: jest.fn(),
  deleteDicomReport: jest.fn(),
  deleteReportPhoto: jest.fn(),
  uploadReportPhoto: jest.fn(),
  downloadReportPhoto: jest.fn(),
}))
jest.mock('@/services/records', () => ({
  getExamDetail: jest.fn(),
  downloadAuthorisedImage: jest.fn(),
}))
jest.mock('@/platform/file-picker', () => ({ pickPhotos: jest.fn(), pickZipFile: jest.fn() }))

async function open() {
  useAppStore.getState().setProfile(profile())
  await renderPage('pages/personalReport/detail-ys', { id: 'e1' })
  expect(await screen.findByText('头颅MR')).toBeTruthy()
}

describe('/pages/personalReport/detail-ys', () => {
  beforeEach(() => {
    resetStores()
    jest.clearAllMocks()
    jest.mocked(getExamDetail).mockResolvedValue(EXAM)
    jest
      .mocked(downloadAuthorisedImage)
      .mockResolvedValue({ src: 'blob:thumb', release: () => undefined })
    jest
      .mocked(downloadReportPhoto)
      .mockResolvedValue({ src: 'blob:photo', release: () => undefined })
    jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: true, cancel: false, errMsg: 'ok' })
  })

  it('shows the record, the series and the report photos', async () => {
    await open()
    expect(screen.getByText('示例市第一人民医院')).toBeTruthy()
    expect(screen.getByText('2030-05-20')).toBeTruthy()
    expect(screen.getByText('复查用')).toBeTruthy()
    expect(screen.getByText('1 个序列 · 5.0 MB')).toBeTruthy()
    await waitFor(() => expect(downloadReportPhoto).toHaveBeenCalledWith('f1'))
    expect(screen.getByText('+ 添加照片')).toBeTruthy()
  })

  it('编辑 saves title, hospital, date and notes (an emptied field is cleared)', async () => {
    jest.mocked(saveDicomReport).mockResolvedValue({ ok: true })
    await open()
    fireEvent.click(screen.getByText('编辑'))
    // Taro's H5 inputs are custom elements that report their value in the event's detail.
    const type = (element: Element, value: string) =>
      fireEvent(element, new CustomEvent('input', { bubbles: true, detail: { value } }))
    type(document.querySelector('taro-input-core[placeholder="如：头颅磁共振"]')!, '头颅磁共振复查')
    type(document.querySelector('taro-textarea-core')!, '')
    fireEvent.click(screen.getByText('保存'))
    await waitFor(() =>
      expect(saveDicomReport).toHaveBeenCalledWith({
        examId: 'e1',
        title: '头颅磁共振复查',
        hospitalText: '示例市第一人民医院',
        studyDate: '2030-05-20',
        notes: null,
      }),
    )
    await waitFor(() => expect(jest.mocked(getExamDetail).mock.calls.length).toBeGreaterThan(1))
  })

  it('adds photos one request each, then reloads', async () => {
    jest.mocked(pickPhotos).mockResolvedValue(['tmp://a.jpg', 'tmp://b.jpg'])
    jest.mocked(uploadReportPhoto).mockResolvedValue([])
    await open()
    fireEvent.click(screen.getByText('+ 添加照片'))
    await waitFor(() => expect(uploadReportPhoto).toHaveBeenCalledTimes(2))
    expect(uploadReportPhoto).toHaveBeenCalledWith('e1', 'tmp://a.jpg')
    expect(uploadReportPhoto).toHaveBeenCalledWith('e1', 'tmp://b.jpg')
    await waitFor(() => expect(jest.mocked(getExamDetail).mock.calls.length).toBeGreaterThan(1))
  })

  it('deletes a photo after confirming', async () => {
    jest.mocked(deleteReportPhoto).mockResolvedValue({ ok: true })
    await open()
    fireEvent.click(screen.getByLabelText('删除照片'))
    await waitFor(() => expect(deleteReportPhoto).toHaveBeenCalledWith('f1'))
  })

  it('删除影像 asks first, deletes the study and leaves the page', async () => {
    jest.mocked(deleteDicomReport).mockResolvedValue({ ok: true })
    const switchTab = jest.spyOn(Taro, 'switchTab').mockResolvedValue({ errMsg: 'ok' })
    const navigateBack = jest.spyOn(Taro, 'navigateBack').mockResolvedValue({ errMsg: 'ok' })
    await open()
    jest
      .mocked(Taro.showModal)
      .mockResolvedValueOnce({ confirm: false, cancel: true, errMsg: 'ok' })
    fireEvent.click(screen.getByText('删除影像'))
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0))
    })
    expect(deleteDicomReport).not.toHaveBeenCalled()
    fireEvent.click(screen.getByText('删除影像'))
    await waitFor(() => expect(deleteDicomReport).toHaveBeenCalledWith('e1'))
    await waitFor(() =>
      expect(switchTab.mock.calls.length + navigateBack.mock.calls.length).toBeGreaterThan(0),
    )
  })
})
