import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import {
  CONSULT_CONSENT_VERSION,
  CONSULT_MESSAGES,
  confirmDemoPayment,
  createConsultation,
  getConsultQuote,
  payConsultation,
} from '@/services/consultations'
import { resetStores } from '@/stores/reset-stores'
import { renderPage } from '../../../../../jest/taro-render'
import { detail, quote, resetDrafts, seedDraft, signIn } from '../../__tests__/fixtures'
import { draftKey, useConsultDraftStore } from '../draft-store'
import { DEMO_PAY_NOTICE } from '../components/demo-pay-sheet'

jest.mock('@/services/consultations', () => ({
  ...jest.requireActual<typeof import('@/services/consultations')>('@/services/consultations'),
  getConsultQuote: jest.fn(),
  createConsultation: jest.fn(),
  payConsultation: jest.fn(),
  confirmDemoPayment: jest.fn(),
}))

const create = jest.mocked(createConsultation)
const pay = jest.mocked(payConsultation)
const confirm = jest.mocked(confirmDemoPayment)

let redirectTo: jest.SpyInstance
let toast: jest.SpyInstance
beforeEach(() => {
  resetStores()
  resetDrafts()
  jest.clearAllMocks()
  signIn()
  jest.mocked(getConsultQuote).mockResolvedValue(quote('text'))
  redirectTo = jest.spyOn(Taro, 'redirectTo').mockResolvedValue({ errMsg: 'redirectTo:ok' })
  toast = jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'showToast:ok' })
})

const consentText = () =>
  screen.getByText(/^我同意将所选的检查影像、报告和病情资料提供给李明华医生/)

async function openSummary() {
  seedDraft('text')
  await renderPage('pages/consult/consult', { expertId: 'e1', service: 'text' })
  await screen.findByText('提交并支付 ¥30.00')
}

describe('会诊申请信息 (consult): consent and payment', () => {
  it('shows the summary, the price split, what is shared and until when, and the notice', async () => {
    await openSummary()
    const text = document.body.textContent ?? ''
    expect(text).toContain('专家费 ¥24.00 · 平台服务费 ¥6.00')
    expect(text).toContain('胸部 CT 平扫')
    expect(text).toContain('授权在咨询结束 7 天后自动失效')
    expect(text).toContain(CONSULT_MESSAGES.notice)
    expect(consentText().textContent).toContain('授权在咨询结束 7 天后自动失效')
  })

  it('without the separate consent ticked, 提交并支付 sends nothing', async () => {
    await openSummary()
    fireEvent.click(screen.getByText('提交并支付 ¥30.00'))
    expect(await screen.findByText(CONSULT_MESSAGES.consentRequired)).toBeTruthy()
    expect(create).not.toHaveBeenCalled()
    expect(pay).not.toHaveBeenCalled()
    // Ticked, it goes, with the consent's text version.
    create.mockResolvedValue(detail({ id: 'c9', state: 'pending-payment' }))
    pay.mockRejectedValue(new Error('x'))
    fireEvent.click(consentText())
    fireEvent.click(screen.getByText('提交并支付 ¥30.00'))
    await waitFor(() => expect(create).toHaveBeenCalledTimes(1))
    expect(create.mock.calls[0][0]).toMatchObject({
      expertId: 'e1',
      service: 'text',
      priceFen: 3000,
      examIds: ['x1'],
      reportIds: [],
      consent: { accepted: true, version: CONSULT_CONSENT_VERSION },
    })
  })

  it('演示支付: says no money moves, shows the amount, 确认支付 confirms and opens 咨询详情', async () => {
    await openSummary()
    create.mockResolvedValue(detail({ id: 'c9', state: 'pending-payment' }))
    pay.mockResolvedValue({
      kind: 'demo',
      params: null,
      demoToken: 'demo-token-1',
      amountFen: 3000,
      payBy: '2026-11-29T02:15:00.000Z',
    })
    confirm.mockResolvedValue(detail({ id: 'c9', state: 'waiting-accept' }))
    fireEvent.click(consentText())
    fireEvent.click(screen.getByText('提交并支付 ¥30.00'))

    expect(await screen.findByText(DEMO_PAY_NOTICE)).toBeTruthy()
    expect(document.querySelector('.demo-pay__amount')!.textContent).toBe('¥30.00')
    expect(pay).toHaveBeenCalledWith({ consultationId: 'c9', client: 'h5' })
    // Submitted: the draft is gone, so a new application starts empty.
    expect(useConsultDraftStore.getState().drafts[draftKey('u1', 'e1', 'text')]).toBeUndefined()
    expect(confirm).not.toHaveBeenCalled()

    fireEvent.click(screen.getByText('确认支付'))
    await waitFor(() => expect(confirm).toHaveBeenCalledWith('c9', 'demo-token-1'))
    await waitFor(() =>
      expect(redirectTo).toHaveBeenLastCalledWith({ url: '/pages/question/question?id=c9' }),
    )
  })

  it('支付未配置 is the server’s own words, and the order waits in 咨询详情', async () => {
    await openSummary()
    create.mockResolvedValue(detail({ id: 'c9', state: 'pending-payment' }))
    const { HttpError } = jest.requireActual<typeof import('@/services/http')>('@/services/http')
    pay.mockRejectedValue(
      new HttpError(
        {
          statusCode: 503,
          data: { code: 503, message: '支付未配置', data: null, error: '支付未配置' },
          header: {},
        },
        'status',
      ),
    )
    fireEvent.click(consentText())
    fireEvent.click(screen.getByText('提交并支付 ¥30.00'))
    await waitFor(() =>
      expect(toast.mock.calls.map(([options]) => (options as { title: string }).title)).toContain(
        '支付未配置',
      ),
    )
    expect(redirectTo).toHaveBeenLastCalledWith({ url: '/pages/question/question?id=c9' })
  })
})
