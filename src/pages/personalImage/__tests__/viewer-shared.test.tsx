import { screen, waitFor } from '@testing-library/react'
import { REASONS } from '@contract/reasons'
import { HttpError } from '@/services/http'
import { downloadAuthorisedImage, getExamDetail } from '@/services/records'
import { shareBearer } from '@/services/share-bearer'
import { getSharedExam, getSharedGrant, type ReceivedGrant } from '@/services/shares'
import { fetchFrame, fetchSeriesMetadata } from '@/services/viewer'
import { resetStores } from '@/stores/reset-stores'
import { examDetail, series } from '../../../features/records/__tests__/fixtures'
import { renderPage } from '../../../../jest/taro-render'

/*
 * The viewer opened through a grant (issue 9): no sign-in asked, the exam from getSharedExam, the
 * link's token held for the frames, the watermark over the image, 授权已失效 when it has ended.
 */

jest.mock('@/services/records', () => ({
  ...jest.requireActual<typeof import('@/services/records')>('@/services/records'),
  getExamDetail: jest.fn(),
  downloadAuthorisedImage: jest.fn(),
}))
jest.mock('@/services/shares', () => ({
  ...jest.requireActual<typeof import('@/services/shares')>('@/services/shares'),
  getSharedExam: jest.fn(),
  getSharedGrant: jest.fn(),
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

const GRANT: ReceivedGrant = {
  id: 'g1',
  status: 'active',
  statusLabel: '有效',
  sharerMasked: '张**',
  records: [],
  expiresAt: '2099-01-01T00:00:00.000Z',
  createdAt: '2026-11-23T00:00:00.000Z',
  watermark: '李*',
}

function instance(n: number) {
  const v = (vr: string, ...values: unknown[]) => ({ vr, Value: values })
  return {
    '00080018': v('UI', `1.2.9.${n}`),
    '0020000D': v('UI', '1.2.3'),
    '0020000E': v('UI', '1.2.3.4.1'),
    '00080060': v('CS', 'CT'),
    '00200013': v('IS', n),
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

beforeEach(() => {
  resetStores() // signed out: a link visitor has no account
  sessionStorage.setItem(
    'yxs-share:g1',
    JSON.stringify({ accessToken: 'yxs_viewer', expiresAt: '2099-01-01T00:00:00.000Z' }),
  )
  jest.mocked(getSharedGrant).mockResolvedValue(GRANT)
  jest.mocked(downloadAuthorisedImage).mockResolvedValue({ src: 'blob:p', release: jest.fn() })
  jest.mocked(fetchSeriesMetadata).mockResolvedValue([instance(1), instance(2)])
  jest.mocked(fetchFrame).mockReturnValue(new Promise(() => undefined))
})
afterEach(() => {
  sessionStorage.clear()
  jest.clearAllMocks()
})

describe('影像查看 through a grant', () => {
  it('opens without sign-in, the exam from the grant, the frames with its token, watermarked', async () => {
    jest
      .mocked(getSharedExam)
      .mockResolvedValue(
        examDetail({ id: 'x1', studyUid: '1.2.3', series: [series(1, { instanceCount: 2 })] }),
      )
    const page = await renderPage('pages/personalImage/viewer', { examId: 'x1', grantId: 'g1' })
    await waitFor(() => expect(page.element.textContent).toContain('图像 1/2'))
    expect(page.element.textContent).not.toContain('登录后才能查看影像')
    expect(getSharedExam).toHaveBeenCalledWith('g1', 'x1', { loading: false })
    expect(getExamDetail).not.toHaveBeenCalled()
    expect(shareBearer()).toBe('yxs_viewer')
    // Bookmarks are the owner's (and would ask a link visitor to sign in): not offered.
    expect(screen.queryByText('书签')).toBeNull()
    await waitFor(() => expect(screen.getAllByText(/^李\* \d{4}-/).length).toBeGreaterThan(4))
  })

  it('pin mode works through a grant too: 附到意见 is offered', async () => {
    jest
      .mocked(getSharedExam)
      .mockResolvedValue(
        examDetail({ id: 'x1', studyUid: '1.2.3', series: [series(1, { instanceCount: 2 })] }),
      )
    const page = await renderPage('pages/personalImage/viewer', {
      examId: 'x1',
      grantId: 'g1',
      pin: 'f1',
    })
    await waitFor(() => expect(page.element.textContent).toContain('图像 1/2'))
    expect(screen.getByTestId('viewer-attach').textContent).toBe('附到意见')
  })

  it('an ended grant says 授权已失效, not that there is no image', async () => {
    jest.mocked(getSharedExam).mockRejectedValue(
      new HttpError(
        {
          statusCode: 403,
          data: { code: 403, error: '授权已失效', reason: REASONS.grantEnded },
          header: {},
        },
        'business',
      ),
    )
    const page = await renderPage('pages/personalImage/viewer', { examId: 'x1', grantId: 'g1' })
    await waitFor(() => expect(page.element.textContent).toContain('授权已失效'))
  })

  it('without a grant the viewer still asks to sign in', async () => {
    const page = await renderPage('pages/personalImage/viewer', { examId: 'x1' })
    await waitFor(() => expect(page.element.textContent).toContain('登录后才能查看影像'))
    expect(getSharedExam).not.toHaveBeenCalled()
  })
})
