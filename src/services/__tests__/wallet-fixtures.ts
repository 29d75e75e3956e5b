import Taro from '@tarojs/taro'
import type {
  OperatorWithdrawal,
  WalletOverview,
  WalletTax,
  WalletTrade,
  WalletTradeDetail,
  Withdrawal,
  WithdrawalQuote,
} from '@/services/wallet'
import { useAppStore } from '@/stores/app-store'
import { useSessionStore } from '@/stores/session-store'
import { profile } from './account-fixtures'

/* The wallet's shapes as the contract describes them (demo-like figures, no real person). */

export function signInExpert(): void {
  useSessionStore.getState().setToken({ access_token: 'tok' })
  useAppStore.getState().setProfile(profile({ id: 'e1', nickname: '李医生', role: 'expert' }))
}

export function overview(overrides: Partial<WalletOverview> = {}): WalletOverview {
  return {
    availableFen: 123456,
    pendingFen: 2400,
    withdrawingFen: 10000,
    monthIncomeFen: 4800,
    totalIncomeFen: 250000,
    yearTaxFen: 3210,
    payout: { provider: 'demo', configured: true, label: '微信零钱（李*华）' },
    limits: {
      minFen: 100,
      perTransferFen: 2000000,
      perDayFen: 2000000,
      leftTodayFen: 2000000,
      reviewAboveFen: 200000,
    },
    ...overrides,
  }
}

export function trade(n: number, overrides: Partial<WalletTrade> = {}): WalletTrade {
  return {
    id: `t${n}`,
    kind: 'income',
    kindLabel: '咨询收入',
    title: `图文咨询 · 张*${n}`,
    amountFen: 2400,
    accountLabel: '待结算',
    consultationId: `c${n}`,
    withdrawalId: null,
    at: '2026-11-20T02:00:00.000Z',
    ...overrides,
  }
}

export function tradeDetail(
  n: number,
  overrides: Partial<WalletTradeDetail> = {},
): WalletTradeDetail {
  return {
    ...trade(n),
    consultation: {
      id: `c${n}`,
      serviceLabel: '图文咨询',
      personMasked: `张*${n}`,
      priceFen: 3000,
      platformFen: 600,
      expertFen: 2400,
      stateLabel: '已完成',
    },
    entries: [{ accountLabel: '待结算', amountFen: 2400 }],
    ...overrides,
  }
}

export function tax(overrides: Partial<WalletTax> = {}): WalletTax {
  return {
    year: 2026,
    incomeBeforeFen: 0,
    incomeFen: 10050,
    months: 1,
    expensesFen: 2010,
    deductionFen: 500000,
    taxableFen: 0,
    ratePercent: 20,
    quickDeductionFen: 0,
    dueFen: 0,
    withheldBeforeFen: 0,
    taxFen: 0,
    ...overrides,
  }
}

export function quote(overrides: Partial<WithdrawalQuote> = {}): WithdrawalQuote {
  return {
    grossFen: 10050,
    taxFen: 1234,
    netFen: 8816,
    tax: tax({ taxFen: 1234, dueFen: 1234, taxableFen: 6170 }),
    needsReview: false,
    refused: null,
    ...overrides,
  }
}

export function withdrawal(n: number, overrides: Partial<Withdrawal> = {}): Withdrawal {
  return {
    id: `w${n}`,
    state: 'paying',
    stateLabel: '打款中',
    grossFen: 10050,
    taxFen: 1234,
    netFen: 8816,
    tax: tax({ taxFen: 1234 }),
    targetLabel: '微信零钱（李*华）',
    billNo: `WD2026112000${n}`,
    reason: null,
    createdAt: '2026-11-20T02:00:00.000Z',
    updatedAt: '2026-11-20T02:00:05.000Z',
    paidAt: null,
    canConfirm: false,
    canCancel: false,
    ...overrides,
  }
}

export function operatorWithdrawal(
  n: number,
  overrides: Partial<OperatorWithdrawal> = {},
): OperatorWithdrawal {
  return {
    ...withdrawal(n, { state: 'reviewing', stateLabel: '审核中', canCancel: true }),
    expert: { id: 'e1', name: '李明华', hospitalName: '示例市第一人民医院' },
    providerCode: null,
    ...overrides,
  }
}

export function page<T>(items: T[], total = items.length) {
  return { items, total, page: 1, pageSize: 10 }
}

/** What the app sent: the method, the path under the service (`/main/wallet`), query and body. */
export interface SentRequest {
  method: string
  path: string
  query: Record<string, string>
  body: Record<string, unknown>
}

/** An answer: data for the envelope, a status with the server's error, or no answer at all. */
export type Reply = { data: unknown } | { status: number; error: string } | { offline: true }

type Handler = (request: SentRequest) => Reply

/**
 * The reference server's wallet calls, faked at the request layer (Taro.request), so every answer
 * goes through the real wrapper and the contract's schemas. Handlers are keyed `GET /main/wallet`;
 * anything else answers 404.
 */
export function fakeServer(handlers: Record<string, Handler>) {
  const sent: SentRequest[] = []
  const spy = jest.spyOn(Taro, 'request').mockImplementation(((options: Taro.request.Option) => {
    const url = new URL(options.url, 'http://localhost')
    const request: SentRequest = {
      method: options.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body:
        typeof options.data === 'string' && options.data !== ''
          ? (JSON.parse(options.data) as Record<string, unknown>)
          : {},
    }
    sent.push(request)
    const handler =
      handlers[`${request.method} ${request.path}`] ??
      Object.entries(handlers).find(([key]) => {
        const [method, pattern] = key.split(' ')
        if (method !== request.method || !pattern!.includes(':')) return false
        const re = new RegExp(`^${pattern!.replace(/:[A-Za-z]+/g, '[^/]+')}$`)
        return re.test(request.path)
      })?.[1]
    const reply: Reply = handler
      ? handler(request)
      : { status: 404, error: `no handler for ${request.method} ${request.path}` }
    if ('offline' in reply) return Promise.reject({ errMsg: 'request:fail' })
    if ('status' in reply) {
      return Promise.resolve({
        statusCode: reply.status,
        data: { code: reply.status, message: reply.error, data: null, error: reply.error },
        header: {},
      })
    }
    return Promise.resolve({
      statusCode: 200,
      data: { code: 200, message: 'ok', data: reply.data, error: null },
      header: {},
    })
  }) as never)
  return {
    sent,
    spy,
    /** The requests to one `METHOD /path`. */
    to: (key: string) => sent.filter((request) => `${request.method} ${request.path}` === key),
  }
}
