import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import {
  type ConsultDetail,
  CONSULT_MESSAGES,
  getConsultation,
  listConsultMessages,
  rateConsultation,
} from '@/services/consultations'
import { resetStores } from '@/stores/reset-stores'
import { renderPage } from '../../../../../jest/taro-render'
import { detail, NO_ACTIONS, signIn } from '../../__tests__/fixtures'

jest.mock('@/services/consultations', () => ({
  ...jest.requireActual<typeof import('@/services/consultations')>('@/services/consultations'),
  getConsultation: jest.fn(),
  listConsultMessages: jest.fn(),
  rateConsultation: jest.fn(),
}))

const get = jest.mocked(getConsultation)
const rate = jest.mocked(rateConsultation)

let navigateTo: jest.SpyInstance
beforeEach(() => {
  resetStores()
  jest.clearAllMocks()
  signIn()
  navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'showToast:ok' })
  jest.mocked(listConsultMessages).mockResolvedValue({
    items: [
      {
        id: 'm1',
        seq: 1,
        kind: 'text',
        from: 'patient',
        mine: true,
        clientId: null,
        text: '您好',
        picture: null,
        record: null,
        answer: null,
        signedAt: null,
        createdAt: '2026-11-28T03:00:00.000Z',
        read: true,
      },
      {
        id: 'm2',
        seq: 2,
        kind: 'answer',
        from: 'expert',
        mine: false,
        clientId: null,
        text: '',
        picture: null,
        record: null,
        answer: {
          findings: '右肺上叶 5 mm 实性结节',
          opinion: '良性可能大',
          advice: '12 个月后复查',
        },
        signedAt: '2026-11-28T04:00:00.000Z',
        createdAt: '2026-11-28T04:00:00.000Z',
        read: true,
      },
    ],
    last: 2,
    more: false,
  })
})

const ACTION_TEXTS = ['去支付', '采纳', '评价', '进入对话', '取消咨询', '投诉']

function buttons(): string[] {
  return Array.from(document.querySelectorAll('.consult-detail__button')).map(
    (button) => button.textContent ?? '',
  )
}

async function open(overrides: Partial<ConsultDetail>) {
  get.mockResolvedValue(detail(overrides))
  await renderPage('pages/question/question', { id: 'c1' })
  await screen.findByText('申请内容')
}

describe('咨询详情 (question)', () => {
  it('shows the notice, the shared records, the order split and no button nothing allows', async () => {
    await open({ state: 'waiting-accept', stateLabel: '待接诊', actions: NO_ACTIONS })
    const text = document.body.textContent ?? ''
    expect(text).toContain(CONSULT_MESSAGES.notice)
    expect(text).toContain('专家费 ¥24.00 · 平台服务费 ¥6.00')
    expect(text).toContain('演示支付（无真实扣款）')
    expect(buttons()).toEqual([])
    expect(screen.queryByText('公开到专家主页')).toBeNull()
    // The patient opens their own exam.
    fireEvent.click(screen.getByText('胸部 CT 平扫'))
    await waitFor(() =>
      expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/personalImage/detail?id=x1' }),
    )
  })

  it('shows exactly the buttons detail.actions allows', async () => {
    await open({
      state: 'pending-payment',
      stateLabel: '待支付',
      actions: { ...NO_ACTIONS, pay: true, cancel: true },
    })
    expect(buttons()).toEqual(['去支付', '取消咨询'])

    await open({
      state: 'answered',
      stateLabel: '已回复',
      actions: { ...NO_ACTIONS, send: true, adopt: true },
    })
    expect(buttons()).toEqual(['采纳', '进入对话'])
    fireEvent.click(screen.getByText('进入对话'))
    await waitFor(() =>
      expect(navigateTo).toHaveBeenLastCalledWith({
        url: '/pages/myMessage/detail?consultationId=c1',
      }),
    )

    await open({
      state: 'completed',
      stateLabel: '已完成',
      actions: { ...NO_ACTIONS, rate: true, complain: true, publish: true },
    })
    expect(buttons()).toEqual(['评价', '进入对话', '投诉'])
    // The expert's signed answer, not the chat around it.
    expect(await screen.findByText('右肺上叶 5 mm 实性结节')).toBeTruthy()
    expect(screen.queryByText('您好')).toBeNull()
    expect(screen.getByText('公开到专家主页')).toBeTruthy()
    expect(document.body.textContent).toContain('不显示姓名、图片、检查影像和报告')
    for (const text of ACTION_TEXTS.filter((one) => !buttons().includes(one))) {
      expect(document.querySelector('.consult-detail__bar')!.textContent).not.toContain(text)
    }
  })

  it('评价 once: one request however often 提交 is tapped, then the rating shows and 评价 is gone', async () => {
    await open({
      state: 'completed',
      stateLabel: '已完成',
      actions: { ...NO_ACTIONS, rate: true, complain: true },
    })
    let answer: (value: ConsultDetail) => void = () => undefined
    rate.mockImplementation(() => new Promise((resolve) => (answer = resolve)))
    fireEvent.click(screen.getByText('评价'))
    fireEvent.click(await screen.findByLabelText('4 星'))
    fireEvent.click(screen.getByText('解答详细'))
    fireEvent.click(screen.getByText('提交评价'))
    fireEvent.click(screen.getByText('提交评价'))
    await waitFor(() => expect(rate).toHaveBeenCalledTimes(1))
    expect(rate).toHaveBeenCalledWith({
      consultationId: 'c1',
      stars: 4,
      tags: ['解答详细'],
      text: '',
    })
    answer(
      detail({
        state: 'completed',
        stateLabel: '已完成',
        rating: { stars: 4, tags: ['解答详细'], text: '', at: '2026-11-29T02:00:00.000Z' },
        actions: { ...NO_ACTIONS, complain: true },
      }),
    )
    expect(await screen.findByText('我的评价')).toBeTruthy()
    expect(document.querySelector('.rating-stars__shown')!.textContent).toBe('★★★★☆')
    expect(buttons()).toEqual(['进入对话', '投诉'])
    expect(rate).toHaveBeenCalledTimes(1)
  })
})
