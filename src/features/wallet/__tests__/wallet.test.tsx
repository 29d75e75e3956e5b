import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { resetStores } from '@/stores/reset-stores'
import {
  fakeServer,
  overview,
  page,
  signInExpert,
  trade,
  tradeDetail,
  type SentRequest,
} from '@/services/__tests__/wallet-fixtures'
import { renderPage } from '../../../../jest/taro-render'

let navigateTo: jest.SpyInstance

beforeEach(() => {
  resetStores()
  signInExpert()
  navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
})

const TRADES = [
  trade(1),
  trade(2, {
    kind: 'withdrawal',
    kindLabel: '提现',
    title: '提现至微信零钱',
    amountFen: -10000,
    accountLabel: '提现中',
    consultationId: null,
    withdrawalId: 'w2',
  }),
]

function serveWallet(data = overview()) {
  return fakeServer({
    'GET /main/wallet': () => ({ data }),
    'GET /main/wallet/trades': ({ query }: SentRequest) => ({
      data: page(
        TRADES.filter((one) => !query.kind || one.kind === query.kind),
        TRADES.length,
      ),
    }),
  })
}

function tabByText(text: string): HTMLElement {
  const tab = Array.from(document.querySelectorAll<HTMLElement>('[role="tab"]')).find(
    (element) => element.textContent === text,
  )
  if (!tab) throw new Error(`no tab ${text}`)
  return tab
}

describe('我的钱包 (myWallet)', () => {
  it('shows the overview’s figures in 元 with two decimals, and 交易记录 signed', async () => {
    const server = serveWallet()
    await renderPage('pages/myWallet/myWallet')
    expect(await screen.findByText('1234.56')).toBeTruthy()
    const text = document.body.textContent ?? ''
    expect(text).toContain('可提现余额（元）')
    expect(text).toContain('待结算 ¥24.00')
    expect(text).toContain('提现中 ¥100.00')
    expect(screen.getByText('¥48.00').nextSibling?.textContent).toBe('本月收入')
    expect(screen.getByText('¥2500.00').nextSibling?.textContent).toBe('累计收入')
    expect(screen.getByText('¥32.10').nextSibling?.textContent).toBe('本年代扣个税')
    expect(await screen.findByText('+¥24.00')).toBeTruthy()
    expect(screen.getByText('-¥100.00')).toBeTruthy()
    expect(server.to('GET /main/wallet/trades')[0]!.query).toEqual({ page: '1', pageSize: '10' })
  })

  it('filters by type and by month: each filter is a new request', async () => {
    const server = serveWallet()
    await renderPage('pages/myWallet/myWallet')
    await screen.findByText('+¥24.00')
    fireEvent.click(tabByText('提现'))
    await waitFor(() =>
      expect(server.to('GET /main/wallet/trades').at(-1)!.query).toEqual({
        page: '1',
        pageSize: '10',
        kind: 'withdrawal',
      }),
    )
    await waitFor(() => expect(screen.queryByText('+¥24.00')).toBeNull())
    expect(screen.getByText('-¥100.00')).toBeTruthy()

    // The month picker (Taro's Picker, mode date, fields month) answers `2026-10`.
    const picker = document.querySelector('.wallet-filters__month taro-picker-core')
    expect(picker).toBeTruthy()
    fireEvent(picker!, new CustomEvent('change', { detail: { value: '2026-10' } }))
    await waitFor(() =>
      expect(server.to('GET /main/wallet/trades').at(-1)!.query).toEqual({
        page: '1',
        pageSize: '10',
        kind: 'withdrawal',
        month: '2026-10',
      }),
    )
    expect(await screen.findByText('2026年10月')).toBeTruthy()

    fireEvent.click(tabByText('全部'))
    await waitFor(() =>
      expect(server.to('GET /main/wallet/trades').at(-1)!.query).toEqual({
        page: '1',
        pageSize: '10',
        month: '2026-10',
      }),
    )
    fireEvent.click(screen.getByLabelText('清除月份'))
    await waitFor(() =>
      expect(server.to('GET /main/wallet/trades').at(-1)!.query).toEqual({
        page: '1',
        pageSize: '10',
      }),
    )
  })

  it('a row opens its detail; 提现 and 提现记录 open their pages', async () => {
    serveWallet()
    await renderPage('pages/myWallet/myWallet')
    fireEvent.click(await screen.findByText('图文咨询 · 张*1'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/myWallet/trade?id=t1' })
    fireEvent.click(screen.getByText('提现记录'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/myWallet/withdrawList' })
    fireEvent.click(screen.getAllByText('提现').find((el) => el.closest('.nut-button'))!)
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/myWallet/withdraw' })
  })

  it('提现 is closed with its reason: 提现未配置, or a balance under ¥1', async () => {
    serveWallet(
      overview({ payout: { provider: 'unconfigured', configured: false, label: '未配置' } }),
    )
    await renderPage('pages/myWallet/myWallet')
    expect(await screen.findByText('提现未配置')).toBeTruthy()
    const button = screen.getAllByText('提现').find((el) => el.closest('.nut-button'))!
    expect(button.closest('.nut-button')!.className).toContain('disabled')
    fireEvent.click(button)
    expect(navigateTo).not.toHaveBeenCalledWith({ url: '/pages/myWallet/withdraw' })

    serveWallet(overview({ availableFen: 99 }))
    await renderPage('pages/myWallet/myWallet')
    expect(await screen.findByText('可提现余额满 ¥1 才能提现')).toBeTruthy()
  })

  it('someone who is not an expert is told so, not offered a retry', async () => {
    fakeServer({ 'GET /main/wallet': () => ({ status: 403, error: '认证专家才有钱包' }) })
    await renderPage('pages/myWallet/myWallet')
    // The page says it (the wrapper's toast may say it too).
    await waitFor(() =>
      expect(document.querySelector('.page-state--empty')?.textContent).toContain(
        '认证专家才有钱包',
      ),
    )
    expect(screen.queryByText('重试')).toBeNull()
  })
})

describe('交易详情 (trade)', () => {
  it('shows the consultation’s split and opens 咨询详情', async () => {
    const server = fakeServer({
      'GET /main/wallet/trades/:tradeId': () => ({ data: tradeDetail(1) }),
    })
    await renderPage('pages/myWallet/trade', { id: 't1' })
    expect(await screen.findByText('¥30.00')).toBeTruthy()
    expect(server.sent[0]!.path).toBe('/main/wallet/trades/t1')
    expect(screen.getByText('¥6.00')).toBeTruthy()
    expect(screen.getAllByText('+¥24.00').length).toBeGreaterThan(0)
    fireEvent.click(screen.getByText(/查看咨询详情/))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/question/question?id=c1' })
  })

  it('a withdrawal’s movement opens 提现详情', async () => {
    fakeServer({
      'GET /main/wallet/trades/:tradeId': () => ({
        data: tradeDetail(2, { ...TRADES[1]!, consultation: null, entries: [] }),
      }),
    })
    await renderPage('pages/myWallet/trade', { id: 't2' })
    fireEvent.click(await screen.findByText(/查看提现详情/))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/myWallet/withdrawal?id=w2' })
  })
})
