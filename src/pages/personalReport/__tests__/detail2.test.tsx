import { act, fireEvent, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { profile } from '@/services/__tests__/account-fixtures'
import {
  getClaimedReport,
  getScanReportCount,
  getScanReportInfo,
  listScanRooms,
  type ReportDetail,
} from '@/services/claims'
import { resetStores } from '@/stores/reset-stores'
import { useAppStore } from '@/stores/app-store'
import { renderPage } from '../../../../jest/taro-render'

jest.mock('@/services/claims', () => ({
  getScanReportInfo: jest.fn(),
  getScanReportCount: jest.fn(),
  listScanRooms: jest.fn(),
  getClaimedReport: jest.fn(),
  sendClaimCode: jest.fn(),
  confirmClaim: jest.fn(),
}))

const CODE = 'ZXhhbS0xMjM.AAAAAAAAAAAAAAAAAAAAAA'

async function flush() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0))
  })
}

const REPORT: ReportDetail = {
  id: 'r1',
  examId: 'e1',
  owner: { personId: 'u1', relation: 'self', label: '本人' },
  studyUid: '1.2.3',
  hospital: { id: 'h1', name: '示例市第一人民医院' },
  title: '胸部 CT 平扫',
  modalities: ['CT'],
  accessionNumber: 'CT2030000001',
  studyDate: '2030-05-20',
  studyTime: '09:30:00',
  patientNameMasked: '王**',
  status: 'final',
  statusLabel: '正式报告',
  version: 1,
  effectiveAt: null,
  issuedAt: '2030-05-20T03:00:00.000Z',
  updatedAt: '2030-05-20T03:00:00.000Z',
  read: true,
  private: false,
  archived: false,
  locked: false,
  findings: '双肺纹理清晰。',
  conclusion: '未见明显异常。',
  performer: '李医生',
  reviewer: '王医生',
  history: [],
}

describe('/pages/personalReport/detail2', () => {
  beforeEach(() => {
    // Pages stay mounted between tests (one app per file): store changes re-render them.
    act(() => resetStores())
    jest.clearAllMocks()
  })

  it('signed out, asks to log in and comes back with the code', async () => {
    jest.spyOn(Taro, 'getCurrentPages').mockReturnValue([])
    const navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' })
    await renderPage('pages/personalReport/detail2', { code: CODE })
    fireEvent.click(await screen.findByText('去登录'))
    await flush()
    expect(navigateTo).toHaveBeenCalledWith({
      url: `/pages/login/login?redirect=${encodeURIComponent(
        `/pages/personalReport/detail2?code=${encodeURIComponent(CODE)}`,
      )}`,
    })
    expect(getScanReportInfo).not.toHaveBeenCalled()
  })

  it("signed in, shows the report with the records feature's sections, who issued it, its report count and the hospital's rooms", async () => {
    act(() => useAppStore.getState().setProfile(profile()))
    jest.mocked(getScanReportInfo).mockResolvedValue({
      code: CODE,
      exam: {
        hospital: { id: 'h1', name: '示例市第一人民医院' },
        studyDate: '2030-05-20',
        modalities: ['CT'],
        title: '胸部 CT 平扫',
        patientNameMasked: '王**',
        hasReport: true,
        reportStatusLabel: '正式报告',
      },
      mine: true,
      examId: 'e1',
      reportId: 'r1',
      ticket: null,
      mobileMasked: null,
    })
    jest.mocked(getClaimedReport).mockResolvedValue(REPORT)
    jest.mocked(getScanReportCount).mockResolvedValue({ total: 2, final: 1 })
    jest.mocked(listScanRooms).mockResolvedValue([
      { id: 'd1', name: '放射科' },
      { id: 'd2', name: '核医学科' },
    ])
    await renderPage('pages/personalReport/detail2', { code: CODE })
    expect(await screen.findByText('未见明显异常。')).toBeTruthy()
    expect(screen.getByText('双肺纹理清晰。')).toBeTruthy()
    expect(screen.getByText('出具医院')).toBeTruthy()
    expect(getScanReportInfo).toHaveBeenCalledWith(CODE)
    expect(screen.getByText('2 份（1 份已出终稿）')).toBeTruthy()
    expect(screen.getByText('医院科室')).toBeTruthy()
    expect(screen.getByText('核医学科')).toBeTruthy()
  })
})
