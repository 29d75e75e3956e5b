import type { z } from 'zod/mini'
import type { InputOf, OutputOf } from '@contract/endpoint'
import {
  cancelWithdrawal as cancelEndpoint,
  confirmWithdrawal as confirmEndpoint,
  createWithdrawal as createEndpoint,
  getWallet as getWalletEndpoint,
  getWalletTrade as getTradeEndpoint,
  getWithdrawal as getWithdrawalEndpoint,
  INCOME_REPORT_QUARTER_RE,
  listWalletTrades as listTradesEndpoint,
  listWithdrawals as listWithdrawalsEndpoint,
  operatorDecideWithdrawal as operatorDecideEndpoint,
  operatorGetWalletLimits as operatorLimitsEndpoint,
  operatorListReconciliations as operatorReconciliationsEndpoint,
  operatorListWithdrawals as operatorListEndpoint,
  operatorReconcile as operatorReconcileEndpoint,
  operatorSetWalletLimits as operatorSetLimitsEndpoint,
  type OperatorWithdrawalSchema,
  quoteWithdrawal as quoteEndpoint,
  syncWithdrawal as syncEndpoint,
  type WalletLimitSettings,
} from '@contract/main/wallet'
import { callEndpoint, type CallOptions } from './api'
import { sendOwnCode } from './auth'
import { hostOf } from './hosts'
import { http } from './http'

/*
 * The expert's wallet (contract/main/wallet.ts): 我的钱包's figures, 交易记录, 提现 with its quote,
 * 提现记录, and 运营后台's side (审核, reconciliation, the quarterly income report). One verb-noun
 * function per call; amounts stay integer fen (screens format them with yuanOf).
 */

export * from '@contract/main/wallet'
export { yuanOf } from '@contract/main/consultations'

export type WalletTradePage = OutputOf<typeof listTradesEndpoint>
export type WalletTradeQuery = InputOf<typeof listTradesEndpoint>
export type WithdrawalQuote = OutputOf<typeof quoteEndpoint>
export type CreateWithdrawalInput = InputOf<typeof createEndpoint>
export type WithdrawalPage = OutputOf<typeof listWithdrawalsEndpoint>
export type ConfirmStart = OutputOf<typeof confirmEndpoint>
export type OperatorWithdrawal = z.infer<typeof OperatorWithdrawalSchema>
export type OperatorWithdrawalPage = OutputOf<typeof operatorListEndpoint>
export type OperatorWithdrawalQuery = InputOf<typeof operatorListEndpoint>
export type WithdrawalDecision = InputOf<typeof operatorDecideEndpoint>

// Pages draw their own loading state; forms show their own busy button.
const QUIET: CallOptions = { loading: false }

export const getWallet = () => callEndpoint(getWalletEndpoint, {}, QUIET)
export const listWalletTrades = (input: WalletTradeQuery) =>
  callEndpoint(listTradesEndpoint, input, QUIET)
export const getWalletTrade = (tradeId: string) =>
  callEndpoint(getTradeEndpoint, { tradeId }, QUIET)
/** What confirming would do; asked while the amount is typed, so it never toasts being offline. */
export const quoteWithdrawal = (amount: string) =>
  callEndpoint(quoteEndpoint, { amount }, { loading: false, quietOffline: true })
/** Keep `clientId` across retries of one attempt: the server answers the same withdrawal again. */
export const createWithdrawal = (input: CreateWithdrawalInput) =>
  // Offline, the sheet says what to do (retry: it cannot withdraw twice) instead of a toast.
  callEndpoint(createEndpoint, input, { loading: false, quietOffline: true })
export const listWithdrawals = (page: number, pageSize: number) =>
  callEndpoint(listWithdrawalsEndpoint, { page, pageSize }, QUIET)
export const getWithdrawal = (withdrawalId: string) =>
  callEndpoint(getWithdrawalEndpoint, { withdrawalId }, QUIET)
export const confirmWithdrawal = (withdrawalId: string) =>
  callEndpoint(confirmEndpoint, { withdrawalId }, QUIET)
export const syncWithdrawal = (withdrawalId: string) =>
  callEndpoint(syncEndpoint, { withdrawalId }, QUIET)
/**
 * The same question while 打款中 shows, asked by itself: quiet offline. (A plain read would only
 * see what the server's job last heard, up to half a minute late.)
 */
export const followWithdrawal = (withdrawalId: string) =>
  callEndpoint(syncEndpoint, { withdrawalId }, { loading: false, quietOffline: true })
export const cancelWithdrawal = (withdrawalId: string) =>
  callEndpoint(cancelEndpoint, { withdrawalId }, QUIET)
/**
 * The SMS code that re-authenticates a withdrawal goes to the account's own phone ('verify-old',
 * the owner check the expert's signed answer uses too); the app never sees the full number.
 */
export const sendWithdrawCode = () => sendOwnCode('verify-old', { loading: false })

/** The path of the quarterly income report (CSV, not a JSON call, so not a contract endpoint). */
export function incomeReportPath(quarter: string): string {
  if (!INCOME_REPORT_QUARTER_RE.test(quarter)) throw new TypeError(`not a quarter: ${quarter}`)
  return `/operator/wallet/income-report.csv?quarter=${quarter}`
}

export const operatorWalletApi = {
  /** One state (or all), newest first, with the count of each state. */
  list: (state: OperatorWithdrawalQuery['state'], page: number, pageSize: number) =>
    callEndpoint(operatorListEndpoint, { ...(state ? { state } : {}), page, pageSize }, QUIET),
  /** 通过, or 驳回 with the reason the expert will read. */
  decide: (input: WithdrawalDecision) => callEndpoint(operatorDecideEndpoint, input),
  reconcile: (date: string) => callEndpoint(operatorReconcileEndpoint, { date }),
  /** 提现限额: per transfer, per expert per day, per platform per day, the 审核 threshold (fen). */
  limits: () => callEndpoint(operatorLimitsEndpoint, {}, QUIET),
  /** Applies to withdrawals made from now on; answers the limits saved. */
  setLimits: (limits: WalletLimitSettings) => callEndpoint(operatorSetLimitsEndpoint, limits),
  reconciliations: (page: number, pageSize: number) =>
    callEndpoint(operatorReconciliationsEndpoint, { page, pageSize }, QUIET),
  /**
   * The quarter's income report per expert, fetched with the operator's bearer token (a plain link
   * would carry none): answers a file path the browser can save (a blob: URL on H5).
   */
  downloadIncomeReport: async (quarter: string) => {
    const file = await http.download({
      baseUrl: hostOf('main'),
      url: incomeReportPath(quarter),
      header: { Accept: 'text/csv' },
    })
    return file.tempFilePath
  },
}
