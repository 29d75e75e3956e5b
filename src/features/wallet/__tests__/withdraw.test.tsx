import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { resetStores } from '@/stores/reset-stores'
import { WALLET_MESSAGES } from '@/services/wallet'
import {
  fakeServer,
  overview,
  quote,
  type Reply,
  type SentRequest,
  signInExpert,
  withdrawal,
} from '@/services/__tests__/wallet-fixtures'
import { renderPage } from '../../../../jest/taro-render'
import { QUOTE_DELAY_MS } from '../hooks/use-withdraw'

beforeEach(() => {
  resetStores()
  signInExpert()
})

function amountInput(): HTMLInputElement {
  const input = document.querySelector<HTMLInputElement>('.withdraw-amount input')
  if (!input) throw new Error('no amount input')
  return input
}

function typeAmount(value: string) {
  fireEvent.input(amountInput(), { target: { value } })
}

/** The nut-button whose text is exactly `text` (the sheet's 确认提现 is also its title). */
function button(text: string): HTMLElement {
  const found = Array.from(document.querySelectorAll<HTMLElement>('.nut-button')).filter(
    (element) => element.textContent?.trim() === text,
  )
  if (found.length === 0) throw new Error(`no button ${text}`)
  return found.at(-1)!
}

/** An input of the password-or-code sheet, by its placeholder. */
function sheetInput(placeholder: string): HTMLInputElement {
  const input = document.querySelector<HTMLInputElement>(
    `.withdraw-sheet input[placeholder="${placeholder}"]`,
  )
  if (!input) throw new Error(`no input ${placeholder}`)
  return input
}

/** Opens 提现 afresh and waits for its form (not the last test's page on its way out). */
async function openWithdraw() {
  await renderPage('pages/myWallet/withdraw')
  await waitFor(() => {
    expect(document.querySelectorAll('.taro_page')).toHaveLength(1)
    amountInput()
  })
}

const isDisabled = (element: HTMLElement) => element.className.includes('disabled')

function serve(create: (request: SentRequest) => Reply = () => ({ data: withdrawal(1) })) {
  return fakeServer({
    'GET /main/wallet': () => ({ data: overview() }),
    'GET /main/wallet/withdrawals/quote': ({ query }) => ({
      data: quote({ grossFen: Math.round(Number(query.amount) * 100) }),
    }),
    'POST /main/wallet/withdrawals': create,
    'GET /main/wallet/withdrawals/:withdrawalId': () => ({ data: withdrawal(1) }),
  })
}

/** Lets the debounced quote go and its answer land. */
async function quoted() {
  await screen.findByText('¥88.16', undefined, { timeout: QUOTE_DELAY_MS + 3000 })
}

describe('提现 (withdraw)', () => {
  it('refuses 1.234 and 0.5 in the contract’s words before any request', async () => {
    const server = serve()
    await openWithdraw()
    typeAmount('1.234')
    expect(await screen.findByText(WALLET_MESSAGES.amountFormat)).toBeTruthy()
    typeAmount('0.5')
    expect(await screen.findByText(WALLET_MESSAGES.amountTooSmall)).toBeTruthy()
    typeAmount('20000')
    expect(await screen.findByText(WALLET_MESSAGES.amountOverBalance)).toBeTruthy()
    await new Promise((resolve) => setTimeout(resolve, QUOTE_DELAY_MS + 200))
    expect(server.sent.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /main/wallet',
    ])
    expect(isDisabled(button('下一步'))).toBe(true)
  })

  it('shows the quote’s tax and net (one request when typing stops), and 全部提现 fills the balance', async () => {
    const server = serve()
    await openWithdraw()
    typeAmount('1')
    typeAmount('10')
    typeAmount('100.5')
    await quoted()
    const quotes = server.to('GET /main/wallet/withdrawals/quote')
    expect(quotes).toHaveLength(1)
    expect(quotes[0]!.query).toEqual({ amount: '100.5' })
    expect(screen.getByText('¥12.34').previousSibling?.textContent).toBe('代扣个税')
    expect(screen.getByText('¥88.16').previousSibling?.textContent).toBe('实际到账')
    expect(screen.getByText('提交后即向微信零钱打款')).toBeTruthy()
    // The demo provider says what it is, and how to try a failure.
    expect(screen.getByText(/演示提现：不会真实打款/)).toBeTruthy()
    // How the tax was computed, on request.
    fireEvent.click(screen.getByText(/个税怎么算/))
    expect(await screen.findByText('累计应纳税所得额')).toBeTruthy()

    fireEvent.click(screen.getByText('全部提现'))
    expect(amountInput().value).toBe('1234.56')
    await waitFor(
      () =>
        expect(server.to('GET /main/wallet/withdrawals/quote').at(-1)!.query).toEqual({
          amount: '1234.56',
        }),
      { timeout: QUOTE_DELAY_MS + 3000 },
    )
  })

  it('says the quote’s refusal and whether it waits for 审核', async () => {
    fakeServer({
      'GET /main/wallet': () => ({ data: overview() }),
      'GET /main/wallet/withdrawals/quote': ({ query }) => ({
        data:
          query.amount === '50'
            ? quote({ refused: WALLET_MESSAGES.oneAtATime })
            : quote({ needsReview: true }),
      }),
    })
    await openWithdraw()
    typeAmount('50')
    expect(
      await screen.findByText(WALLET_MESSAGES.oneAtATime, undefined, { timeout: 3000 }),
    ).toBeTruthy()
    expect(isDisabled(button('下一步'))).toBe(true)
    typeAmount('1000')
    expect(
      await screen.findByText('这笔提现需平台审核，审核通过后打款', undefined, { timeout: 3000 }),
    ).toBeTruthy()
    expect(isDisabled(button('下一步'))).toBe(false)
  })

  it('asks the password or an SMS code before it withdraws', async () => {
    const server = serve()
    await openWithdraw()
    typeAmount('100.5')
    await quoted()
    fireEvent.click(button('下一步'))
    await waitFor(() => sheetInput('请输入登录密码'))
    fireEvent.click(button('确认提现'))
    expect(await screen.findByText('请输入登录密码', { selector: '[role="alert"]' })).toBeTruthy()
    fireEvent.click(screen.getByText('短信验证码'))
    fireEvent.click(button('确认提现'))
    expect(
      await screen.findByText('请输入 6 位数字验证码', { selector: '[role="alert"]' }),
    ).toBeTruthy()
    expect(server.to('POST /main/wallet/withdrawals')).toHaveLength(0)

    const code = await waitFor(() => sheetInput('请输入验证码'))
    fireEvent.input(code, { target: { value: '123456' } })
    fireEvent.click(button('确认提现'))
    await waitFor(() => expect(server.to('POST /main/wallet/withdrawals')).toHaveLength(1))
    expect(server.to('POST /main/wallet/withdrawals')[0]!.body).toMatchObject({
      amount: '100.5',
      smsCode: '123456',
    })
  })

  it('a retry after a lost answer sends the same clientId: one withdrawal, not two', async () => {
    let posts = 0
    const server = serve(() => {
      posts += 1
      return posts === 1 ? { offline: true } : { data: withdrawal(1) }
    })
    await openWithdraw()
    typeAmount('100.5')
    await quoted()
    fireEvent.click(button('下一步'))
    fireEvent.input(await waitFor(() => sheetInput('请输入登录密码')), {
      target: { value: 'demo1234' },
    })
    fireEvent.click(button('确认提现'))
    expect(await screen.findByText(/重试不会重复提现/)).toBeTruthy()
    fireEvent.click(button('确认提现'))
    // The withdrawal's state once it is made.
    expect(await screen.findByText('打款中')).toBeTruthy()
    const sent = server.to('POST /main/wallet/withdrawals')
    expect(sent).toHaveLength(2)
    const [first, second] = sent.map((request) => request.body)
    expect(first).toMatchObject({ amount: '100.5', password: 'demo1234' })
    expect(typeof first!.clientId).toBe('string')
    expect(String(first!.clientId).length).toBeGreaterThanOrEqual(8)
    expect(second!.clientId).toBe(first!.clientId)
    expect(screen.getByText('WD20261120001')).toBeTruthy()
  })

  it('shows the withdrawal made from the top of the page, wherever the form was scrolled', async () => {
    serve()
    const scroll = jest.spyOn(Taro, 'pageScrollTo').mockResolvedValue({ errMsg: 'ok' })
    await openWithdraw()
    typeAmount('100.5')
    await quoted()
    fireEvent.click(button('下一步'))
    fireEvent.input(await waitFor(() => sheetInput('请输入登录密码')), {
      target: { value: 'demo1234' },
    })
    expect(scroll).not.toHaveBeenCalled()
    fireEvent.click(button('确认提现'))
    expect(await screen.findByText('打款中')).toBeTruthy()
    await waitFor(() => expect(scroll).toHaveBeenCalledWith({ scrollTop: 0, duration: 0 }))
    expect(scroll).toHaveBeenCalledTimes(1)
  })

  it('starts a new clientId for another amount', async () => {
    const server = serve(() => ({ offline: true }))
    await openWithdraw()
    const attempt = async (amount: string) => {
      typeAmount(amount)
      await waitFor(
        () => {
          expect(server.to('GET /main/wallet/withdrawals/quote').at(-1)?.query.amount).toBe(amount)
          expect(isDisabled(button('下一步'))).toBe(false)
        },
        { timeout: 3000 },
      )
      fireEvent.click(button('下一步'))
      fireEvent.input(await waitFor(() => sheetInput('请输入登录密码')), {
        target: { value: 'demo1234' },
      })
      fireEvent.click(button('确认提现'))
      await screen.findByText(/重试不会重复提现/)
      // Closing the sheet (a tap on the mask) and typing another amount.
      fireEvent.click(document.querySelector('.nut-overlay')!)
    }
    await attempt('100.5')
    await attempt('200')
    const ids = server.to('POST /main/wallet/withdrawals').map((request) => request.body.clientId)
    expect(ids).toHaveLength(2)
    expect(ids[0]).not.toBe(ids[1])
  })

  it('提现未配置: no amount can be typed, and it says why', async () => {
    fakeServer({
      'GET /main/wallet': () => ({
        data: overview({ payout: { provider: 'unconfigured', configured: false, label: '' } }),
      }),
    })
    await renderPage('pages/myWallet/withdraw')
    expect(await screen.findByText('提现未配置')).toBeTruthy()
    expect(screen.queryByText('全部提现')).toBeNull()
    expect(isDisabled(button('下一步'))).toBe(true)
  })
})

describe('提现 → 确认收款', () => {
  function serveConfirming(kind: 'demo' | 'wechat') {
    return fakeServer({
      'GET /main/wallet': () => ({ data: overview() }),
      'GET /main/wallet/withdrawals/quote': () => ({ data: quote() }),
      'POST /main/wallet/withdrawals': () => ({
        data: withdrawal(1, { state: 'confirming', stateLabel: '待确认收款', canConfirm: true }),
      }),
      'POST /main/wallet/withdrawals/:withdrawalId/confirm': () => ({
        data:
          kind === 'demo'
            ? {
                kind,
                mchId: null,
                appId: null,
                packageInfo: null,
                withdrawal: withdrawal(1, {
                  state: 'paid',
                  stateLabel: '已到账',
                  paidAt: '2026-11-20T02:01:00.000Z',
                }),
              }
            : {
                kind,
                mchId: '1900000001',
                appId: 'wx0000000000000001',
                packageInfo: 'ABBQO+oYAAABAAAAAAB',
                withdrawal: withdrawal(1, {
                  state: 'confirming',
                  stateLabel: '待确认收款',
                  canConfirm: true,
                }),
              },
      }),
    })
  }

  async function withdrawToConfirming() {
    await openWithdraw()
    typeAmount('100.5')
    await quoted()
    fireEvent.click(button('下一步'))
    fireEvent.input(await waitFor(() => sheetInput('请输入登录密码')), {
      target: { value: 'demo1234' },
    })
    fireEvent.click(button('确认提现'))
    expect(await screen.findByText('待确认收款')).toBeTruthy()
  }

  it('the demo provider confirms through the server: 已到账', async () => {
    const server = serveConfirming('demo')
    await withdrawToConfirming()
    fireEvent.click(button('确认收款'))
    expect(await screen.findByText('已到账')).toBeTruthy()
    expect(server.to('POST /main/wallet/withdrawals/w1/confirm')).toHaveLength(1)
    expect(screen.queryByText('确认收款')).toBeNull()
  })

  it('a WeChat transfer in the browser: 请在微信小程序中确认收款', async () => {
    serveConfirming('wechat')
    await withdrawToConfirming()
    fireEvent.click(button('确认收款'))
    expect(await screen.findByText('请在微信小程序中确认收款')).toBeTruthy()
  })
})
