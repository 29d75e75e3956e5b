import { act, fireEvent, waitFor, within } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { REASONS } from '@contract/reasons'
import { HttpError } from '@/services/http'
import { downloadAuthorisedImage } from '@/services/records'
import { shareBearer } from '@/services/share-bearer'
import {
  getShare,
  getSharedExam,
  getSharedGrant,
  getSharedReport,
  openShare,
  type ReceivedGrant,
  type SharePreview,
} from '@/services/shares'
import { resetStores } from '@/stores/reset-stores'
import { examDetail, reportDetail } from '../../../features/records/__tests__/fixtures'
import { renderPage } from '../../../../jest/taro-render'

/*
 * The holder's side of a grant: the link's landing (提取码, errors in Chinese, 授权已失效), the shared
 * records, exam and report with the banner and the watermark, and no 授权 / 分享 anywhere.
 */

jest.mock('@/services/shares', () => ({
  ...jest.requireActual<typeof import('@/services/shares')>('@/services/shares'),
  getShare: jest.fn(),
  openShare: jest.fn(),
  getSharedGrant: jest.fn(),
  getSharedExam: jest.fn(),
  getSharedReport: jest.fn(),
}))
jest.mock('@/services/records', () => ({
  ...jest.requireActual<typeof import('@/services/records')>('@/services/records'),
  downloadAuthorisedImage: jest.fn(),
}))

const preview = jest.mocked(getShare)
const open = jest.mocked(openShare)
const grantOf = jest.mocked(getSharedGrant)
const examOf = jest.mocked(getSharedExam)
const reportOf = jest.mocked(getSharedReport)

function previewOf(overrides: Partial<SharePreview> = {}): SharePreview {
  return {
    sharerMasked: '张**',
    needsPickupCode: true,
    expiresAt: '2099-01-02T03:04:00.000Z',
    status: 'active',
    statusLabel: '有效',
    recordCount: 2,
    ...overrides,
  }
}

function grant(overrides: Partial<ReceivedGrant> = {}): ReceivedGrant {
  return {
    id: 'g1',
    status: 'active',
    statusLabel: '有效',
    sharerMasked: '张**',
    records: [
      {
        kind: 'exam',
        id: 'x1',
        examId: 'x1',
        title: '胸部CT平扫',
        hospitalName: '四川省人民医院',
        studyDate: '2026-11-20',
        modalities: ['CT'],
        private: false,
      },
      {
        kind: 'report',
        id: 'r1',
        examId: 'x1',
        title: '胸部CT平扫',
        hospitalName: '四川省人民医院',
        studyDate: '2026-11-20',
        modalities: ['CT'],
        private: true,
      },
    ],
    expiresAt: '2099-01-02T03:04:00.000Z',
    createdAt: '2026-11-23T00:00:00.000Z',
    watermark: '分享访客',
    ...overrides,
  }
}

function refused(status: number, error: string, reason: string | null = null): HttpError {
  return new HttpError(
    { statusCode: status, data: { code: status, error, reason }, header: {} },
    'business',
  )
}

async function flush() {
  await act(async () => {
    for (let i = 0; i < 4; i += 1) await Promise.resolve()
  })
}

let navigateTo: jest.SpyInstance
let redirectTo: jest.SpyInstance
beforeEach(() => {
  jest.clearAllMocks()
  resetStores()
  jest.mocked(downloadAuthorisedImage).mockResolvedValue({ src: 'blob:x', release: jest.fn() })
  navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
  redirectTo = jest.spyOn(Taro, 'redirectTo').mockResolvedValue({ errMsg: 'redirectTo:ok' })
})
afterEach(() => {
  navigateTo.mockRestore()
  redirectTo.mockRestore()
})

describe('查看分享: the landing of a link', () => {
  it('shows the sharer and expiry, asks the 4-digit code, then opens the records', async () => {
    preview.mockResolvedValue(previewOf())
    open.mockResolvedValue(grant())
    const page = await renderPage('pages/share/share', { token: 'tok123' })
    const view = within(page.element)
    await waitFor(() => expect(view.getByText('张** 向您分享了医疗影像')).toBeTruthy())
    expect(view.getByText(/有效期至 2099-01-0/)).toBeTruthy()
    // The preview alone opens nothing (it is not a view).
    expect(open).not.toHaveBeenCalled()

    fireEvent.click(view.getByText('查看'))
    await flush()
    expect(view.getByText('请输入 4 位提取码')).toBeTruthy()
    expect(open).not.toHaveBeenCalled()

    // NutUI's input element arrives a moment after the page.
    await waitFor(() => expect(page.element.querySelector('input')).toBeTruthy())
    fireEvent.input(page.element.querySelector('input')!, { target: { value: '12a34' } })
    fireEvent.click(view.getByText('查看'))
    await flush()
    expect(open).toHaveBeenCalledWith('tok123', '1234')
    await waitFor(() => expect(redirectTo).toHaveBeenCalled())
    expect(redirectTo.mock.calls[0]![0].url).toBe('/pages/share/share?grantId=g1')
  })

  it('says a wrong code in Chinese and stays; 授权已失效 turns the page', async () => {
    preview.mockResolvedValue(previewOf())
    open.mockRejectedValueOnce(refused(400, '提取码错误，请向分享人确认'))
    const page = await renderPage('pages/share/share', { token: 'tok123' })
    await waitFor(() => expect(page.element.querySelector('input')).toBeTruthy())
    const view = within(page.element)
    fireEvent.input(page.element.querySelector('input')!, { target: { value: '9999' } })
    fireEvent.click(view.getByText('查看'))
    await flush()
    expect(view.getByText('提取码错误，请向分享人确认')).toBeTruthy()

    open.mockRejectedValueOnce(refused(403, '授权已失效', REASONS.grantEnded))
    fireEvent.click(view.getByText('查看'))
    await flush()
    expect(view.getByText('授权已失效')).toBeTruthy()
    expect(view.queryByText('查看')).toBeNull()
  })

  it('a link that has ended says so without a code box', async () => {
    preview.mockResolvedValue(previewOf({ status: 'exhausted', statusLabel: '次数已用完' }))
    const page = await renderPage('pages/share/share', { token: 'tok123' })
    await flush()
    const view = within(page.element)
    expect(view.getByText('授权已失效')).toBeTruthy()
    expect(view.getByText(/此分享次数已用完/)).toBeTruthy()
    expect(page.element.querySelector('input')).toBeNull()
  })

  it('an unknown link: 链接无效或已失效', async () => {
    preview.mockRejectedValue(refused(404, '链接无效或已失效', REASONS.grantLinkInvalid))
    const page = await renderPage('pages/share/share', { token: 'nope' })
    await flush()
    expect(within(page.element).getByText('链接无效或已失效')).toBeTruthy()
    expect(within(page.element).queryByText('重试')).toBeNull()
  })

  it('tells a gone link by the reason, not by the words', async () => {
    // Reworded, same reason: the link is gone, nothing to retry.
    preview.mockRejectedValue(refused(404, '此分享链接不存在', REASONS.grantLinkInvalid))
    const gone = await renderPage('pages/share/share', { token: 'nope-1' })
    await flush()
    expect(within(gone.element).getByText('此分享链接不存在')).toBeTruthy()
    expect(within(gone.element).queryByText('重试')).toBeNull()
    // The same words without the reason: an ordinary failure, which a retry may fix.
    preview.mockRejectedValue(refused(404, '链接无效或已失效'))
    const failed = await renderPage('pages/share/share', { token: 'nope-2' })
    await flush()
    expect(within(failed.element).getByText('链接无效或已失效')).toBeTruthy()
    expect(within(failed.element).getByText('重试')).toBeTruthy()
  })
})

describe('shared records, exam and report', () => {
  it('lists what the grant covers under the banner and opens each', async () => {
    grantOf.mockResolvedValue(grant())
    const page = await renderPage('pages/share/share', { grantId: 'g1' })
    await flush()
    const view = within(page.element)
    expect(view.getByText(/张\*\* 分享 · 有效期至 2099-01-0/)).toBeTruthy()
    expect(view.getByText('隐私')).toBeTruthy()
    fireEvent.click(view.getAllByText('查看 ›')[0]!)
    expect(navigateTo.mock.calls[0]![0].url).toBe('/pages/share/exam?grantId=g1&examId=x1')
    fireEvent.click(view.getAllByText('查看 ›')[1]!)
    expect(navigateTo.mock.calls[1]![0].url).toBe('/pages/share/report?grantId=g1&reportId=r1')
  })

  it('exam: watermark, banner, no 二维码/授权, series open the viewer through the grant', async () => {
    grantOf.mockResolvedValue(grant({ watermark: '李*' }))
    examOf.mockResolvedValue(examDetail({ id: 'x1' }))
    const page = await renderPage('pages/share/exam', { grantId: 'g1', examId: 'x1' })
    await flush()
    const view = within(page.element)
    expect(examOf).toHaveBeenCalledWith('g1', 'x1')
    expect(view.getAllByText(/^李\* \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/).length).toBeGreaterThan(4)
    expect(view.queryByText('二维码')).toBeNull()
    expect(view.queryByText('授权')).toBeNull()
    expect(view.queryByText('分享')).toBeNull()
    const tile = page.element.querySelector('.series-grid__tile')
    expect(tile).toBeTruthy()
    fireEvent.click(tile!)
    expect(navigateTo.mock.calls[0]![0].url).toMatch(
      /^\/pages\/personalImage\/viewer\?examId=x1&grantId=g1&/,
    )
  })

  it('exam: an expert pinning a finding (pin) opens the viewer in pin mode through the grant', async () => {
    grantOf.mockResolvedValue(grant())
    examOf.mockResolvedValue(examDetail({ id: 'x1' }))
    const page = await renderPage('pages/share/exam', { grantId: 'g1', examId: 'x1', pin: 'f1' })
    await flush()
    fireEvent.click(page.element.querySelector('.series-grid__tile')!)
    expect(navigateTo.mock.calls[0]![0].url).toMatch(/[?&]grantId=g1&.*[?&]pin=f1(&|$)/)
  })

  it('exam: the owner’s 未读 and 隐私 checks are not the holder’s; an unshared report is said so', async () => {
    grantOf.mockResolvedValue(grant())
    const sharer = { personId: 'u-owner', relation: 'grant' as const, label: '张* 分享' }
    const brief = examDetail().report!
    examOf.mockResolvedValue(
      examDetail({ id: 'x1', owner: sharer, report: { ...brief, read: false, private: true } }),
    )
    const page = await renderPage('pages/share/exam', { grantId: 'g1', examId: 'x1', t: 'unread' })
    await flush()
    const view = within(page.element)
    await waitFor(() => expect(view.getByText('查看影像所见与诊断意见')).toBeTruthy())
    expect(view.queryByText('未读')).toBeNull()
    expect(view.queryByText('隐私报告，验证身份后查看')).toBeNull()
    // The sharer is named by the banner, not by a 就诊人 row.
    expect(view.queryByText('就诊人')).toBeNull()

    examOf.mockResolvedValue(examDetail({ id: 'x1', owner: sharer, report: null }))
    const bare = await renderPage('pages/share/exam', { grantId: 'g1', examId: 'x1', t: 'bare' })
    await flush()
    await waitFor(() => expect(within(bare.element).getByText('本次分享不包含报告')).toBeTruthy())
  })

  it('exam: an upload’s report photos show read-only, fetched through the grant', async () => {
    grantOf.mockResolvedValue(grant())
    const sharer = { personId: 'u-owner', relation: 'grant' as const, label: '张* 分享' }
    examOf.mockResolvedValue(
      examDetail({
        id: 'x1',
        owner: sharer,
        source: 'upload',
        files: [
          {
            id: 'f1',
            kind: 'report-photo',
            mimeType: 'image/jpeg',
            sizeBytes: 1000,
            width: 800,
            height: 600,
            createdAt: '2026-11-20T00:00:00.000Z',
          },
        ],
      }),
    )
    const page = await renderPage('pages/share/exam', { grantId: 'g1', examId: 'x1', t: 'ph' })
    await flush()
    const view = within(page.element)
    await waitFor(() => expect(view.getByText('报告照片')).toBeTruthy())
    await waitFor(() =>
      expect(jest.mocked(downloadAuthorisedImage)).toHaveBeenCalledWith(
        '/main/dicom-upload/files/f1',
      ),
    )
    expect(view.queryByLabelText('删除照片')).toBeNull()
    expect(view.queryByText('+ 添加照片')).toBeNull()
  })

  it('report: a key image opens the viewer through the grant with the study handed over', async () => {
    grantOf.mockResolvedValue(grant())
    reportOf.mockResolvedValue(
      reportDetail({
        id: 'r1',
        examId: 'x1',
        studyUid: '1.2.3',
        keyImages: [
          {
            examId: 'x1',
            seriesUid: '1.2.3.4.1',
            sopInstanceUid: '1.2.3.4.1.7',
            frame: 1,
            instanceNumber: 7,
            seriesDescription: '肺窗',
            comment: null,
          },
        ],
      }),
    )
    const page = await renderPage('pages/share/report', { grantId: 'g1', reportId: 'r1', t: 'k' })
    await flush()
    fireEvent.click(await within(page.element).findByLabelText('打开关键图像 1'))
    expect(navigateTo.mock.calls[0]![0].url).toMatch(
      /^\/pages\/personalImage\/viewer\?examId=x1&grantId=g1&seriesUid=1\.2\.3\.4\.1&sop=1\.2\.3\.4\.1\.7&frame=1&studyUid=1\.2\.3&t=\d+$/,
    )
  })

  it('the page sends DICOMweb reads with its link token while it shows (none stored: login’s)', async () => {
    sessionStorage.setItem(
      'yxs-share:g1',
      JSON.stringify({ accessToken: 'yxs_live', expiresAt: '2099-01-01T00:00:00.000Z' }),
    )
    grantOf.mockResolvedValue(grant())
    examOf.mockResolvedValue(examDetail({ id: 'x1' }))
    await renderPage('pages/share/exam', { grantId: 'g1', examId: 'x1' })
    await flush()
    expect(shareBearer()).toBe('yxs_live')
    sessionStorage.clear()
  })

  it('授权已失效 from a read is a full page, not an error with 重试', async () => {
    grantOf.mockResolvedValue(grant())
    examOf.mockRejectedValue(refused(403, '授权已失效', REASONS.grantEnded))
    const page = await renderPage('pages/share/exam', { grantId: 'g1', examId: 'x1' })
    await flush()
    const view = within(page.element)
    expect(view.getByText('授权已失效')).toBeTruthy()
    expect(view.queryByText('重试')).toBeNull()
  })

  it('report: the text with the watermark and none of the owner’s actions', async () => {
    grantOf.mockResolvedValue(grant())
    reportOf.mockResolvedValue(reportDetail({ id: 'r1', examId: 'x1' }))
    const page = await renderPage('pages/share/report', { grantId: 'g1', reportId: 'r1' })
    await flush()
    const view = within(page.element)
    expect(reportOf).toHaveBeenCalledWith('g1', 'r1')
    expect(view.getAllByText(/^分享访客 \d{4}-/).length).toBeGreaterThan(4)
    for (const action of ['设为隐私', '取消隐私', '删除', '加入个人档案', '授权']) {
      expect(view.queryByText(action)).toBeNull()
    }
    fireEvent.click(view.getByText('查看本次检查的影像'))
    expect(navigateTo.mock.calls[0]![0].url).toBe('/pages/share/exam?grantId=g1&examId=x1')
  })
})
