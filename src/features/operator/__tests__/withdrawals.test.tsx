import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { profile } from '@/services/__tests__/account-fixtures'
import {
  fakeServer,
  operatorWithdrawal,
  type SentRequest,
} from '@/services/__tests__/wallet-fixtures'
import { operatorApi } from '@/services/operator'
import { refreshProfile } from '@/services/profile'
import { WALLET_MESSAGES, type WalletLimitSettings } from '@/services/wallet'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { renderPage } from '../../../../jest/taro-render'
import {
  checkLimits,
  chinaYesterday,
  recentQuarters,
  WALLET_LIMITS_TEXTS,
} from '../hooks/use-operator-withdrawals'

jest.mock('@/services/operator', () => {
  const actual = jest.requireActual<typeof import('@/services/operator')>('@/services/operator')
  const api = Object.fromEntries(Object.keys(actual.operatorApi).map((key) => [key, jest.fn()]))
  return { ...actual, operatorApi: api }
})

jest.mock('@/services/profile', () => ({
  ...jest.requireActual<typeof import('@/services/profile')>('@/services/profile'),
  refreshProfile: jest.fn(),
}))

const REVIEWING = operatorWithdrawal(1, { grossFen: 500000, taxFen: 76000, netFen: 424000 })
const FAILED = operatorWithdrawal(2, {
  state: 'failed',
  stateLabel: '失败 — 已退回余额',
  reason: '收款用户姓名校验不通过',
  providerCode: 'NAME_NOT_CORRECT',
})

let showModal: jest.SpyInstance

beforeEach(() => {
  resetStores()
  useSessionStore.getState().setToken({ access_token: 'tok' })
  useAppStore.getState().setProfile({ ...profile(), role: 'operator' })
  jest.mocked(refreshProfile).mockResolvedValue({ ...profile(), role: 'operator' })
  jest.mocked(operatorApi).features.mockResolvedValue([])
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' })
  showModal = jest
    .spyOn(Taro, 'showModal')
    .mockResolvedValue({ confirm: true, cancel: false, errMsg: 'showModal:ok' })
})

const DEFAULT_LIMITS: WalletLimitSettings = {
  perTransferFen: 2_000_000,
  perDayFen: 2_000_000,
  platformPerDayFen: 10_000_000,
  reviewAboveFen: 200_000,
}

function serve(
  limits: WalletLimitSettings = DEFAULT_LIMITS,
  saveLimits: (
    body: Record<string, unknown>,
  ) => { data: unknown } | { status: number; error: string } = (body) => ({ data: body }),
) {
  return fakeServer({
    'GET /main/operator/wallet/limits': () => ({ data: limits }),
    'PUT /main/operator/wallet/limits': ({ body }) => saveLimits(body),
    'GET /main/operator/withdrawals': ({ query }: SentRequest) => ({
      data: {
        items: [REVIEWING, FAILED].filter((one) => !query.state || one.state === query.state),
        total: 1,
        page: 1,
        pageSize: 20,
        // Every state is counted (the contract's record is exhaustive).
        counts: { reviewing: 1, paying: 0, confirming: 0, paid: 3, failed: 1, cancelled: 0 },
      },
    }),
    'POST /main/operator/withdrawals/:withdrawalId/decision': ({ body }) => ({
      data: {
        ...REVIEWING,
        ...(body.approve
          ? { state: 'paying', stateLabel: '打款中' }
          : { state: 'cancelled', stateLabel: '已取消', reason: body.reason }),
      },
    }),
    'GET /main/operator/wallet/reconciliation': () => ({
      data: {
        items: [
          {
            date: '2026-11-19',
            checkedAt: '2026-11-20T01:00:00.000Z',
            providerCount: 3,
            ledgerCount: 2,
            differences: [
              {
                outBillNo: 'WD202611190007',
                problem: 'missing-in-ledger',
                providerState: 'SUCCESS',
                ledgerState: null,
                providerFen: 10000,
                ledgerFen: null,
              },
            ],
          },
        ],
        total: 1,
        page: 1,
        pageSize: 5,
      },
    }),
    'POST /main/operator/wallet/reconciliation': ({ body }) => ({
      data: {
        date: body.date,
        checkedAt: '2026-11-20T02:00:00.000Z',
        providerCount: 0,
        ledgerCount: 0,
        differences: [],
      },
    }),
  })
}

const reasonArea = () => document.querySelector<HTMLTextAreaElement>('.operator__area textarea')!

async function openPanel() {
  await renderPage('pages/operator/index', { tab: 'withdrawals' })
  await screen.findByText('李明华 · 示例市第一人民医院')
}

describe('运营后台 → 提现审核', () => {
  it('sits next to 咨询订单 and lists withdrawals by state with counts', async () => {
    const server = serve()
    await openPanel()
    const tabs = Array.from(document.querySelectorAll('[role="tab"]')).map((tab) => tab.textContent)
    expect(tabs.indexOf('提现审核')).toBe(tabs.indexOf('咨询订单') + 1)
    expect(server.to('GET /main/operator/withdrawals')[0]!.query).toMatchObject({
      state: 'reviewing',
    })
    expect(await screen.findByText('审核中 1')).toBeTruthy()
    expect(screen.getByText('失败 — 已退回余额 1')).toBeTruthy()
    // Not paid yet: what it will pay (应到), not 实到.
    expect(document.body.textContent).toContain('提现 ¥5000.00 · 代扣个税 ¥760.00 · 应到 ¥4240.00')
    expect(document.body.textContent).not.toContain('实到')

    fireEvent.click(screen.getByText('失败 — 已退回余额 1'))
    expect(await screen.findByText('原因：收款用户姓名校验不通过（NAME_NOT_CORRECT）')).toBeTruthy()
    // A failed one paid and withheld nothing: no 实到, no tax.
    expect(screen.getByText('提现 ¥100.50 · 未打款，已退回专家余额')).toBeTruthy()
    expect(server.to('GET /main/operator/withdrawals').at(-1)!.query).toMatchObject({
      state: 'failed',
    })
    fireEvent.click(screen.getByText('全部'))
    await waitFor(() =>
      expect(server.to('GET /main/operator/withdrawals').at(-1)!.query.state).toBeUndefined(),
    )
  })

  it('驳回 needs a reason before anything is sent; then it is sent with the reason', async () => {
    const server = serve()
    await openPanel()
    fireEvent.click(screen.getByText('驳回'))
    fireEvent.click(await screen.findByText('确认驳回'))
    expect(await screen.findByText(WALLET_MESSAGES.rejectReasonRequired)).toBeTruthy()
    // Spaces are no reason.
    fireEvent.input(reasonArea(), { target: { value: '   ' } })
    fireEvent.click(screen.getByText('确认驳回'))
    expect(await screen.findByText(WALLET_MESSAGES.rejectReasonRequired)).toBeTruthy()
    expect(server.to('POST /main/operator/withdrawals/w1/decision')).toHaveLength(0)
    expect(showModal).not.toHaveBeenCalled()

    fireEvent.input(reasonArea(), { target: { value: '收入来源待核实，请联系平台' } })
    fireEvent.click(screen.getByText('确认驳回'))
    await waitFor(() =>
      expect(server.to('POST /main/operator/withdrawals/w1/decision')).toHaveLength(1),
    )
    expect(server.to('POST /main/operator/withdrawals/w1/decision')[0]!.body).toEqual({
      approve: false,
      reason: '收入来源待核实，请联系平台',
    })
    expect(showModal).toHaveBeenCalledWith(expect.objectContaining({ title: '驳回提现' }))
  })

  it('通过 after confirming', async () => {
    const server = serve()
    await openPanel()
    fireEvent.click(screen.getByText('通过'))
    await waitFor(() =>
      expect(server.to('POST /main/operator/withdrawals/w1/decision')[0]?.body).toEqual({
        approve: true,
      }),
    )
    expect(showModal).toHaveBeenCalledWith(
      expect.objectContaining({ title: '通过提现', content: expect.stringContaining('¥5000.00') }),
    )
  })

  it('shows reconciliation results and compares a day again; links the quarter’s income CSV', async () => {
    const server = serve()
    const download = jest.spyOn(Taro, 'downloadFile').mockImplementation((() =>
      Promise.resolve({
        statusCode: 200,
        tempFilePath: 'blob:http://localhost/csv',
        errMsg: 'downloadFile:ok',
      })) as never)
    // The browser saves it under the quarter's name (jsdom cannot follow the link).
    const saved: string[] = []
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push(`${this.download} ${this.href}`)
    })
    await openPanel()
    expect(await screen.findByText(/WD202611190007：账本中没有/)).toBeTruthy()
    expect(document.body.textContent).toContain('2026-11-19 · 1 处差异')

    fireEvent.click(screen.getByText('立即对账'))
    await waitFor(() =>
      expect(server.to('POST /main/operator/wallet/reconciliation')[0]?.body).toEqual({
        date: chinaYesterday(),
      }),
    )

    const quarter = recentQuarters()[1]!
    fireEvent.click(screen.getByText(quarter))
    fireEvent.click(screen.getByText(`下载 ${quarter} 收入报表（CSV）`))
    await waitFor(() => expect(download).toHaveBeenCalled())
    const url = String((download.mock.calls[0]![0] as { url: string }).url)
    expect(url).toMatch(
      new RegExp(`/main/operator/wallet/income-report\\.csv\\?quarter=${quarter}$`),
    )
    expect(
      (download.mock.calls[0]![0] as { header: Record<string, string> }).header.Authorization,
    ).toBe('Bearer tok')
    await waitFor(() =>
      expect(saved).toEqual([`收入报表-${quarter}.csv blob:http://localhost/csv`]),
    )
    click.mockRestore()
  })

  it('counts quarters and yesterday in China time', () => {
    expect(recentQuarters(3, Date.UTC(2026, 0, 1, 1))).toEqual(['2026Q1', '2025Q4', '2025Q3'])
    expect(recentQuarters(1, Date.UTC(2025, 11, 31, 17))).toEqual(['2026Q1'])
    expect(chinaYesterday(Date.UTC(2026, 10, 20, 17))).toBe('2026-11-20')
  })
})

const limitsCard = () => document.querySelector<HTMLElement>('.withdrawal-limits')!
const limitInputs = () =>
  Array.from(document.querySelectorAll<HTMLInputElement>('.withdrawal-limits__field input'))

/** The four inputs in the contract's order: 单笔, 每人每日, 平台每日, 审核门槛. */
function typeLimits(values: [string, string, string, string]) {
  limitInputs().forEach((input, index) => {
    fireEvent.input(input, { target: { value: values[index] } })
  })
}

async function openLimits() {
  await openPanel()
  await waitFor(() => expect(limitsCard().textContent).toContain('¥20000.00'))
}

describe('运营后台 → 提现审核 → 提现限额', () => {
  it('shows the four limits in 元 with two decimals, and that a change applies to new withdrawals only', async () => {
    serve()
    await openLimits()
    const text = limitsCard().textContent!
    expect(text).toContain('单笔限额¥20000.00')
    expect(text).toContain('每人每日限额¥20000.00')
    expect(text).toContain('平台每日限额¥100000.00')
    expect(text).toContain('审核门槛¥2000.00')
    expect(text).not.toContain('不需审核')
    expect(text).toContain(WALLET_LIMITS_TEXTS.newOnly)
  })

  it('says 不需审核 when the threshold is not below the per-transfer limit', async () => {
    serve({ ...DEFAULT_LIMITS, perTransferFen: 50_050, reviewAboveFen: 100_000 })
    await openPanel()
    await waitFor(() => expect(limitsCard().textContent).toContain('审核门槛¥1000.00（不需审核）'))
    expect(limitsCard().textContent).toContain('单笔限额¥500.50')
  })

  it('checks the limits in the contract’s words before anything is sent', async () => {
    const server = serve()
    await openLimits()
    fireEvent.click(screen.getByText(WALLET_LIMITS_TEXTS.edit))
    await waitFor(() => expect(limitInputs()).toHaveLength(4))
    // The form starts with the limits as they are.
    expect(limitInputs().map((input) => input.value)).toEqual([
      '20000.00',
      '20000.00',
      '100000.00',
      '2000.00',
    ])

    const refused: [[string, string, string, string], string][] = [
      [['600', '500', '10000', '300'], WALLET_MESSAGES.limitPerTransferOverDay],
      [['500', '20000.01', '100000', '300'], WALLET_MESSAGES.limitPerDayWechat],
      [['500', '800', '700', '300'], WALLET_MESSAGES.limitPerDayOverPlatform],
      [['1.234', '800', '10000', '300'], WALLET_MESSAGES.limitPerTransfer],
      [['500', '800', '10000', '0.99'], WALLET_MESSAGES.limitReviewAbove],
      [['500', '', '10000', '300'], WALLET_MESSAGES.limitPerDay],
    ]
    for (const [values, message] of refused) {
      typeLimits(values)
      fireEvent.click(screen.getByText(WALLET_LIMITS_TEXTS.save))
      expect(await screen.findByRole('alert')).toHaveProperty('textContent', message)
    }
    expect(server.to('PUT /main/operator/wallet/limits')).toHaveLength(0)
    expect(showModal).not.toHaveBeenCalled()

    // 取消 leaves them as they were.
    fireEvent.click(screen.getByText(WALLET_LIMITS_TEXTS.cancel))
    await waitFor(() => expect(limitInputs()).toHaveLength(0))
    expect(limitsCard().textContent).toContain('单笔限额¥20000.00')
  })

  it('保存 after confirming sends fen, says so, and shows what was saved', async () => {
    const server = serve()
    await openLimits()
    fireEvent.click(screen.getByText(WALLET_LIMITS_TEXTS.edit))
    await waitFor(() => expect(limitInputs()).toHaveLength(4))
    // A threshold above the per-transfer limit is allowed: nothing waits for 审核 then.
    typeLimits(['500.5', '800', '10000', '1000'])
    expect(await screen.findByText('审核：不需审核')).toBeTruthy()
    fireEvent.click(screen.getByText(WALLET_LIMITS_TEXTS.save))
    await waitFor(() => expect(server.to('PUT /main/operator/wallet/limits')).toHaveLength(1))
    expect(server.to('PUT /main/operator/wallet/limits')[0]!.body).toEqual({
      perTransferFen: 50_050,
      perDayFen: 80_000,
      platformPerDayFen: 1_000_000,
      reviewAboveFen: 100_000,
    })
    expect(showModal).toHaveBeenCalledWith(
      expect.objectContaining({
        title: WALLET_LIMITS_TEXTS.confirmTitle,
        content: expect.stringMatching(
          /^单笔限额 ¥500\.50，每人每日限额 ¥800\.00，平台每日限额 ¥10000\.00，审核门槛 ¥1000\.00（不需审核）。只影响之后申请的新提现/,
        ),
      }),
    )
    await waitFor(() =>
      expect(Taro.showToast).toHaveBeenCalledWith(
        expect.objectContaining({ title: WALLET_LIMITS_TEXTS.saved }),
      ),
    )
    await waitFor(() => expect(limitInputs()).toHaveLength(0))
    expect(limitsCard().textContent).toContain('单笔限额¥500.50')
    expect(limitsCard().textContent).toContain('审核门槛¥1000.00（不需审核）')
  })

  it('declined at the confirmation: nothing is sent; refused by the server: its words, the form stays', async () => {
    const server = serve(DEFAULT_LIMITS, () => ({
      status: 400,
      error: WALLET_MESSAGES.limitPerDayOverPlatform,
    }))
    await openLimits()
    fireEvent.click(screen.getByText(WALLET_LIMITS_TEXTS.edit))
    await waitFor(() => expect(limitInputs()).toHaveLength(4))
    typeLimits(['500', '800', '10000', '300'])
    expect(await screen.findByText('审核：超过 ¥300.00 需审核')).toBeTruthy()
    showModal.mockResolvedValueOnce({ confirm: false, cancel: true, errMsg: 'showModal:ok' })
    fireEvent.click(screen.getByText(WALLET_LIMITS_TEXTS.save))
    await waitFor(() => expect(showModal).toHaveBeenCalledTimes(1))
    expect(server.to('PUT /main/operator/wallet/limits')).toHaveLength(0)

    fireEvent.click(screen.getByText(WALLET_LIMITS_TEXTS.save))
    await waitFor(() => expect(server.to('PUT /main/operator/wallet/limits')).toHaveLength(1))
    await waitFor(() =>
      expect(Taro.showToast).toHaveBeenCalledWith(
        expect.objectContaining({ title: WALLET_MESSAGES.limitPerDayOverPlatform }),
      ),
    )
    expect(limitInputs()).toHaveLength(4)
  })

  it('checks typed 元 as fen with the contract’s rules', () => {
    const typed = {
      perTransferFen: '500',
      perDayFen: '20000',
      platformPerDayFen: '20000',
      reviewAboveFen: '9999',
    }
    expect(checkLimits(typed)).toEqual({
      kind: 'ok',
      limits: {
        perTransferFen: 50_000,
        perDayFen: 2_000_000,
        platformPerDayFen: 2_000_000,
        reviewAboveFen: 999_900,
      },
    })
    expect(checkLimits({ ...typed, platformPerDayFen: '19999.99' })).toEqual({
      kind: 'problem',
      field: 'perDayFen',
      message: WALLET_MESSAGES.limitPerDayOverPlatform,
    })
    expect(checkLimits({ ...typed, perTransferFen: '-1' })).toMatchObject({
      field: 'perTransferFen',
    })
  })
})
