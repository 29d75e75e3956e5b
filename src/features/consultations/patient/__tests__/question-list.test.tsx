import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { listMyConsultations } from '@/services/consultations'
import { resetStores } from '@/stores/reset-stores'
import { renderPage } from '../../../../../jest/taro-render'
import { card, signIn } from '../../__tests__/fixtures'

jest.mock('@/services/consultations', () => ({
  ...jest.requireActual<typeof import('@/services/consultations')>('@/services/consultations'),
  listMyConsultations: jest.fn(),
}))

const list = jest.mocked(listMyConsultations)
const counts = { unpaid: 1, waiting: 0, active: 2, done: 0, closed: 0 }

beforeEach(() => {
  resetStores()
  jest.clearAllMocks()
  signIn()
  jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
  list.mockImplementation(async ({ tab }) => ({
    items:
      tab === 'unpaid'
        ? [
            card(1, {
              state: 'pending-payment',
              stateLabel: '待支付',
              deadline: new Date(Date.now() + 10 * 60_000 + 30_000).toISOString(),
              deadlineLabel: '剩余支付时间',
            }),
          ]
        : tab === 'active'
          ? [
              card(2, { state: 'in-progress', stateLabel: '进行中', unread: 2 }),
              card(3, { state: 'answered', stateLabel: '已回复' }),
            ]
          : [],
    total: tab === 'unpaid' ? 1 : tab === 'active' ? 2 : 0,
    page: 1,
    pageSize: 10,
    counts,
  }))
})

function tabs(): string[] {
  return Array.from(document.querySelectorAll('[role="tab"]')).map((tab) => tab.textContent ?? '')
}

describe('我的咨询 (questionList)', () => {
  it('opens on 待支付 with counts, and a tab shows only its own consultations', async () => {
    await renderPage('pages/questionList/questionList')
    expect(await screen.findByText('咨询 1 的主诉')).toBeTruthy()
    expect(list).toHaveBeenLastCalledWith(expect.objectContaining({ tab: 'unpaid', page: 1 }))
    await waitFor(() =>
      expect(tabs()).toEqual(['待支付 1', '待接诊 0', '进行中 2', '已完成 0', '已退款/已取消 0']),
    )
    expect(document.body.textContent).toContain('剩余支付时间 剩 10 分钟')

    fireEvent.click(screen.getByText('进行中'))
    expect(await screen.findByText('咨询 2 的主诉')).toBeTruthy()
    expect(screen.getByText('咨询 3 的主诉')).toBeTruthy()
    expect(screen.queryByText('咨询 1 的主诉')).toBeNull()
    expect(list).toHaveBeenLastCalledWith(expect.objectContaining({ tab: 'active', page: 1 }))
    expect(document.querySelector('[role="tab"][aria-selected="true"]')!.textContent).toBe(
      '进行中 2',
    )
    // The unread dot on the row with unread messages, only there.
    expect(document.querySelectorAll('.consult-row__dot')).toHaveLength(1)

    fireEvent.click(screen.getByText('已完成'))
    expect(await screen.findByText('暂无已完成的咨询')).toBeTruthy()
  })

  it('a row opens 咨询详情', async () => {
    await renderPage('pages/questionList/questionList')
    fireEvent.click(await screen.findByText('咨询 1 的主诉'))
    await waitFor(() =>
      expect(Taro.navigateTo).toHaveBeenLastCalledWith({ url: '/pages/question/question?id=c1' }),
    )
  })
})

describe('我的咨询 opened with nothing to pay', () => {
  it('starts on the first tab that has consultations', async () => {
    signIn()
    list.mockImplementation(async ({ tab }) => ({
      items: tab === 'active' ? [card(2, { state: 'in-progress', stateLabel: '进行中' })] : [],
      total: tab === 'active' ? 1 : 0,
      page: 1,
      pageSize: 10,
      counts: { unpaid: 0, waiting: 0, active: 1, done: 0, closed: 0 },
    }))
    await renderPage('pages/questionList/questionList')
    expect(await screen.findByText('咨询 2 的主诉')).toBeTruthy()
    expect(document.querySelector('[role="tab"][aria-selected="true"]')!.textContent).toBe(
      '进行中 1',
    )
  })
})
