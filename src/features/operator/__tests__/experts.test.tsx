import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { EXPERT_PROFILE_MESSAGES } from '@contract/main/expert-profiles'
import { EXPERT_MESSAGES } from '@contract/main/experts'
import { typeInto } from '@/components/form/__tests__/inputs'
import { profile } from '@/services/__tests__/account-fixtures'
import { HttpError } from '@/services/http'
import { operatorApi } from '@/services/operator'
import {
  type OperatorExpert,
  type OperatorExpertApplication,
  operatorExpertsApi,
} from '@/services/operator-experts'
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

jest.mock('@/services/profile', () => ({
  ...jest.requireActual<typeof import('@/services/profile')>('@/services/profile'),
  refreshProfile: jest.fn(),
}))

jest.mock('@/services/records', () => ({
  ...jest.requireActual<typeof import('@/services/records')>('@/services/records'),
  downloadAuthorisedImage: jest.fn(),
}))

const api = jest.mocked(operatorExpertsApi)
const REASON_PLACEHOLDER = '驳回原因（必填，申请人会在我的消息里看到，请写明需要修改什么）'

const PENDING: OperatorExpertApplication = {
  id: 'app1',
  userId: 'u9',
  certifiedName: '李医生',
  mobileMasked: '136****0001',
  status: 'pending',
  statusLabel: '待审核',
  hospitalId: 'h1',
  hospitalName: '示例市第一人民医院',
  hospitalRequest: null,
  department: '放射科',
  title: 'attending',
  titleLabel: '主治医师',
  practiceCertificateNo: '110101198001011',
  qualificationCertificateNo: '199811110101198001011234567',
  practiceCategory: 'clinical',
  practiceCategoryLabel: '临床',
  practiceScope: '医学影像和放射治疗专业',
  specialities: ['肺结节', '胸部影像'],
  introduction: '从事影像诊断十年。',
  photos: [
    {
      id: 'p1',
      kind: 'practice-info',
      kindLabel: '执业证书信息页',
      path: '/main/experts/photos/p1',
      width: 96,
      height: 64,
    },
    {
      id: 'p2',
      kind: 'practice-registration',
      kindLabel: '执业证书注册页',
      path: '/main/experts/photos/p2',
      width: 96,
      height: 64,
    },
  ],
  rejectReason: null,
  agreementVersion: '1.0',
  submittedAt: '2026-11-20T02:00:00.000Z',
  decidedAt: null,
  updatedAt: '2026-11-20T02:00:00.000Z',
}

const EXPERT: OperatorExpert = {
  id: 'e1',
  name: '王主任',
  photoPath: null,
  title: 'chief',
  titleLabel: '主任医师',
  hospital: {
    id: 'h1',
    name: '示例市第一人民医院',
    level: '三级甲等',
    province: '北京市',
    city: '北京市',
    address: '示例路 1 号',
  },
  department: '放射科',
  specialities: ['肺结节'],
  accepting: true,
  services: [],
  demo: false,
  certifiedAt: '2026-11-01T02:00:00.000Z',
  suspension: null,
}

const SUSPENDED: OperatorExpert = {
  ...EXPERT,
  id: 'e2',
  name: '赵医生',
  suspension: { reason: '执业证书已过期', at: '2026-11-21T06:30:00.000Z' },
}

const page = <T,>(items: T[]) => ({ items, total: items.length, page: 1, pageSize: 20 })

let confirm: jest.SpyInstance

beforeEach(() => {
  resetStores()
  jest.clearAllMocks()
  useSessionStore.getState().setToken({ access_token: 'tok' })
  useAppStore.getState().setProfile({ ...profile(), role: 'operator' })
  jest.mocked(refreshProfile).mockResolvedValue({ ...profile(), role: 'operator' })
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' })
  confirm = jest
    .spyOn(Taro, 'showModal')
    .mockResolvedValue({ confirm: true, cancel: false, errMsg: 'ok' })
  jest.mocked(operatorApi.features).mockResolvedValue([])
  jest.mocked(operatorApi.articles).mockResolvedValue(page([]))
  jest.mocked(downloadAuthorisedImage).mockImplementation(async (url: string) => ({
    src: `blob:${url}`,
    release: () => undefined,
  }))
  api.applications.mockResolvedValue(page([PENDING]))
  api.application.mockResolvedValue(PENDING)
  api.experts.mockResolvedValue(page([EXPERT, SUSPENDED]))
})

describe('运营后台 → 专家认证', () => {
  it('lists the pending queue: name from the ID card, hospital, department, title, submitted', async () => {
    await renderPage('pages/operator/index')
    fireEvent.click(await screen.findByText('专家认证'))
    const row = (await screen.findByText('李医生')).closest('.operator__row') as HTMLElement
    expect(within(row).getByText('示例市第一人民医院 · 放射科 · 主治医师')).toBeTruthy()
    expect(within(row).getByText('提交于 2026-11-20 10:00')).toBeTruthy()
    expect(within(row).getByText('待审核')).toBeTruthy()
    expect(api.applications).toHaveBeenCalledWith('pending', 1, 20)

    api.applications.mockResolvedValue(page([]))
    fireEvent.click(screen.getByText('已认证'))
    await waitFor(() => expect(api.applications).toHaveBeenLastCalledWith('approved', 1, 20))
    expect(await screen.findByText('还没有已认证的申请')).toBeTruthy()
  })

  it('opens an application from the queue', async () => {
    const navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' })
    await renderPage('pages/operator/index')
    fireEvent.click(await screen.findByText('专家认证'))
    fireEvent.click(await screen.findByLabelText('查看 李医生 的认证申请'))
    await waitFor(() =>
      expect(navigateTo).toHaveBeenCalledWith(
        expect.objectContaining({ url: '/pages/operator/expertApplication?id=app1' }),
      ),
    )
  })

  it('shows the fields beside the photos, the numbers in full with 复制, and the registry step', async () => {
    const preview = jest.spyOn(Taro, 'previewImage').mockResolvedValue({ errMsg: 'ok' })
    const clipboard = jest
      .spyOn(Taro, 'setClipboardData')
      .mockResolvedValue({ errMsg: 'ok', data: '' })
    await renderPage('pages/operator/expertApplication', { id: 'app1' })
    expect(await screen.findByText('李医生')).toBeTruthy()
    expect(api.application).toHaveBeenCalledWith('app1')
    for (const text of [
      '示例市第一人民医院',
      '放射科',
      '主治医师',
      '临床',
      '医学影像和放射治疗专业',
      '110101198001011',
      '199811110101198001011234567',
      '肺结节、胸部影像',
      '从事影像诊断十年。',
    ]) {
      expect(screen.getByText(text)).toBeTruthy()
    }
    expect(
      screen.getByText(
        '在国家卫生健康委员会「医生执业注册信息查询」（https://zwfw.nhc.gov.cn）按姓名、证书编码核对执业地点、类别、范围',
      ),
    ).toBeTruthy()

    // The photos come with the operator's token, and sit in the same card as the fields.
    const info = await screen.findByLabelText('查看大图：执业证书信息页')
    await screen.findByLabelText('查看大图：执业证书注册页')
    expect(downloadAuthorisedImage).toHaveBeenCalledWith('/main/experts/photos/p1')
    expect(info.closest('.expert-review__split')).toBe(
      screen.getByText('医学影像和放射治疗专业').closest('.expert-review__split'),
    )
    await waitFor(() =>
      expect(
        document.querySelector('.expert-review__image[src="blob:/main/experts/photos/p1"]'),
      ).toBeTruthy(),
    )
    fireEvent.click(info)
    await waitFor(() =>
      expect(preview).toHaveBeenCalledWith({
        current: 'blob:/main/experts/photos/p1',
        urls: ['blob:/main/experts/photos/p1', 'blob:/main/experts/photos/p2'],
      }),
    )

    fireEvent.click(screen.getByLabelText('复制医师资格证书编码'))
    await waitFor(() =>
      expect(clipboard).toHaveBeenCalledWith({ data: '199811110101198001011234567' }),
    )
  })

  it('approves after the confirm dialog', async () => {
    api.approve.mockResolvedValue({
      ...PENDING,
      status: 'approved',
      statusLabel: '已认证',
      decidedAt: '2026-11-21T02:00:00.000Z',
    })
    await renderPage('pages/operator/expertApplication', { id: 'app1' })
    fireEvent.click(await screen.findByText('通过认证'))
    await waitFor(() => expect(api.approve).toHaveBeenCalledWith('app1'))
    expect(confirm).toHaveBeenCalledWith(expect.objectContaining({ title: '通过认证' }))
    expect(await screen.findByText('已通过认证（2026-11-21 10:00）')).toBeTruthy()
    expect(screen.queryByText('通过认证')).toBeNull()
  })

  it('does not approve when the dialog is cancelled', async () => {
    confirm.mockResolvedValue({ confirm: false, cancel: true, errMsg: 'ok' })
    await renderPage('pages/operator/expertApplication', { id: 'app1' })
    fireEvent.click(await screen.findByText('通过认证'))
    await waitFor(() => expect(confirm).toHaveBeenCalled())
    expect(api.approve).not.toHaveBeenCalled()
  })

  it('rejects only with a reason, by the contract’s rules', async () => {
    api.reject.mockResolvedValue({
      ...PENDING,
      status: 'rejected',
      statusLabel: '已驳回',
      rejectReason: '执业证书注册页照片模糊，请重新拍摄',
      decidedAt: '2026-11-21T02:00:00.000Z',
    })
    await renderPage('pages/operator/expertApplication', { id: 'app1' })
    fireEvent.click(await screen.findByText('驳回'))
    expect(await screen.findByText(EXPERT_MESSAGES.rejectReasonRequired)).toBeTruthy()
    typeInto(REASON_PLACEHOLDER, '   ')
    fireEvent.click(screen.getByText('驳回'))
    expect(await screen.findByText(EXPERT_MESSAGES.rejectReasonRequired)).toBeTruthy()
    expect(confirm).not.toHaveBeenCalled()
    expect(api.reject).not.toHaveBeenCalled()

    typeInto(REASON_PLACEHOLDER, '执业证书注册页照片模糊，请重新拍摄')
    fireEvent.click(screen.getByText('驳回'))
    await waitFor(() =>
      expect(api.reject).toHaveBeenCalledWith('app1', '执业证书注册页照片模糊，请重新拍摄'),
    )
    expect(await screen.findByText('驳回原因：执业证书注册页照片模糊，请重新拍摄')).toBeTruthy()
  })

  it('on 409 shows the server’s words and loads the application again', async () => {
    api.approve.mockRejectedValue(
      new HttpError(
        {
          statusCode: 409,
          data: { code: 409, message: 'conflict', error: EXPERT_MESSAGES.alreadyDecided },
          header: {},
        },
        'business',
      ),
    )
    await renderPage('pages/operator/expertApplication', { id: 'app1' })
    await screen.findByText('通过认证')
    api.application.mockResolvedValue({
      ...PENDING,
      status: 'rejected',
      statusLabel: '已驳回',
      rejectReason: '科室与证书不符',
      decidedAt: '2026-11-21T02:00:00.000Z',
    })
    fireEvent.click(screen.getByText('通过认证'))
    expect(await screen.findByText(EXPERT_MESSAGES.alreadyDecided)).toBeTruthy()
    expect(await screen.findByText('驳回原因：科室与证书不符')).toBeTruthy()
    expect(api.application).toHaveBeenCalledTimes(2)
    expect(screen.queryByText('通过认证')).toBeNull()
  })

  it('without an id says so, with no operator call', async () => {
    await renderPage('pages/operator/expertApplication')
    expect(await screen.findByText('没有指定认证申请，请从运营后台的专家认证进入')).toBeTruthy()
    expect(api.application).not.toHaveBeenCalled()
  })

  it('tells a patient it is for operators only, without an operator call', async () => {
    jest.mocked(refreshProfile).mockResolvedValue({ ...profile(), role: 'patient' })
    await renderPage('pages/operator/expertApplication', { id: 'app1' })
    expect(await screen.findByText('仅运营人员可以使用此功能')).toBeTruthy()
    expect(api.application).not.toHaveBeenCalled()
  })
})

describe('运营后台 → 专家管理', () => {
  async function openPanel() {
    await renderPage('pages/operator/index')
    fireEvent.click(await screen.findByText('专家管理'))
    return (await screen.findByText('王主任')).closest('.operator__row') as HTMLElement
  }

  it('lists certified experts with the suspension reason and time; searches and filters', async () => {
    await openPanel()
    expect(api.experts).toHaveBeenCalledWith({}, 1, 20)
    const suspension = screen.getByText(/^暂停原因：执业证书已过期/)
    expect(suspension.textContent).toBe('暂停原因：执业证书已过期（2026-11-21 14:30）')
    // The time is one unbreakable piece: it never splits as 2026-11- / 29 on a phone.
    expect(screen.getByText('（2026-11-21 14:30）').className).toContain(
      'expert-review__suspension-time',
    )
    typeInto('姓名、医院、科室或擅长方向', ' 王 ')
    fireEvent.click(screen.getByText('搜索'))
    await waitFor(() => expect(api.experts).toHaveBeenLastCalledWith({ keyword: '王' }, 1, 20))
    fireEvent.click(screen.getByText('已暂停'))
    await waitFor(() =>
      expect(api.experts).toHaveBeenLastCalledWith({ keyword: '王', suspended: 'yes' }, 1, 20),
    )
  })

  it('suspends only with a reason, after the confirm dialog', async () => {
    api.suspend.mockResolvedValue({ ...EXPERT, suspension: { reason: 'x', at: 'y' } })
    const row = await openPanel()
    fireEvent.click(within(row).getByText('暂停服务'))
    fireEvent.click(within(row).getByText('确认暂停'))
    expect(await within(row).findByText(EXPERT_PROFILE_MESSAGES.suspendReasonRequired)).toBeTruthy()
    expect(confirm).not.toHaveBeenCalled()
    expect(api.suspend).not.toHaveBeenCalled()

    typeInto('暂停原因（必填，专家会看到它）', '多名患者投诉，核查期间暂停')
    fireEvent.click(within(row).getByText('确认暂停'))
    await waitFor(() =>
      expect(api.suspend).toHaveBeenCalledWith('e1', '多名患者投诉，核查期间暂停'),
    )
    expect(confirm).toHaveBeenCalledWith(expect.objectContaining({ title: '暂停服务' }))
    // The list is asked again after the change.
    await waitFor(() => expect(api.experts).toHaveBeenCalledTimes(2))
  })

  it('resumes a suspended expert after the confirm dialog', async () => {
    api.resume.mockResolvedValue({ ...SUSPENDED, suspension: null })
    await openPanel()
    const row = screen.getByText('赵医生').closest('.operator__row') as HTMLElement
    fireEvent.click(within(row).getByText('恢复服务'))
    await waitFor(() => expect(api.resume).toHaveBeenCalledWith('e2'))
  })
})
