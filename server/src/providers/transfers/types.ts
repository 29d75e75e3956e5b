/*
 * The transfer provider interface (issue 22): how an expert's withdrawal reaches their WeChat 零钱.
 * Adapters: `wechatpay` (WeChat Pay APIv3 商家转账, POST /v3/fund-app/mch-transfer/transfer-bills),
 * `demo` (演示提现: no money moves, but the same states and the same notification code run, and a
 * failure can be triggered), `unconfigured` (提现未配置). The domain (domain/wallet) owns withdrawals
 * and the ledger; an adapter only talks to the provider and turns its answers into the plain results
 * below. Amounts are integer fen.
 *
 * Paying twice is the failure that matters: a bill number (out_bill_no) is ours, made once per
 * withdrawal, and every retry after an unclear answer (timeout, 5xx, network) sends the SAME bill
 * number; the provider answers the existing bill instead of paying again. An adapter throws
 * TransferUnclear for an answer it cannot read as a result, never a made-up state.
 */

export const TRANSFER_NOT_CONFIGURED = '提现未配置'

export type TransferProviderName = 'wechatpay' | 'demo' | 'unconfigured'

/** WeChat's transfer bill states, as it names them. */
export const TRANSFER_STATES = [
  'ACCEPTED',
  'PROCESSING',
  'WAIT_USER_CONFIRM',
  'TRANSFERING',
  'SUCCESS',
  'FAIL',
  'CANCELING',
  'CANCELLED',
] as const
export type TransferState = (typeof TRANSFER_STATES)[number]

/** States after which nothing changes: SUCCESS posts the hold, FAIL and CANCELLED void it. */
export const FINAL_TRANSFER_STATES: readonly TransferState[] = ['SUCCESS', 'FAIL', 'CANCELLED']

export interface TransferInput {
  /** Our bill number (out_bill_no): 5–32 of [A-Za-z0-9]; the same on every retry of one withdrawal. */
  outBillNo: string
  amountFen: number
  /** The receiver's openid under the configured appid; null when the account has none (H5 only). */
  openid: string | null
  /** The certified real name; sent encrypted with the platform's public key (required ≥ 2,000 元). */
  realName: string
  /** What the receiver sees (≤ 32 characters): 专家咨询服务报酬. */
  remark: string
  /** Where the provider posts the state notification (https, from PUBLIC_URL); null: none. */
  notifyUrl: string | null
  /**
   * 佣金报酬 (transfer_scene_id 1005) report fields (transfer_scene_report_infos):
   * 岗位类型 and 报酬说明.
   */
  report: { role: string; description: string }
}

export interface TransferResult {
  outBillNo: string
  /** The provider's bill number (transfer_bill_no); null when it has none yet. */
  billNo: string | null
  state: TransferState
  amountFen: number
  /** WAIT_USER_CONFIRM: what the mini-program passes to wx.requestMerchantTransfer. */
  packageInfo: string | null
  /** FAIL: the provider's reason (fail_reason), as given. */
  failReason: string | null
  /** ISO time of the last state change, when the provider says. */
  updatedAt: string | null
}

/** What the mini-program needs for wx.requestMerchantTransfer (base library ≥ 3.3.0). */
export interface ConfirmParams {
  mchId: string
  appId: string
  packageInfo: string
}

/** One line of the provider's daily statement (资金账单 / 转账明细). */
export interface StatementLine {
  outBillNo: string
  billNo: string | null
  state: TransferState
  amountFen: number
  /** ISO time it reached its state. */
  at: string
}

/** Headers as received (lower-case names) and the body exactly as received. */
export interface RawTransferNotification {
  headers: Record<string, string | undefined>
  rawBody: string
}

export interface TransferProvider {
  readonly name: TransferProviderName
  /** Whether paying out works at all (false: every call throws TransferNotConfigured). */
  readonly configured: boolean
  /**
   * Creates the bill, or answers the existing one for this outBillNo. Throws TransferUnclear when
   * the answer is unreadable (then retry with the same outBillNo), TransferRefused when the provider
   * refused the request outright (no bill exists: nothing was paid).
   */
  createTransfer(input: TransferInput): Promise<TransferResult>
  /** The bill's state now; null: the provider has no such bill. */
  queryTransfer(outBillNo: string): Promise<TransferResult | null>
  /** Asks to cancel a bill not yet paid (ACCEPTED / WAIT_USER_CONFIRM): answers CANCELING or CANCELLED. */
  cancelTransfer(outBillNo: string): Promise<TransferResult>
  /** The app's parameters for confirming a WAIT_USER_CONFIRM bill (wechatpay only; demo: null). */
  confirmParams(result: TransferResult): ConfirmParams | null
  /** Verifies and decrypts a state notification; throws TransferNotificationRejected. */
  parseTransferNotification(notification: RawTransferNotification): Promise<TransferResult>
  /** The provider's statement of transfers for one day (YYYY-MM-DD, China time). */
  dailyStatement(date: string): Promise<StatementLine[]>
}

export class TransferNotConfigured extends Error {
  override name = 'TransferNotConfigured'
  constructor() {
    super(TRANSFER_NOT_CONFIGURED)
  }
}

/** The answer could not be read as a result: retry with the same outBillNo, never a new one. */
export class TransferUnclear extends Error {
  override name = 'TransferUnclear'
}

/** The provider refused the request (bad parameters, limits, no such user): no bill exists. */
export class TransferRefused extends Error {
  override name = 'TransferRefused'
  constructor(
    message: string,
    /** The provider's error code (e.g. NOT_ENOUGH, QUOTA_EXCEED), for operators. */
    readonly code: string,
  ) {
    super(message)
  }
}

export class TransferNotificationRejected extends Error {
  override name = 'TransferNotificationRejected'
}
