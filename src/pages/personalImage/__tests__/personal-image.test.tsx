import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { profile } from '@/services/__tests__/account-fixtures'
import {
  downloadAuthorisedImage,
  getExamDetail,
  listExams,
  listMyHospitals,
  listMyImages,
} from '@/services/records'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import {
  HOSPITAL_A,
  HOSPITAL_B,
  exam,
  examDetail,
  group,
  myHospital,
  series,
} from '../../../features/records/__tests__/fixtures'
import { renderPage } from '../../../../jest/taro-render'

jest.mock('@/services/records', () => ({
  ...jest.requireActual<typeof import('@/services/records')>('@/services/records'),
  listMyImages: jest.fn(),
  listMyHospitals: jest.fn(),
  listExams: jest.fn(),
  getExamDetail: jest.fn(),
  downloadAuthorisedImage: jest.fn(),
}))
// G's sheet draws a canvas and asks for a code; here only whether the page opens it matters.
jest.mock('@/features/claims/components/qr-code-sheet', () => ({
  QrCodeSheet: ({ examId, visible }: { examId: string; visible: boolean }) =>
    visible ? `二维码弹窗 ${examId}` : null,
}))

const images = jest.mocked(listMyImages)
const hospitals = jest.mocked(listMyHospitals)
const exams = jest.mocked(listExams)
const detail = jest.mocked(getExamDetail)
const download = jest.mocked(downloadAuthorisedImage)

function signIn() {
  useSessionStore.getState().setToken({ access_token: 'tok' })
  useAppStore.getState().setProfile(profile())
}

let navigateTo: jest.SpyInstance
beforeEach(() => {
  resetStores()
  hospitals.mockResolvedValue([myHospital(HOSPITAL_A, 3), myHospital(HOSPITAL_B, 1)])
  download.mockResolvedValue({ src: 'blob:thumb', release: jest.fn() })
  navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
})
afterEach(() => navigateTo.mockRestore())

describe('我的影像 (personalImage/index)', () => {
  it('asks a signed-out person to log in and calls nothing', async () => {
    const page = await renderPage('pages/personalImage/index')
    expect(page.element.textContent).toContain('登录后才能查看我的影像')
    expect(images).not.toHaveBeenCalled()
  })

  it('groups exams by hospital with unread marks, and opens an exam or the whole hospital', async () => {
    signIn()
    images.mockResolvedValue([
      group(
        HOSPITAL_A,
        [
          exam(1, { report: { ...exam(1).report!, read: false } }),
          exam(2, { modalities: ['MR', 'SR'], report: null }),
        ],
        5,
      ),
      group(null, [
        exam(3, { source: 'upload', hospital: null, hospitalText: '外院', report: null }),
      ]),
    ])
    const page = await renderPage('pages/personalImage/index')
    expect(await screen.findByText('胸部 CT 平扫 1')).toBeTruthy()
    expect(document.title).toBe('个人影像')
    const text = page.element.textContent ?? ''
    expect(text).toContain('四川省人民医院')
    expect(text).toContain('1 份新报告')
    expect(text).toContain('共 5 次检查')
    expect(text).toContain('我上传的影像')
    expect(text).toContain('磁共振')
    expect(text).toContain('暂无报告')
    expect(text).toContain('未读')
    expect(text).toContain('查看全部 5 次检查')

    fireEvent.click(screen.getByText('胸部 CT 平扫 1'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/personalImage/detail?id=x1' })
    fireEvent.click(screen.getByText(/查看全部 5 次检查/))
    expect(navigateTo).toHaveBeenLastCalledWith({
      url: `/pages/personalImage/list?hospitalId=h-a&name=${encodeURIComponent('四川省人民医院')}`,
    })
  })

  it('选择 narrows the page to the chosen hospitals, and 清除 shows all again', async () => {
    signIn()
    images.mockResolvedValue([group(HOSPITAL_A, [exam(1)])])
    await renderPage('pages/personalImage/index')
    await screen.findByText('胸部 CT 平扫 1')
    expect(images).toHaveBeenLastCalledWith([])

    fireEvent.click(screen.getByText('选择'))
    fireEvent.click(await screen.findByText('华西医院'))
    images.mockResolvedValue([group(HOSPITAL_B, [exam(7, { hospital: HOSPITAL_B })])])
    fireEvent.click(screen.getByText('确定（1）'))
    expect(await screen.findByText('胸部 CT 平扫 7')).toBeTruthy()
    expect(images).toHaveBeenLastCalledWith(['h-b'])
    expect(screen.getByText('已选：华西医院')).toBeTruthy()

    fireEvent.click(screen.getByText('清除'))
    await waitFor(() => expect(images).toHaveBeenLastCalledWith([]))
  })

  it('says ~ 空空如也 ~ when there is nothing, and retries after an error', async () => {
    signIn()
    // Persistent, not Once: the previous test's page (same route, still mounted) loads too when the
    // store signs in, and would take a one-off answer.
    images.mockRejectedValue(new Error('offline'))
    await renderPage('pages/personalImage/index')
    expect(await screen.findByText('加载失败，请检查网络后重试')).toBeTruthy()
    images.mockResolvedValue([])
    fireEvent.click(screen.getByText('重试'))
    expect(await screen.findByText('~ 空空如也 ~')).toBeTruthy()
    expect(screen.getByText(/医院推送的检查会自动出现在这里/)).toBeTruthy()
  })
})

describe('院内查询 (personalImage/list)', () => {
  it('lists one hospital’s exams and filters them by date and type', async () => {
    signIn()
    jest.useFakeTimers({
      now: new Date('2026-11-23T04:00:00.000Z'),
      doNotFake: [
        'nextTick',
        'setImmediate',
        'queueMicrotask',
        'setTimeout',
        'setInterval',
        'clearTimeout',
        'clearInterval',
        'requestAnimationFrame',
        'cancelAnimationFrame',
        'performance',
      ],
    })
    exams.mockResolvedValue({ items: [exam(1), exam(2)], total: 2, page: 1, pageSize: 10 })
    const page = await renderPage('pages/personalImage/list', {
      hospitalId: 'h-a',
      name: '四川省人民医院',
    })
    expect(await screen.findByText('胸部 CT 平扫 2')).toBeTruthy()
    expect(page.element.textContent).toContain('四川省人民医院')
    expect(exams).toHaveBeenLastCalledWith({ page: 1, pageSize: 10, hospitalId: 'h-a' })

    exams.mockResolvedValue({ items: [], total: 0, page: 1, pageSize: 10 })
    fireEvent.click(screen.getByText('近三个月'))
    expect(await screen.findByText('没有符合条件的检查，换个日期或类型试试')).toBeTruthy()
    expect(exams).toHaveBeenLastCalledWith({
      page: 1,
      pageSize: 10,
      hospitalId: 'h-a',
      dateFrom: '2026-08-23',
      dateTo: '2026-11-23',
    })

    exams.mockResolvedValue({
      items: [exam(4, { modalities: ['MR'] })],
      total: 1,
      page: 1,
      pageSize: 10,
    })
    fireEvent.click(screen.getByText('磁共振'))
    expect(await screen.findByText('胸部 CT 平扫 4')).toBeTruthy()
    expect(exams).toHaveBeenLastCalledWith(
      expect.objectContaining({ modality: 'MR', dateFrom: '2026-08-23' }),
    )
    jest.useRealTimers()
  })

  it('pages through a long list and ends with -- END --', async () => {
    signIn()
    // The list loads more when the page's own scroll nears the bottom (useReachBottom, SPEC 80).
    const reachBottom: Array<() => void> = []
    const spy = jest.spyOn(Taro, 'useReachBottom').mockImplementation((handler) => {
      reachBottom.push(handler)
    })
    const all = Array.from({ length: 12 }, (_, i) => exam(i + 1))
    exams.mockImplementation(async ({ page = 1 }) => ({
      items: all.slice((page - 1) * 10, page * 10),
      total: 12,
      page,
      pageSize: 10,
    }))
    await renderPage('pages/personalImage/list', { hospitalId: 'h-a', name: 'p' })
    await screen.findByText('胸部 CT 平扫 10')
    expect(screen.queryByText('胸部 CT 平扫 11')).toBeNull()
    expect(screen.queryByText('-- END --')).toBeNull()
    await act(async () => reachBottom[reachBottom.length - 1]())
    expect(await screen.findByText('胸部 CT 平扫 12')).toBeTruthy()
    expect(exams).toHaveBeenLastCalledWith({ page: 2, pageSize: 10, hospitalId: 'h-a' })
    expect(screen.getByText('-- END --')).toBeTruthy()
    spy.mockRestore()
  })
})

describe('影像详情 (personalImage/detail)', () => {
  it('shows the study, series thumbnails fetched with the token, and its report', async () => {
    signIn()
    download.mockImplementation(async (url) => {
      if (url.includes('1.2.3.4.2')) throw new Error('415')
      return { src: 'blob:thumb-1', release: jest.fn() }
    })
    detail.mockResolvedValue(
      examDetail({
        series: [
          series(1),
          series(2),
          series(3, {
            thumbnailPath: null,
            previewStatus: 'unsupported',
            previewMessage: '暂不支持该图像格式的预览',
          }),
        ],
      }),
    )
    const page = await renderPage('pages/personalImage/detail', { id: 'x1' })
    expect(await screen.findByText('胸部 CT 平扫 1')).toBeTruthy()
    expect(detail).toHaveBeenCalledWith('x1')
    const text = page.element.textContent ?? ''
    expect(text).toContain('四川省人民医院')
    expect(text).toContain('2026-11-20 09:30')
    expect(text).toContain('检查号CT20261')
    expect(text).toContain('张* · 男 · 1980-01-02')
    expect(text).toContain('2 个序列 · 120 张 · 64.0 MB')
    expect(text).toContain('正式报告')
    // The viewer exists: no page says it is coming.
    expect(text).toContain('点击缩略图打开查看器')
    expect(text).not.toContain('即将上线')

    await waitFor(() => expect(page.element.querySelector('img[src="blob:thumb-1"]')).toBeTruthy())
    expect(download).toHaveBeenCalledWith(series(1).thumbnailPath)
    expect(await screen.findByText('缩略图加载失败')).toBeTruthy()
    expect(screen.getByText('暂不支持该图像格式的预览')).toBeTruthy()
    // No thumbnail to fetch: nothing is asked for series 3.
    expect(download).toHaveBeenCalledTimes(2)

    // A series opens the viewer on it, with the tap's time for viewer-first-pixels, the study
    // and the thumbnail shown here (painted by the viewer before anything answers).
    fireEvent.click(screen.getByText('轴位 1'))
    expect(navigateTo).toHaveBeenLastCalledWith({
      url: expect.stringMatching(
        /^\/pages\/personalImage\/viewer\?examId=x1&seriesUid=1\.2\.3\.4\.1&t=\d+&studyUid=1\.2\.3\.\d+&thumb=%2Fdicomweb%2Fstudies%2F1\.2\.3%2Fseries%2F1\.2\.3\.4\.1%2Finstances%2F9%2Fthumbnail$/,
      ),
    })

    fireEvent.click(screen.getByText('二维码'))
    expect(await screen.findByText('二维码弹窗 x1')).toBeTruthy()

    fireEvent.click(screen.getByText('查看报告 ›'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/personalReport/detail?id=r1' })

    // The exam number as a bar code, for the counter's scanner.
    fireEvent.click(screen.getByText('条码 ›'))
    const barCode = navigateTo.mock.calls[navigateTo.mock.calls.length - 1]![0] as { url: string }
    expect(barCode.url).toMatch(/^\/components\/bar-code\/bar-code\?/)
    const query = new URLSearchParams(barCode.url.split('?')[1])
    expect([query.get('value'), query.get('title')]).toEqual([
      examDetail({}).accessionNumber,
      '检查号',
    ])
  })

  it('says why when the exam cannot be opened, with a retry', async () => {
    signIn()
    const { refusal } = jest.requireActual('@/services/__tests__/account-fixtures')
    detail.mockRejectedValue(refusal('检查不存在或您无权查看', 404))
    await renderPage('pages/personalImage/detail', { id: 'someone-else' })
    expect(await screen.findByText('检查不存在或您无权查看')).toBeTruthy()
    detail.mockResolvedValue(examDetail({ report: null, source: 'hospital' }))
    fireEvent.click(screen.getByText('重试'))
    expect(await screen.findByText('医院暂未发布报告，发布后会通知您')).toBeTruthy()
  })
})
