import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { profile } from '@/services/__tests__/account-fixtures'
import { type Bookmark, deleteBookmark, listBookmarks } from '@/services/bookmarks'
import { getReportDetail } from '@/services/records'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { reportDetail } from '../../../features/records/__tests__/fixtures'
import { forgetUnlockTicket } from '../../../features/records/unlock-ticket'
import { renderPage } from '../../../../jest/taro-render'

/*
 * 报告详情's key images (查看关键图像, from the hospital's report) and 我的书签 (the person's own
 * marks of the exam): each opens the viewer on exactly that series, image and frame.
 */

jest.mock('@/services/records', () => ({
  ...jest.requireActual<typeof import('@/services/records')>('@/services/records'),
  getReportDetail: jest.fn(),
}))
jest.mock('@/services/bookmarks', () => ({
  ...jest.requireActual<typeof import('@/services/bookmarks')>('@/services/bookmarks'),
  listBookmarks: jest.fn(),
  deleteBookmark: jest.fn(),
}))

const detail = jest.mocked(getReportDetail)
const list = jest.mocked(listBookmarks)
const remove = jest.mocked(deleteBookmark)

const SERIES = '1.2.3.4.100'
const KEY_IMAGES = [
  {
    examId: 'x1',
    seriesUid: SERIES,
    sopInstanceUid: '1.2.3.4.100.7',
    frame: 1,
    comment: '右肺上叶结节，最大层面',
    instanceNumber: 7,
    seriesDescription: '肺窗 5mm',
  },
  {
    examId: 'x1',
    seriesUid: SERIES,
    sopInstanceUid: '1.2.3.4.100.30',
    frame: 3,
    comment: null,
    instanceNumber: null,
    seriesDescription: null,
  },
]

function bookmark(n: number, overrides: Partial<Bookmark> = {}): Bookmark {
  return {
    id: `b${n}`,
    examId: 'x1',
    seriesUid: SERIES,
    sopInstanceUid: `1.2.3.4.100.${n}`,
    frame: 1,
    note: `书签备注 ${n}`,
    createdAt: '2026-11-21T02:00:00.000Z',
    instanceNumber: n,
    seriesDescription: '肺窗 5mm',
    ...overrides,
  }
}

const dots = (uid: string) => uid.replace(/\./g, '\\.')
/** The viewer's address; the report's study UID is handed over so metadata comes with the exam. */
const viewerUrl = (sop: string, frame: number, study: string | null = '1.2.3') =>
  expect.stringMatching(
    new RegExp(
      `^/pages/personalImage/viewer\\?examId=x1&seriesUid=${dots(SERIES)}&sop=${dots(sop)}&frame=${frame}${study ? `&studyUid=${dots(study)}` : ''}&t=\\d+$`,
    ),
  )

let navigateTo: jest.SpyInstance
beforeEach(() => {
  resetStores()
  forgetUnlockTicket()
  useSessionStore.getState().setToken({ access_token: 'tok' })
  useAppStore.getState().setProfile(profile())
  navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
})
afterEach(() => navigateTo.mockRestore())

describe('报告详情: 查看关键图像 and 我的书签', () => {
  it('lists the report’s key images with their words and opens the viewer on that exact slice and frame', async () => {
    detail.mockResolvedValue(reportDetail({ keyImages: KEY_IMAGES }))
    list.mockResolvedValue([])
    const shown = await renderPage('pages/personalReport/detail', { id: 'r1', t: 'key' })
    expect(await screen.findByText('查看关键图像')).toBeTruthy()
    const text = shown.element.textContent ?? ''
    expect(text).toContain('关键图像 1 · 第 7 层 · 肺窗 5mm')
    expect(text).toContain('右肺上叶结节，最大层面')
    expect(text).toContain('关键图像 2 · 第 3 帧')

    fireEvent.click(screen.getByLabelText('打开关键图像 1'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: viewerUrl('1.2.3.4.100.7', 1) })
    fireEvent.click(screen.getByLabelText('打开关键图像 2'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: viewerUrl('1.2.3.4.100.30', 3) })
  })

  it('a report without a study UID opens the viewer without one (the viewer waits for the exam)', async () => {
    detail.mockResolvedValue(reportDetail({ keyImages: KEY_IMAGES, studyUid: null }))
    list.mockResolvedValue([])
    await renderPage('pages/personalReport/detail', { id: 'r1', t: 'nostudy' })
    fireEvent.click(await screen.findByLabelText('打开关键图像 1'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: viewerUrl('1.2.3.4.100.7', 1, null) })
  })

  it('a report without key images (or from an older server) shows no such section', async () => {
    detail.mockResolvedValue(reportDetail())
    list.mockResolvedValue([])
    const shown = await renderPage('pages/personalReport/detail', { id: 'r1', t: 'none' })
    await screen.findByText('双肺未见明显异常。')
    expect(await screen.findByText(/还没有书签/)).toBeTruthy()
    expect(shown.element.textContent).not.toContain('查看关键图像')
    expect(list).toHaveBeenCalledWith('x1')
  })

  it('我的书签: note and slice of each, opens it, deletes one after a confirm', async () => {
    detail.mockResolvedValue(reportDetail())
    list.mockResolvedValue([bookmark(5), bookmark(9, { note: '', frame: 2 })])
    remove.mockResolvedValue(undefined)
    const shown = await renderPage('pages/personalReport/detail', { id: 'r1', t: 'marks' })
    expect(await screen.findByText('书签备注 5')).toBeTruthy()
    const text = shown.element.textContent ?? ''
    expect(text).toContain('第 5 层 · 肺窗 5mm · 2026-11-21 10:00')
    expect(text).toContain('（未写备注）')
    expect(text).toContain('第 9 层 · 肺窗 5mm · 第 2 帧')

    fireEvent.click(screen.getByLabelText('打开书签 书签备注 5'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: viewerUrl('1.2.3.4.100.5', 1) })

    const modal = jest.spyOn(Taro, 'showModal')
    modal.mockResolvedValueOnce({ confirm: false, cancel: true, errMsg: 'showModal:ok' })
    fireEvent.click(screen.getByLabelText('删除书签 书签备注 5'))
    await waitFor(() => expect(modal).toHaveBeenCalledTimes(1))
    expect(modal.mock.calls[0][0]).toEqual(
      expect.objectContaining({ title: '删除书签', confirmText: '删除' }),
    )
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0))
    })
    expect(remove).not.toHaveBeenCalled()
    expect(screen.getByText('书签备注 5')).toBeTruthy()

    modal.mockResolvedValueOnce({ confirm: true, cancel: false, errMsg: 'showModal:ok' })
    fireEvent.click(screen.getByLabelText('删除书签 书签备注 5'))
    await waitFor(() => expect(remove).toHaveBeenCalledWith('b5'))
    await waitFor(() => expect(screen.queryByText('书签备注 5')).toBeNull())
    expect(screen.getByText('（未写备注）')).toBeTruthy()
    modal.mockRestore()
  })

  it('我的书签 loads again when the person comes back from the viewer (a bookmark just added shows)', async () => {
    detail.mockResolvedValue(reportDetail())
    list.mockResolvedValueOnce([])
    list.mockResolvedValueOnce([bookmark(4)])
    await renderPage('pages/personalReport/detail', { id: 'r1', t: 'return' })
    expect(await screen.findByText(/还没有书签/)).toBeTruthy()
    // Loaded once on opening (not again by the page's first show).
    expect(list).toHaveBeenCalledTimes(1)
    // Back from the viewer: Taro shows the page again.
    const pages = Taro.getCurrentPages() as unknown as { onShow?: () => void }[]
    await act(async () => pages[pages.length - 1]!.onShow?.())
    expect(await screen.findByText('书签备注 4')).toBeTruthy()
  })

  it('a failed bookmark load says so and retries, while the report stays readable', async () => {
    detail.mockResolvedValue(reportDetail())
    list.mockRejectedValueOnce(new Error('offline'))
    list.mockResolvedValueOnce([bookmark(3)])
    await renderPage('pages/personalReport/detail', { id: 'r1', t: 'retry' })
    expect(await screen.findByText('双肺未见明显异常。')).toBeTruthy()
    expect(await screen.findByText('书签加载失败')).toBeTruthy()
    fireEvent.click(screen.getByText('重试'))
    expect(await screen.findByText('书签备注 3')).toBeTruthy()
  })
})
