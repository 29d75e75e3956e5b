import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { HOSPITAL_REQUEST_MESSAGES } from '@contract/main/hospital-requests'
import { typeInto } from '@/components/form/__tests__/inputs'
import { profile } from '@/services/__tests__/account-fixtures'
import { type DirectoryHospital, pageDirectoryHospitals } from '@/services/hospital-directory'
import { HttpError } from '@/services/http'
import { operatorApi } from '@/services/operator'
import { type OperatorExpertApplication, operatorExpertsApi } from '@/services/operator-experts'
import {
  type OperatorHospitalRequest,
  operatorHospitalRequestsApi,
} from '@/services/operator-hospital-requests'
import { refreshProfile } from '@/services/profile'
import { downloadAuthorisedImage } from '@/services/records'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { renderPage } from '../../../../jest/taro-render'

jest.mock('@/services/operator', () => {
  const actual = jest.requireActual<typeof import('@/services/operator')>('@/services/operator')
  const api = Object.fromEntries(Object.keys(actual.operatorApi).map((key) => [key, jest.fn()]))
  return { ...actual, operatorApi: api }
})
jest.mock('@/services/operator-experts', () => {
  const actual = jest.requireActual<typeof import('@/services/operator-experts')>(
    '@/services/operator-experts',
  )
  const api = Object.fromEntries(
    Object.keys(actual.operatorExpertsApi).map((key) => [key, jest.fn()]),
  )
  return { ...actual, operatorExpertsApi: api }
})
jest.mock('@/services/operator-hospital-requests', () => {
  const actual = jest.requireActual<typeof import('@/services/operator-hospital-requests')>(
    '@/services/operator-hospital-requests',
  )
  const api = Object.fromEntries(
    Object.keys(actual.operatorHospitalRequestsApi).map((key) => [key, jest.fn()]),
  )
  return { ...actual, operatorHospitalRequestsApi: api }
})
jest.mock('@/services/hospital-directory', () => ({
  ...jest.requireActual<typeof import('@/services/hospital-directory')>(
    '@/services/hospital-directory',
  ),
  pageDirectoryHospitals: jest.fn(),
}))
jest.mock('@/services/profile', () => ({
  ...jest.requireActual<typeof import('@/services/profile')>('@/services/profile'),
  refreshProfile: jest.fn(),
}))
jest.mock('@/services/records', () => ({
  ...jest.requireActual<typeof import('@/services/records')>('@/services/records'),
  downloadAuthorisedImage: jest.fn(),
}))

const api = jest.mocked(operatorHospitalRequestsApi)
const REASON = '不予添加的原因（必填，申请人会看到它）'

const REQUEST: OperatorHospitalRequest = {
  id: 'hr1',
  name: '示例县人民医院',
  province: '河北省',
  city: '石家庄市',
  address: '示例县健康路 8 号',
  status: 'pending',
  statusLabel: '待添加',
  hospitalId: null,
  hospitalName: null,
  declineReason: null,
  createdAt: '2026-11-20T02:00:00.000Z',
  decidedAt: null,
  mobileMasked: '136****0001',
  waitingApplications: 2,
}

const LISTED: DirectoryHospital = {
  id: 'h9',
  name: '示例县第一人民医院',
  level: '二级甲等',
  province: '河北省',
  city: '石家庄市',
  address: '示例县健康路 8 号',
  regionName: null,
  demo: false,
}

const page = <T,>(items: T[]) => ({ items, total: items.length, page: 1, pageSize: 20 })

function conflict(message: string): HttpError {
  return new HttpError(
    {
      statusCode: 409,
      data: { code: 409, message, data: null, error: message },
      header: {},
    },
    'business',
  )
}

let confirm: jest.SpyInstance
let toast: jest.SpyInstance

beforeEach(() => {
  resetStores()
  jest.clearAllMocks()
  useSessionStore.getState().setToken({ access_token: 'tok' })
  useAppStore.getState().setProfile({ ...profile(), role: 'operator' })
  jest.mocked(refreshProfile).mockResolvedValue({ ...profile(), role: 'operator' })
  toast = jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' })
  confirm = jest
    .spyOn(Taro, 'showModal')
    .mockResolvedValue({ confirm: true, cancel: false, errMsg: 'ok' })
  jest.mocked(operatorApi.features).mockResolvedValue([])
  jest.mocked(operatorApi.articles).mockResolvedValue(page([]))
  jest.mocked(downloadAuthorisedImage).mockResolvedValue({ src: 'blob:x', release: () => {} })
  api.list.mockResolvedValue(page([REQUEST]))
  jest.mocked(pageDirectoryHospitals).mockResolvedValue({ ...page([LISTED]), pageSize: 10 })
})

async function openPanel() {
  await renderPage('pages/operator/index', { tab: 'hospitalRequests' })
  const row = (await screen.findByText('示例县人民医院')).closest('.operator__row') as HTMLElement
  return row
}

describe('运营后台 → 医院申请', () => {
  it('lists the pending requests: name, place, address, masked phone, waiting count, time', async () => {
    const row = await openPanel()
    expect(api.list).toHaveBeenCalledWith('pending', 1, 20)
    expect(within(row).getByText('河北省 · 石家庄市 · 示例县健康路 8 号')).toBeTruthy()
    expect(
      within(row).getByText('申请人 136****0001 · 待审核申请 2 份 · 2026-11-20 10:00'),
    ).toBeTruthy()
    api.list.mockResolvedValue(page([]))
    fireEvent.click(screen.getByRole('radio', { name: '未添加' }))
    await waitFor(() => expect(api.list).toHaveBeenLastCalledWith('declined', 1, 20))
    expect(await screen.findByText('没有未添加的医院申请')).toBeTruthy()
  })

  it('添加为…: searches the directory by the requested name, then resolves with the one chosen', async () => {
    api.resolve.mockResolvedValue({
      ...REQUEST,
      status: 'added',
      statusLabel: '已添加',
      hospitalId: 'h9',
      hospitalName: LISTED.name,
    })
    const row = await openPanel()
    fireEvent.click(within(row).getByText('添加为…'))
    expect(screen.getByText('若目录中没有，先在「医院」里新增，再回来选择。')).toBeTruthy()
    fireEvent.click(screen.getByText('搜索'))
    await waitFor(() =>
      expect(pageDirectoryHospitals).toHaveBeenCalledWith('示例县人民医院', 1, 10),
    )
    fireEvent.click(await screen.findByRole('radio', { name: /示例县第一人民医院/ }))
    api.list.mockResolvedValue(page([]))
    fireEvent.click(screen.getByText('添加为「示例县第一人民医院」'))
    await waitFor(() => expect(api.resolve).toHaveBeenCalledWith('hr1', 'h9'))
    expect(confirm).toHaveBeenCalledWith(expect.objectContaining({ title: '添加医院' }))
    expect(await screen.findByText('没有待添加的医院申请')).toBeTruthy()
  })

  it('不予添加 needs a reason, by the contract’s rules, then declines', async () => {
    api.decline.mockResolvedValue({ ...REQUEST, status: 'declined', statusLabel: '未添加' })
    const row = await openPanel()
    fireEvent.click(within(row).getByText('不予添加'))
    fireEvent.click(screen.getByText('确认不予添加'))
    expect(await screen.findByText(HOSPITAL_REQUEST_MESSAGES.declineReasonRequired)).toBeTruthy()
    typeInto(REASON, '   ')
    fireEvent.click(screen.getByText('确认不予添加'))
    expect(await screen.findByText(HOSPITAL_REQUEST_MESSAGES.declineReasonRequired)).toBeTruthy()
    expect(api.decline).not.toHaveBeenCalled()
    typeInto(REASON, ' 未查到该医院的执业登记 ')
    fireEvent.click(screen.getByText('确认不予添加'))
    await waitFor(() => expect(api.decline).toHaveBeenCalledWith('hr1', '未查到该医院的执业登记'))
    expect(confirm).toHaveBeenCalledWith(expect.objectContaining({ title: '不予添加' }))
  })

  it('409: another operator settled it first; the server’s words show and the queue reloads', async () => {
    api.decline.mockRejectedValue(conflict(HOSPITAL_REQUEST_MESSAGES.alreadyDecided))
    const row = await openPanel()
    fireEvent.click(within(row).getByText('不予添加'))
    typeInto(REASON, '重复申请')
    api.list.mockResolvedValue(page([]))
    fireEvent.click(screen.getByText('确认不予添加'))
    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith(
        expect.objectContaining({ title: HOSPITAL_REQUEST_MESSAGES.alreadyDecided }),
      ),
    )
    expect(await screen.findByText('没有待添加的医院申请')).toBeTruthy()
  })
})

describe('专家认证审核 with a hospital still requested', () => {
  const WAITING: OperatorExpertApplication = {
    id: 'app1',
    userId: 'u9',
    certifiedName: '李医生',
    mobileMasked: '136****0001',
    status: 'pending',
    statusLabel: '待审核',
    hospitalId: null,
    hospitalName: null,
    hospitalRequest: REQUEST,
    department: '影像科',
    title: 'attending',
    titleLabel: '主治医师',
    practiceCertificateNo: '110101198001011',
    qualificationCertificateNo: '199811110101198001011234567',
    practiceCategory: 'clinical',
    practiceCategoryLabel: '临床',
    practiceScope: '医学影像和放射治疗专业',
    specialities: ['肺结节'],
    introduction: '',
    photos: [],
    rejectReason: null,
    agreementVersion: '1.0',
    submittedAt: '2026-11-20T02:00:00.000Z',
    decidedAt: null,
    updatedAt: '2026-11-20T02:00:00.000Z',
  }

  it('names the request, links to 医院申请, and shows the server’s 409 when 通过 is tried', async () => {
    const experts = jest.mocked(operatorExpertsApi)
    experts.application.mockResolvedValue(WAITING)
    experts.approve.mockRejectedValue(conflict(HOSPITAL_REQUEST_MESSAGES.approveWaits))
    const navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' })
    await renderPage('pages/operator/expertApplication', { id: 'app1' })
    expect(await screen.findByText('医院待添加：示例县人民医院（河北省·石家庄市）')).toBeTruthy()
    expect(screen.getByText('示例县人民医院（待添加）')).toBeTruthy()
    expect(screen.getByText('医院尚未添加，通过认证要等医院申请处理后才能进行。')).toBeTruthy()
    fireEvent.click(screen.getByText('通过认证'))
    expect(await screen.findByRole('alert')).toBeTruthy()
    expect(screen.getAllByText(HOSPITAL_REQUEST_MESSAGES.approveWaits).length).toBeGreaterThan(0)
    fireEvent.click(screen.getByText('去处理医院申请'))
    await waitFor(() =>
      expect(navigateTo).toHaveBeenCalledWith(
        expect.objectContaining({ url: '/pages/operator/index?tab=hospitalRequests' }),
      ),
    )
  })
})
