import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { REASONS } from '@contract/reasons'
import { profile } from '@/services/__tests__/account-fixtures'
import { HttpError } from '@/services/http'
import { FAMILY_MESSAGES, listFamily } from '@/services/family'
import {
  listMyHospitals,
  listMyImages,
  listPersonalReports,
  type ExamSummary,
} from '@/services/records'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { usePersonStore } from '@/stores/person-store'
import { CHILD, SPOUSE, family } from '@/services/__tests__/family-fixtures'
import { renderPage } from '../../../../jest/taro-render'
import { GONE_TEXT } from '..'

jest.mock('@/services/family', () => ({
  ...jest.requireActual<typeof import('@/services/family')>('@/services/family'),
  listFamily: jest.fn(),
}))
jest.mock('@/services/records', () => ({
  ...jest.requireActual<typeof import('@/services/records')>('@/services/records'),
  listMyImages: jest.fn(),
  listMyHospitals: jest.fn(),
  listPersonalReports: jest.fn(),
  downloadAuthorisedImage: jest.fn(),
}))

const HOSPITAL_A = { id: 'h-a', name: '四川省人民医院' }
const EXAM: ExamSummary = {
  id: 'x1',
  source: 'hospital',
  hospital: HOSPITAL_A,
  hospitalText: null,
  accessionNumber: 'CT20261',
  studyUid: '1.2.3.1',
  studyDate: '2026-11-20',
  studyTime: '09:30:00',
  modalities: ['CT'],
  bodyPart: 'CHEST',
  title: '胸部 CT 平扫 1',
  seriesCount: 2,
  instanceCount: 120,
  status: 'ready',
  statusLabel: '可查看',
  statusMessage: null,
  archived: false,
  report: null,
  createdAt: '2026-11-20T02:00:00.000Z',
}

const images = jest.mocked(listMyImages)
const reports = jest.mocked(listPersonalReports)

function signIn(id = 'u1') {
  useSessionStore.getState().setToken({ access_token: 'tok' })
  useAppStore.getState().setProfile(profile({ id }))
}

let toast: jest.SpyInstance
beforeEach(() => {
  resetStores()
  usePersonStore.setState({ chosen: null })
  usePersonStore.persist.clearStorage()
  jest.clearAllMocks()
  jest.mocked(listFamily).mockResolvedValue(family([CHILD, SPOUSE]))
  jest.mocked(listMyHospitals).mockResolvedValue([
    {
      ...HOSPITAL_A,
      level: '三级甲等',
      province: '四川省',
      city: '成都市',
      address: '',
      examCount: 1,
      reportCount: 0,
      latestStudyDate: '2026-11-20',
    },
  ])
  images.mockResolvedValue([
    {
      hospital: HOSPITAL_A,
      examCount: 1,
      unreadReports: 0,
      latestStudyDate: '2026-11-20',
      latest: [EXAM],
    },
  ])
  reports.mockResolvedValue({ items: [], total: 0, page: 1, pageSize: 10, unread: 0 })
  toast = jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' })
})
afterEach(() => toast.mockRestore())

describe('当前就诊人 on 我的影像 and 我的报告', () => {
  it('switches 我的影像 to a child and back to 本人, and remembers the choice', async () => {
    signIn()
    await renderPage('pages/personalImage/index')
    expect(await screen.findByText('本人 张*')).toBeTruthy()
    expect(images).toHaveBeenLastCalledWith([])

    fireEvent.click(screen.getByText('切换'))
    fireEvent.click(await screen.findByText('子女 张*宝'))
    await waitFor(() => expect(images).toHaveBeenLastCalledWith([], 'p-child'))
    expect(listMyHospitals).toHaveBeenLastCalledWith('p-child')
    expect(usePersonStore.getState().chosen).toEqual({
      userId: 'u1',
      personId: 'p-child',
      label: '子女 张*宝',
    })
    // The bar names whose records these are.
    await waitFor(() =>
      expect(document.querySelector('.person-switcher__name')?.textContent).toBe('子女 张*宝'),
    )

    fireEvent.click(screen.getByText('切换'))
    fireEvent.click((await screen.findAllByText('本人 张*')).at(-1)!)
    await waitFor(() => expect(images).toHaveBeenLastCalledWith([]))
    expect(usePersonStore.getState().chosen).toBeNull()
  })

  it('asks 我的报告 for the chosen member and hides 全部已读 (it marks only the caller’s own)', async () => {
    signIn()
    usePersonStore
      .getState()
      .choose({ userId: 'u1', personId: 'p-spouse', label: '配偶 139****0001' })
    reports.mockResolvedValue({ items: [], total: 0, page: 1, pageSize: 10, unread: 2 })
    await renderPage('pages/personalReport/index')
    await waitFor(() =>
      expect(reports).toHaveBeenLastCalledWith(expect.objectContaining({ personId: 'p-spouse' })),
    )
    expect(await screen.findByText('2 份未读')).toBeTruthy()
    expect(screen.queryByText('全部已读')).toBeNull()
    expect(await screen.findByText('配偶 139****0001')).toBeTruthy()
  })

  it('goes back to 本人 when the chosen member is no longer in the family', async () => {
    signIn()
    usePersonStore.getState().choose({ userId: 'u1', personId: 'p-gone', label: '父母 李*' })
    await renderPage('pages/personalImage/index')
    await waitFor(() => expect(usePersonStore.getState().chosen).toBeNull())
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: GONE_TEXT }))
    await waitFor(() => expect(images).toHaveBeenLastCalledWith([]))
  })

  it('goes back to 本人 when the server says the caller no longer manages the person', async () => {
    signIn()
    usePersonStore.getState().choose({ userId: 'u1', personId: 'p-child', label: '子女 张*宝' })
    images.mockRejectedValueOnce(
      new HttpError(
        {
          statusCode: 403,
          data: { message: FAMILY_MESSAGES.notManaged, reason: REASONS.familyNotManaged },
          header: {},
        },
        'status',
      ),
    )
    await renderPage('pages/personalImage/index')
    await waitFor(() => expect(usePersonStore.getState().chosen).toBeNull())
    await waitFor(() => expect(images).toHaveBeenLastCalledWith([]))
  })

  it('does not carry one account’s choice to another account on the same phone', async () => {
    signIn('u2')
    usePersonStore.getState().choose({ userId: 'u1', personId: 'p-child', label: '子女 张*宝' })
    await renderPage('pages/personalImage/index')
    await waitFor(() => expect(images).toHaveBeenCalled())
    expect(images).toHaveBeenLastCalledWith([])
  })

  it('shows no switcher to someone without family members', async () => {
    signIn()
    jest.mocked(listFamily).mockResolvedValue(family([]))
    await renderPage('pages/personalImage/index')
    await screen.findByText('胸部 CT 平扫 1')
    await waitFor(() => expect(listFamily).toHaveBeenCalled())
    expect(screen.queryByText('当前就诊人')).toBeNull()
  })
})
