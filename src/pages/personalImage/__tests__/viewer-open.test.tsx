import { fireEvent, waitFor } from '@testing-library/react'
import { profile } from '@/services/__tests__/account-fixtures'
import { downloadAuthorisedImage, getExamDetail, type ExamDetail } from '@/services/records'
import { fetchFrame, fetchSeriesMetadata } from '@/services/viewer'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { holdAuthorisedImage } from '@/components/authorised-image/cache'
import { examDetail, series } from '../../../features/records/__tests__/fixtures'
import { renderPage } from '../../../../jest/taro-render'

jest.mock('@/services/records', () => ({
  ...jest.requireActual<typeof import('@/services/records')>('@/services/records'),
  getExamDetail: jest.fn(),
  downloadAuthorisedImage: jest.fn(),
}))
jest.mock('@/services/viewer', () => ({
  ...jest.requireActual<typeof import('@/services/viewer')>('@/services/viewer'),
  fetchSeriesMetadata: jest.fn(),
  fetchFrame: jest.fn(),
}))
jest.mock('@/services/bookmarks', () => ({
  ...jest.requireActual<typeof import('@/services/bookmarks')>('@/services/bookmarks'),
  listBookmarks: jest.fn().mockResolvedValue([]),
}))

const detail = jest.mocked(getExamDetail)
const download = jest.mocked(downloadAuthorisedImage)
const metadata = jest.mocked(fetchSeriesMetadata)
const frames = jest.mocked(fetchFrame)

const THUMB = '/dicomweb/studies/1.2.3/series/1.2.3.4.1/instances/9/thumbnail'
const RENDERED = '/dicomweb/studies/1.2.3/series/1.2.3.4.1/instances/9/rendered'

function ctInstance(n: number) {
  const v = (vr: string, ...values: unknown[]) => ({ vr, Value: values })
  return {
    '00080018': v('UI', `1.2.9.${n}`),
    '0020000D': v('UI', '1.2.3'),
    '0020000E': v('UI', '1.2.3.4.1'),
    '00080060': v('CS', 'CT'),
    '00200013': v('IS', n),
    '00201041': v('DS', n * 5),
    '00280010': v('US', 2),
    '00280011': v('US', 2),
    '00280002': v('US', 1),
    '00280004': v('CS', 'MONOCHROME2'),
    '00280100': v('US', 16),
    '00280101': v('US', 16),
    '00280102': v('US', 15),
    '00280103': v('US', 1),
    '00281050': v('DS', 40),
    '00281051': v('DS', 400),
  }
}

/** Resolves when told: the exam detail still on its way while the page paints. */
function deferred<T>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}

let exam: ReturnType<typeof deferred<ExamDetail>>

beforeEach(() => {
  resetStores()
  useSessionStore.getState().setToken({ access_token: 'tok' })
  useAppStore.getState().setProfile(profile())
  exam = deferred<ExamDetail>()
  detail.mockReturnValue(exam.promise)
  download.mockImplementation(async (url: string) => ({
    src: url.endsWith('/thumbnail') ? 'blob:thumb' : 'blob:rendered',
    release: jest.fn(),
  }))
  metadata.mockResolvedValue([ctInstance(1), ctInstance(2), ctInstance(3)])
  // Never answers: the previews stay on screen for the assertions.
  frames.mockReturnValue(new Promise(() => undefined))
})

afterEach(() => jest.restoreAllMocks())

const examAnswer = () =>
  examDetail({ id: 'x1', studyUid: '1.2.3', series: [series(1, { instanceCount: 3 })] })

describe('opening the viewer with what the opener has (tap → first pixels)', () => {
  it('paints the thumbnail 影像详情 shows before the exam answers, without downloading it again', async () => {
    // 影像详情 below shows this thumbnail: it holds it, downloaded once.
    const shown = holdAuthorisedImage(THUMB, download)
    await shown.image
    expect(download).toHaveBeenCalledTimes(1)
    const rendered = deferred<{ src: string; release: () => void }>()
    download.mockImplementation(async (url: string) =>
      url === RENDERED ? rendered.promise : { src: 'blob:other', release: jest.fn() },
    )

    const page = await renderPage('pages/personalImage/viewer', {
      examId: 'x1',
      seriesUid: '1.2.3.4.1',
      studyUid: '1.2.3',
      thumb: THUMB,
    })
    // The shared object URL, no request for it (the full rendering is still on its way). Taro's
    // Image is a web component that renders its <img> on its own schedule: waited for, not assumed.
    await waitFor(() => expect(page.element.querySelector('img[src="blob:thumb"]')).toBeTruthy())
    expect(download.mock.calls.filter(([url]) => url === THUMB)).toHaveLength(1)
    // The metadata is already asked for, alongside the exam (still unanswered).
    expect(metadata).toHaveBeenCalledWith('1.2.3', '1.2.3.4.1')
    // The full rendering follows and replaces the thumbnail, still before the exam.
    expect(download).toHaveBeenCalledWith(RENDERED)
    rendered.resolve({ src: 'blob:rendered', release: jest.fn() })
    await waitFor(() => expect(page.element.querySelector('img[src="blob:rendered"]')).toBeTruthy())
    expect(page.element.querySelector('img[src="blob:thumb"]')).toBeNull()

    exam.resolve(examAnswer())
    // Ready, but the page's first commit stays the preview until it has painted.
    await waitFor(() => expect(metadata).toHaveBeenCalled())
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(page.element.textContent).not.toContain('图像 2/3')
    fireEvent.load(page.element.querySelector('img[src="blob:rendered"]')!)
    await waitFor(() => expect(page.element.textContent).toContain('图像 2/3'))
    // The metadata fetched ahead was used: not asked twice.
    expect(metadata).toHaveBeenCalledTimes(1)
    shown.release()
  })

  it('a preview that fails to load does not hold the viewer back', async () => {
    const page = await renderPage('pages/personalImage/viewer', {
      examId: 'x1',
      seriesUid: '1.2.3.4.1',
      studyUid: '1.2.3',
      thumb: THUMB,
    })
    exam.resolve(examAnswer())
    await waitFor(() => expect(page.element.querySelector('img[src="blob:rendered"]')).toBeTruthy())
    expect(page.element.textContent).not.toContain('图像 2/3')
    fireEvent.error(page.element.querySelector('img[src="blob:rendered"]')!)
    await waitFor(() => expect(page.element.textContent).toContain('图像 2/3'))
  })

  it('ignores a thumbnail of another series (a hand-edited link)', async () => {
    const page = await renderPage('pages/personalImage/viewer', {
      examId: 'x1',
      seriesUid: '1.2.3.4.1',
      studyUid: '1.2.3',
      thumb: '/dicomweb/studies/1.2.3/series/9.9.9/instances/9/thumbnail',
    })
    expect(page.element.querySelector('taro-image-core, img')).toBeNull()
    expect(download).not.toHaveBeenCalled()
    exam.resolve(examAnswer())
    await waitFor(() => expect(page.element.textContent).toContain('图像 2/3'))
  })

  it('a cold open (shared link, no handoff) waits for the exam, then its study', async () => {
    const page = await renderPage('pages/personalImage/viewer', { examId: 'x1' })
    expect(page.element.querySelector('taro-image-core, img')).toBeNull()
    expect(metadata).not.toHaveBeenCalled()
    exam.resolve(examAnswer())
    await waitFor(() => expect(page.element.textContent).toContain('图像 2/3'))
    expect(metadata).toHaveBeenCalledWith('1.2.3', '1.2.3.4.1')
    expect(download).toHaveBeenCalledWith(RENDERED)
  })

  it('a handed-over study the exam does not confirm is not used', async () => {
    await renderPage('pages/personalImage/viewer', {
      examId: 'x1',
      seriesUid: '1.2.3.4.1',
      studyUid: '7.7.7',
    })
    expect(metadata).toHaveBeenCalledWith('7.7.7', '1.2.3.4.1')
    exam.resolve(examAnswer())
    await waitFor(() => expect(metadata).toHaveBeenCalledWith('1.2.3', '1.2.3.4.1'))
  })
})
