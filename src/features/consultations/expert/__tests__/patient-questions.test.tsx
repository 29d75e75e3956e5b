import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { typeInto } from '@/components/form/__tests__/inputs'
import { profile } from '@/services/__tests__/account-fixtures'
import {
  acceptConsultation,
  type ConsultCard,
  declineConsultation,
  listExpertConsultations,
} from '@/services/consultations'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { renderPage } from '../../../../../jest/taro-render'
import { IMAGING_CARD, imagingDetail } from '../../__tests__/fixtures'
import { timeLeftText } from '../countdown'

jest.mock('@/services/consultations', () => ({
  ...jest.requireActual<typeof import('@/services/consultations')>('@/services/consultations'),
  listExpertConsultations: jest.fn(),
  acceptConsultation: jest.fn(),
  declineConsultation: jest.fn(),
}))

const list = jest.mocked(listExpertConsultations)
const WAITING: ConsultCard = {
  ...IMAGING_CARD,
  id: 'c7',
  state: 'waiting-accept',
  stateLabel: '待接诊',
  deadline: new Date(Date.now() + (5 * 60 + 12) * 60_000 + 30_000).toISOString(),
  deadlineLabel: '接诊剩余',
  unread: 2,
}
const answer = (items: ConsultCard[]) => ({
  items,
  total: items.length,
  page: 1,
  pageSize: 10,
  counts: { waiting: 1, active: 4, done: 9 },
})
let confirm: jest.SpyInstance

beforeEach(() => {
  resetStores()
  jest.clearAllMocks()
  useSessionStore.getState().setToken({ access_token: 'tok' })
  useAppStore.getState().setProfile({ ...profile(), role: 'expert' })
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' })
  confirm = jest
    .spyOn(Taro, 'showModal')
    .mockResolvedValue({ confirm: true, cancel: false, errMsg: 'ok' })
  list.mockResolvedValue(answer([WAITING]))
})

const row = async () =>
  (await screen.findByText('张* 男 45岁')).closest('.patient-questions__row') as HTMLElement

describe('患者咨询', () => {
  it('shows the tabs with counts and a row: masked person, service, complaint, price, time left, unread', async () => {
    await renderPage('pages/docQuestList/docQuestList')
    const card = await row()
    expect(list).toHaveBeenCalledWith({ tab: 'waiting', page: 1, pageSize: 10 })
    expect(within(card).getByText('影像会诊')).toBeTruthy()
    expect(within(card).getByText('体检发现肺结节 2 周')).toBeTruthy()
    expect(within(card).getByText('¥200.00')).toBeTruthy()
    expect(within(card).getByText('接诊剩余 5小时12分')).toBeTruthy()
    expect(within(card).getByLabelText('有新消息')).toBeTruthy()
    expect(await screen.findByText('9')).toBeTruthy()

    list.mockResolvedValue(answer([]))
    fireEvent.click(screen.getByText('进行中'))
    await waitFor(() =>
      expect(list).toHaveBeenLastCalledWith({ tab: 'active', page: 1, pageSize: 10 }),
    )
    expect(await screen.findByText('暂无进行中的咨询')).toBeTruthy()
  })

  it('接诊 after confirming, then reloads', async () => {
    jest.mocked(acceptConsultation).mockResolvedValue(imagingDetail({ state: 'in-progress' }))
    await renderPage('pages/docQuestList/docQuestList')
    const card = await row()
    await waitFor(() => expect(list).toHaveBeenCalled())
    list.mockClear()
    fireEvent.click(within(card).getByText('接诊'))
    await waitFor(() => expect(acceptConsultation).toHaveBeenCalledWith('c7'))
    await waitFor(() => expect(list).toHaveBeenCalled())
  })

  it('不接诊 needs a reason and says the patient is refunded at once', async () => {
    jest.mocked(declineConsultation).mockResolvedValue(imagingDetail({ state: 'declined' }))
    await renderPage('pages/docQuestList/docQuestList')
    fireEvent.click(within(await row()).getByText('不接诊'))
    fireEvent.click(screen.getByText('确认不接诊'))
    expect(await screen.findByRole('alert')).toBeTruthy()
    expect(declineConsultation).not.toHaveBeenCalled()

    typeInto(
      '不接诊原因（必填，患者会看到它，如：资料不足以判断、非本人擅长方向）',
      '非本人擅长方向',
    )
    fireEvent.click(screen.getByText('确认不接诊'))
    await waitFor(() => expect(declineConsultation).toHaveBeenCalledWith('c7', '非本人擅长方向'))
    expect(confirm).toHaveBeenCalledWith(
      expect.objectContaining({ content: expect.stringContaining('立即获得全额退款') }),
    )
  })

  it('a row opens its conversation', async () => {
    const navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' })
    await renderPage('pages/docQuestList/docQuestList')
    fireEvent.click(await screen.findByLabelText('打开 张* 的咨询'))
    await waitFor(() =>
      expect(navigateTo).toHaveBeenCalledWith(
        expect.objectContaining({ url: '/pages/myMessage/detail?consultationId=c7' }),
      ),
    )
  })

  it('counts down in words', () => {
    const now = Date.parse('2026-11-20T00:00:00.000Z')
    expect(timeLeftText('2026-11-21T03:30:00.000Z', now)).toBe('1天3小时')
    expect(timeLeftText('2026-11-20T00:08:00.000Z', now)).toBe('8分钟')
    expect(timeLeftText('2026-11-19T23:00:00.000Z', now)).toBe('已超时')
  })
})
