import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { WITHDRAWAL_STATE_LABELS } from '@/services/wallet'
import { resetStores } from '@/stores/reset-stores'
import { fakeServer, page, signInExpert, withdrawal } from '@/services/__tests__/wallet-fixtures'
import { renderPage } from '../../../../jest/taro-render'

let navigateTo: jest.SpyInstance

beforeEach(() => {
  resetStores()
  signInExpert()
  navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
})

const FAILED_REASON = '收款用户微信零钱未实名，已退回余额'

const LIST = [
  withdrawal(1, {
    state: 'paid',
    stateLabel: WITHDRAWAL_STATE_LABELS.paid,
    paidAt: '2026-11-20T02:01:00.000Z',
  }),
  withdrawal(2, {
    state: 'failed',
    stateLabel: WITHDRAWAL_STATE_LABELS.failed,
    grossFen: 50000,
    taxFen: 5600,
    netFen: 44400,
    reason: FAILED_REASON,
  }),
  withdrawal(3, {
    state: 'reviewing',
    stateLabel: WITHDRAWAL_STATE_LABELS.reviewing,
    canCancel: true,
  }),
]

describe('提现记录 (withdrawList)', () => {
  it('shows each withdrawal’s state label, gross / tax / net, times and the failure reason', async () => {
    const server = fakeServer({
      'GET /main/wallet/withdrawals': () => ({ data: page(LIST) }),
    })
    await renderPage('pages/myWallet/withdrawList')
    expect(await screen.findByText('已到账')).toBeTruthy()
    expect(screen.getByText('失败 — 已退回余额')).toBeTruthy()
    expect(screen.getByText('审核中')).toBeTruthy()
    expect(screen.getByText('¥500.00')).toBeTruthy()
    // Paid: 实际到账. On its way: 预计到账. Failed: nothing arrived, nothing withheld, the gross is back.
    expect(screen.getByText('代扣个税 ¥12.34 · 实际到账 ¥88.16')).toBeTruthy()
    expect(screen.getByText('代扣个税 ¥12.34 · 预计到账 ¥88.16')).toBeTruthy()
    expect(screen.getByText('已退回余额 ¥500.00')).toBeTruthy()
    expect(document.body.textContent).not.toContain('¥444.00')
    expect(screen.getByText(`原因：${FAILED_REASON}`)).toBeTruthy()
    // Only the failed one has a reason; the paid one has its 到账时间.
    expect(document.querySelectorAll('.withdrawal-row__reason')).toHaveLength(1)
    expect(document.body.textContent).toContain(
      '申请时间 2026-11-20 10:00 · 到账时间 2026-11-20 10:01',
    )
    expect(server.to('GET /main/wallet/withdrawals')[0]!.query).toEqual({
      page: '1',
      pageSize: '10',
    })

    fireEvent.click(screen.getByText('失败 — 已退回余额'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/myWallet/withdrawal?id=w2' })
  })

  it('says so when there is none', async () => {
    fakeServer({ 'GET /main/wallet/withdrawals': () => ({ data: page([]) }) })
    await renderPage('pages/myWallet/withdrawList')
    expect(await screen.findByText('暂无提现记录')).toBeTruthy()
  })
})

describe('提现详情 (withdrawal)', () => {
  it('取消提现 when it may be cancelled (after asking); 刷新状态 asks the provider', async () => {
    const showModal = jest
      .spyOn(Taro, 'showModal')
      .mockResolvedValue({ confirm: true, cancel: false, errMsg: 'showModal:ok' })
    const server = fakeServer({
      'GET /main/wallet/withdrawals/:withdrawalId': () => ({ data: LIST[2] }),
      'POST /main/wallet/withdrawals/:withdrawalId/cancel': () => ({
        data: withdrawal(3, {
          state: 'cancelled',
          stateLabel: WITHDRAWAL_STATE_LABELS.cancelled,
          reason: '您取消了提现，金额已退回余额',
        }),
      }),
      'POST /main/wallet/withdrawals/:withdrawalId/sync': () => ({
        data: withdrawal(3, { state: 'cancelled', stateLabel: WITHDRAWAL_STATE_LABELS.cancelled }),
      }),
    })
    await renderPage('pages/myWallet/withdrawal', { id: 'w3' })
    expect(await screen.findByText('审核中')).toBeTruthy()
    expect(screen.getByText('WD20261120003')).toBeTruthy()
    expect(screen.queryByText('确认收款')).toBeNull()
    fireEvent.click(screen.getByText('取消提现'))
    expect(await screen.findByText('已取消')).toBeTruthy()
    expect(showModal).toHaveBeenCalledWith(expect.objectContaining({ title: '取消提现' }))
    expect(server.to('POST /main/wallet/withdrawals/w3/cancel')).toHaveLength(1)
    expect(screen.getByText('原因：您取消了提现，金额已退回余额')).toBeTruthy()
    expect(screen.queryByText('取消提现')).toBeNull()

    fireEvent.click(screen.getByText('刷新状态'))
    await waitFor(() => expect(server.to('POST /main/wallet/withdrawals/w3/sync')).toHaveLength(1))
  })

  it('names the amount by the state: 预计到账 on its way, 实际到账 once paid, 已退回余额 when it failed', async () => {
    let current = withdrawal(7, {
      state: 'reviewing',
      stateLabel: WITHDRAWAL_STATE_LABELS.reviewing,
    })
    fakeServer({
      'GET /main/wallet/withdrawals/:withdrawalId': () => ({ data: current }),
      'POST /main/wallet/withdrawals/:withdrawalId/sync': () => ({ data: current }),
    })
    const labels = () =>
      Array.from(document.querySelectorAll('.taro_page .wallet-card__title, .wallet-row__label'))
        .map((element) => element.textContent)
        .filter((text) => text !== '')
    await renderPage('pages/myWallet/withdrawal', { id: 'w7' })
    expect(await screen.findByText('审核中')).toBeTruthy()
    expect(labels()).toContain('预计到账')
    expect(labels()).not.toContain('实际到账')

    current = withdrawal(7, {
      state: 'failed',
      stateLabel: WITHDRAWAL_STATE_LABELS.failed,
      reason: '演示失败',
    })
    fireEvent.click(screen.getByText('刷新状态'))
    expect(await screen.findByText(WITHDRAWAL_STATE_LABELS.failed)).toBeTruthy()
    // The big figure is the gross, back in the balance; no tax, no net, no 个税怎么算.
    expect(document.querySelector('.taro_page .wallet-card__big')?.textContent).toBe('¥100.50')
    expect(labels()).toEqual(expect.arrayContaining(['已退回余额', '提现金额']))
    expect(labels()).not.toContain('实际到账')
    expect(labels()).not.toContain('预计到账')
    expect(labels()).not.toContain('代扣个税')
    expect(screen.queryByText(/个税怎么算/)).toBeNull()

    current = withdrawal(7, {
      state: 'paid',
      stateLabel: WITHDRAWAL_STATE_LABELS.paid,
      paidAt: '2026-11-20T02:03:00.000Z',
    })
    fireEvent.click(screen.getByText('刷新状态'))
    expect(await screen.findByText(WITHDRAWAL_STATE_LABELS.paid)).toBeTruthy()
    expect(document.querySelector('.taro_page .wallet-card__big')?.textContent).toBe('¥88.16')
    expect(labels()).toEqual(expect.arrayContaining(['实际到账', '代扣个税']))
  })

  it('确认收款 in the mini-program: WeChat’s receipt page, then the provider is asked', async () => {
    const api = Taro as unknown as Record<string, unknown>
    const saved = process.env.TARO_ENV
    const confirming = withdrawal(5, {
      state: 'confirming',
      stateLabel: WITHDRAWAL_STATE_LABELS.confirming,
      canConfirm: true,
    })
    const server = fakeServer({
      'GET /main/wallet/withdrawals/:withdrawalId': () => ({ data: confirming }),
      'POST /main/wallet/withdrawals/:withdrawalId/confirm': () => ({
        data: {
          kind: 'wechat',
          mchId: '1900000001',
          appId: 'wx0000000000000001',
          packageInfo: 'ABBQO+oYAAAB',
          withdrawal: confirming,
        },
      }),
      'POST /main/wallet/withdrawals/:withdrawalId/sync': () => ({
        data: withdrawal(5, {
          state: 'paid',
          stateLabel: WITHDRAWAL_STATE_LABELS.paid,
          paidAt: '2026-11-20T02:03:00.000Z',
        }),
      }),
    })
    const request = jest.fn((options: { success: () => void }) => options.success())
    try {
      await renderPage('pages/myWallet/withdrawal', { id: 'w5' })
      expect(await screen.findByText('待确认收款')).toBeTruthy()
      // The page is the same; only the platform adapter reads which app it runs in.
      process.env.TARO_ENV = 'weapp'
      api.getAppBaseInfo = () => ({ SDKVersion: '3.2.0' })
      api.requestMerchantTransfer = request
      fireEvent.click(screen.getByText('确认收款'))
      expect(await screen.findByText('当前微信版本过低，请升级微信后再确认收款')).toBeTruthy()
      expect(request).not.toHaveBeenCalled()

      api.getAppBaseInfo = () => ({ SDKVersion: '3.5.1' })
      fireEvent.click(screen.getByText('确认收款'))
      expect(await screen.findByText('已到账')).toBeTruthy()
      expect(request.mock.calls[0]![0]).toMatchObject({
        mchId: '1900000001',
        appId: 'wx0000000000000001',
        package: 'ABBQO+oYAAAB',
      })
      expect(server.to('POST /main/wallet/withdrawals/w5/confirm')).toHaveLength(2)
      expect(server.to('POST /main/wallet/withdrawals/w5/sync')).toHaveLength(1)
    } finally {
      process.env.TARO_ENV = saved
      delete api.getAppBaseInfo
      delete api.requestMerchantTransfer
    }
  })

  it('打款中 moves on by itself: the provider is asked again while it shows', async () => {
    const server = fakeServer({
      'GET /main/wallet/withdrawals/:withdrawalId': () => ({ data: withdrawal(6) }),
      'POST /main/wallet/withdrawals/:withdrawalId/sync': () => ({
        data: withdrawal(6, {
          state: 'confirming',
          stateLabel: WITHDRAWAL_STATE_LABELS.confirming,
          canConfirm: true,
        }),
      }),
    })
    await renderPage('pages/myWallet/withdrawal', { id: 'w6' })
    expect(await screen.findByText('打款中')).toBeTruthy()
    expect(await screen.findByText('待确认收款', undefined, { timeout: 6000 })).toBeTruthy()
    expect(server.to('POST /main/wallet/withdrawals/w6/sync')).toHaveLength(1)
    expect(screen.getByText('确认收款')).toBeTruthy()
  })

  it('确认收款 when WeChat waits for the expert', async () => {
    fakeServer({
      'GET /main/wallet/withdrawals/:withdrawalId': () => ({
        data: withdrawal(4, {
          state: 'confirming',
          stateLabel: WITHDRAWAL_STATE_LABELS.confirming,
          canConfirm: true,
          canCancel: true,
        }),
      }),
    })
    await renderPage('pages/myWallet/withdrawal', { id: 'w4' })
    expect(await screen.findByText('待确认收款')).toBeTruthy()
    expect(screen.getByText('确认收款')).toBeTruthy()
    expect(screen.getByText('取消提现')).toBeTruthy()
    expect(screen.getByText('请确认收款，确认后资金转入您的微信零钱')).toBeTruthy()
  })
})
