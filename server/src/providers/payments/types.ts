/*
 * The payment provider interface (issue 21): how a consultation's order is paid and refunded.
 * Adapters: `wechatpay` (WeChat Pay APIv3, JSAPI), `demo` (演示支付: no money moves, but the same
 * notification and settlement code runs), `unconfigured` (支付未配置). The domain
 * (domain/consultations) owns orders and the ledger; an adapter only talks to the provider and
 * turns its answers and notifications into the plain results below. Amounts are integer fen.
 *
 * A notification is the provider's word, so an adapter verifies it (signature over the raw body,
 * decryption) before answering anything; a forged or tampered one throws
 * PaymentNotificationRejected and must change nothing. Duplicates are normal (WeChat retries for
 * about 24 h): applying a result once is the domain's job, keyed by the provider's ids.
 */

export const PAYMENT_NOT_CONFIGURED = '支付未配置'

export type PaymentProviderName = 'wechatpay' | 'demo' | 'unconfigured'

export interface PrepayInput {
  /** Our order number (out_trade_no): 6–32 characters of [A-Za-z0-9_-]. */
  outTradeNo: string
  /** What the payer sees on the bill (≤ 127 bytes): 图文咨询-张医生. */
  description: string
  amountFen: number
  /** The payer's openid under the configured appid (JSAPI needs it); null when unknown. */
  payerOpenid: string | null
  /** The order closes then (time_expire). */
  expiresAt: Date
  /**
   * Where the provider posts the payment notification (notify_url): https, built by the domain from
   * PUBLIC_URL. WeChat requires it on every prepay; the demo provider ignores it.
   */
  notifyUrl: string
}

/** What the app needs to start paying. */
export type PrepayResult =
  | {
      kind: 'jsapi'
      /** Taro.requestPayment / WeixinJSBridge getBrandWCPayRequest parameters, signed. */
      params: {
        appId: string
        timeStamp: string
        nonceStr: string
        package: string
        signType: 'RSA'
        paySign: string
      }
    }
  | {
      kind: 'demo'
      /** The demo page confirms with this (one order, short-lived). */
      token: string
    }

export type PaymentState =
  'SUCCESS' | 'REFUND' | 'NOTPAY' | 'CLOSED' | 'REVOKED' | 'USERPAYING' | 'PAYERROR'

export interface PaymentResult {
  outTradeNo: string
  /** The provider's transaction id; null until paid. */
  transactionId: string | null
  state: PaymentState
  /** What the provider says was charged (amount.total), to compare with the order. */
  amountFen: number | null
  /** When it was paid (ISO), null before. */
  paidAt: string | null
}

export interface RefundInput {
  outTradeNo: string
  /** Our refund number (out_refund_no): a retry sends the same one. */
  outRefundNo: string
  refundFen: number
  /** The order's whole amount (WeChat checks it). */
  totalFen: number
  reason: string
  /** Where the refund notification goes (notify_url); null: none (the merchant platform's default). */
  notifyUrl: string | null
}

export type RefundState = 'SUCCESS' | 'PROCESSING' | 'CLOSED' | 'ABNORMAL'

export interface RefundResult {
  outRefundNo: string
  outTradeNo: string
  /** The provider's refund id. */
  refundId: string | null
  state: RefundState
  refundFen: number
  /** When it reached the payer (ISO), null before. */
  succeededAt: string | null
}

/** Headers as received (lower-case names) and the body exactly as received. */
export interface RawNotification {
  headers: Record<string, string | undefined>
  rawBody: string
}

export interface PaymentProvider {
  readonly name: PaymentProviderName
  /** Whether paying works at all (false: every call throws PaymentNotConfigured). */
  readonly configured: boolean
  /** Creates the provider's order; calling it again for the same outTradeNo is allowed. */
  prepay(input: PrepayInput): Promise<PrepayResult>
  /** The order's state now (the path when a notification is late); null: the provider has none. */
  queryPayment(outTradeNo: string): Promise<PaymentResult | null>
  /** Closes an unpaid order (15 minutes passed, or the patient cancelled). */
  closeOrder(outTradeNo: string): Promise<void>
  /** Verifies and decrypts a payment notification; throws PaymentNotificationRejected. */
  parsePaymentNotification(notification: RawNotification): Promise<PaymentResult>
  /** Asks for a refund; a 200 only means accepted (state PROCESSING usually). Same outRefundNo on retry. */
  refund(input: RefundInput): Promise<RefundResult>
  queryRefund(outRefundNo: string): Promise<RefundResult | null>
  /** Verifies and decrypts a refund notification; throws PaymentNotificationRejected. */
  parseRefundNotification(notification: RawNotification): Promise<RefundResult>
}

export class PaymentNotConfigured extends Error {
  override name = 'PaymentNotConfigured'
  constructor() {
    super(PAYMENT_NOT_CONFIGURED)
  }
}

/** A notification that failed verification (signature, timestamp, serial, decryption, shape). */
export class PaymentNotificationRejected extends Error {
  override name = 'PaymentNotificationRejected'
}

/**
 * The provider understood the request and refused it (WeChat: a 4xx with its error JSON). `message` is
 * Chinese and safe to show; `code` is the provider's (ORDERPAID, ORDER_CLOSED, NOT_ENOUGH, …) for the
 * domain to branch on and for the log. Retrying the same request gets the same answer.
 */
export class PaymentRequestRefused extends Error {
  override name = 'PaymentRequestRefused'
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
  ) {
    super(message)
  }
}

/** The provider could not be reached or answered unclearly: retry later with the same numbers. */
export class PaymentProviderUnavailable extends Error {
  override name = 'PaymentProviderUnavailable'
}
