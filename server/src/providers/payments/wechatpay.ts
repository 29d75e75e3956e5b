import { randomBytes } from 'node:crypto'
import { z } from 'zod'
import type { WechatPayConfig } from '../../config'
import {
  beijingTime,
  createWechatPayClient,
  DEFAULT_TIMEOUT_MS,
  isoOrNull,
  rsaSign,
  WechatPayApiError,
  type WechatPayLog,
  WechatPayNotificationInvalid,
} from '../wechatpay-v3'
import {
  type PaymentProvider,
  type PaymentResult,
  PaymentNotificationRejected,
  PaymentProviderUnavailable,
  PaymentRequestRefused,
  type PrepayInput,
  type PrepayResult,
  type RawNotification,
  type RefundInput,
  type RefundResult,
} from './types'

/*
 * WeChat Pay APIv3 for JSAPI (mini-program / official-account payments), in 微信支付公钥 mode: every
 * request is signed with the merchant's RSA key, every answer and notification is verified with the
 * platform's public key before anything in it is believed, and notification resources are decrypted
 * with the APIv3 key (AEAD_AES_256_GCM). The signing, verifying and decrypting live in
 * providers/wechatpay-v3 (shared with 商家转账); this file knows the payment endpoints.
 */

export const PAYMENT_UNAVAILABLE = '支付服务暂不可用，请稍后再试'

export type PaymentLog = WechatPayLog

export interface WechatPayOptions {
  log: PaymentLog
  now?: () => Date
  /** Per request, answer included (AbortSignal.timeout); default 10 s. */
  timeoutMs?: number
  /** Default: the global fetch. */
  fetch?: typeof fetch
}

/** Chinese texts for WeChat's refusals a person may see; any other code reads PAYMENT_UNAVAILABLE. */
const REFUSALS: Record<string, string> = {
  ORDERPAID: '订单已支付，请勿重复付款',
  ORDER_CLOSED: '订单已关闭，请重新下单',
  OUT_TRADE_NO_USED: '订单号已被使用，请重新下单',
  NOT_ENOUGH: '商户可退款余额不足，退款将稍后处理',
  USER_ACCOUNT_ABNORMAL: '付款人的微信账户异常，无法原路退款',
  ACCOUNT_ERROR: '付款人的微信账户异常，无法原路退款',
  PAYER_OPENID_MISSING: '请在微信中打开后再支付',
}

// --- The shapes read from WeChat (unknown fields are dropped) -----------------------------------

const Transaction = z.object({
  appid: z.string(),
  mchid: z.string(),
  out_trade_no: z.string(),
  transaction_id: z.string().optional(),
  trade_state: z.enum([
    'SUCCESS',
    'REFUND',
    'NOTPAY',
    'CLOSED',
    'REVOKED',
    'USERPAYING',
    'PAYERROR',
  ]),
  success_time: z.string().optional(),
  amount: z.object({ total: z.number().int().optional() }).optional(),
})

const RefundStatus = z.enum(['SUCCESS', 'PROCESSING', 'CLOSED', 'ABNORMAL'])
const RefundAmount = z.object({ refund: z.number().int(), total: z.number().int() })

const Refund = z.object({
  refund_id: z.string(),
  out_refund_no: z.string(),
  out_trade_no: z.string(),
  status: RefundStatus,
  success_time: z.string().optional(),
  amount: RefundAmount,
})

/** A refund notification's resource: refund_status where the API says status, and mchid. */
const RefundResource = z.object({
  mchid: z.string(),
  out_trade_no: z.string(),
  out_refund_no: z.string(),
  refund_id: z.string(),
  refund_status: RefundStatus,
  success_time: z.string().optional(),
  amount: RefundAmount,
})

function toPaymentResult(data: z.infer<typeof Transaction>): PaymentResult {
  return {
    outTradeNo: data.out_trade_no,
    transactionId: data.transaction_id ?? null,
    state: data.trade_state,
    amountFen: data.amount?.total ?? null,
    paidAt: data.trade_state === 'SUCCESS' ? isoOrNull(data.success_time) : null,
  }
}

function toRefundResult(data: {
  refund_id: string
  out_refund_no: string
  out_trade_no: string
  status: RefundResult['state']
  success_time?: string | undefined
  amount: { refund: number }
}): RefundResult {
  return {
    outRefundNo: data.out_refund_no,
    outTradeNo: data.out_trade_no,
    refundId: data.refund_id,
    state: data.status,
    refundFen: data.amount.refund,
    succeededAt: data.status === 'SUCCESS' ? isoOrNull(data.success_time) : null,
  }
}

export function wechatPayProvider(
  config: WechatPayConfig,
  { log, now = () => new Date(), timeoutMs = DEFAULT_TIMEOUT_MS, fetch }: WechatPayOptions,
): PaymentProvider {
  const client = createWechatPayClient(config, {
    log,
    now,
    timeoutMs,
    ...(fetch ? { fetch } : {}),
  })
  const unavailable = () => new PaymentProviderUnavailable(PAYMENT_UNAVAILABLE)

  /**
   * One signed call (providers/wechatpay-v3): the verified JSON, or null for a 204 and for a signed
   * 404 the caller allows; PaymentProviderUnavailable for network, timeout, 5xx, 429 and
   * unverifiable answers, PaymentRequestRefused for any other 4xx.
   */
  async function call(
    method: 'GET' | 'POST',
    pathAndQuery: string,
    body?: object,
    options: { notFoundIsNull?: boolean } = {},
  ): Promise<unknown> {
    try {
      return await client.call(method, pathAndQuery, body, options)
    } catch (error) {
      if (error instanceof WechatPayApiError) {
        throw new PaymentRequestRefused(
          REFUSALS[error.code] ?? PAYMENT_UNAVAILABLE,
          error.code,
          error.status,
        )
      }
      throw unavailable()
    }
  }

  /** A verified answer of the expected shape, or PaymentProviderUnavailable. */
  function shaped<T>(schema: z.ZodType<T>, json: unknown, what: string): T {
    const parsed = schema.safeParse(json)
    if (!parsed.success) {
      log.error({ what }, '微信支付应答格式不符')
      throw unavailable()
    }
    return parsed.data
  }

  /** Verifies and decrypts a notification; its resource, parsed, or PaymentNotificationRejected. */
  function openNotification(notification: RawNotification, originalType: string): unknown {
    try {
      return client.openNotification(notification, originalType).resource
    } catch (error) {
      if (error instanceof WechatPayNotificationInvalid) {
        throw new PaymentNotificationRejected(error.message)
      }
      throw error
    }
  }

  return {
    name: 'wechatpay',
    configured: true,

    async prepay(input: PrepayInput): Promise<PrepayResult> {
      if (!input.payerOpenid) {
        throw new PaymentRequestRefused(REFUSALS.PAYER_OPENID_MISSING!, 'PAYER_OPENID_MISSING', 400)
      }
      const json = await call('POST', '/v3/pay/transactions/jsapi', {
        appid: config.appid,
        mchid: config.mchid,
        description: input.description,
        out_trade_no: input.outTradeNo,
        time_expire: beijingTime(input.expiresAt),
        notify_url: input.notifyUrl,
        amount: { total: input.amountFen, currency: 'CNY' },
        payer: { openid: input.payerOpenid },
      })
      const { prepay_id } = shaped(z.object({ prepay_id: z.string() }), json, 'prepay')
      const timeStamp = Math.floor(now().getTime() / 1000).toString()
      const nonceStr = randomBytes(16).toString('hex')
      const pkg = `prepay_id=${prepay_id}`
      const paySign = rsaSign(
        `${config.appid}\n${timeStamp}\n${nonceStr}\n${pkg}\n`,
        config.privateKey,
      )
      return {
        kind: 'jsapi',
        params: {
          appId: config.appid,
          timeStamp,
          nonceStr,
          package: pkg,
          signType: 'RSA',
          paySign,
        },
      }
    },

    async queryPayment(outTradeNo: string) {
      const json = await call(
        'GET',
        `/v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}?mchid=${config.mchid}`,
        undefined,
        { notFoundIsNull: true },
      )
      if (json === null) return null
      const data = shaped(Transaction, json, 'transaction')
      if (data.mchid !== config.mchid || data.out_trade_no !== outTradeNo) {
        log.error({ outTradeNo }, '微信支付查单应答与请求不符')
        throw unavailable()
      }
      return toPaymentResult(data)
    },

    async closeOrder(outTradeNo: string) {
      await call(
        'POST',
        `/v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}/close`,
        { mchid: config.mchid },
      )
    },

    async parsePaymentNotification(notification: RawNotification) {
      const parsed = Transaction.safeParse(openNotification(notification, 'transaction'))
      if (!parsed.success) throw new PaymentNotificationRejected('unexpected transaction shape')
      if (parsed.data.mchid !== config.mchid || parsed.data.appid !== config.appid) {
        log.warn({ outTradeNo: parsed.data.out_trade_no }, '微信支付通知的商户号或 AppID 不符')
        throw new PaymentNotificationRejected('mchid or appid is not ours')
      }
      return toPaymentResult(parsed.data)
    },

    async refund(input: RefundInput) {
      const json = await call('POST', '/v3/refund/domestic/refunds', {
        out_trade_no: input.outTradeNo,
        out_refund_no: input.outRefundNo,
        reason: input.reason,
        ...(input.notifyUrl ? { notify_url: input.notifyUrl } : {}),
        amount: { refund: input.refundFen, total: input.totalFen, currency: 'CNY' },
      })
      return toRefundResult(shaped(Refund, json, 'refund'))
    },

    async queryRefund(outRefundNo: string) {
      const json = await call(
        'GET',
        `/v3/refund/domestic/refunds/${encodeURIComponent(outRefundNo)}`,
        undefined,
        { notFoundIsNull: true },
      )
      return json === null ? null : toRefundResult(shaped(Refund, json, 'refund'))
    },

    async parseRefundNotification(notification: RawNotification) {
      const parsed = RefundResource.safeParse(openNotification(notification, 'refund'))
      if (!parsed.success) throw new PaymentNotificationRejected('unexpected refund shape')
      if (parsed.data.mchid !== config.mchid) {
        log.warn({ outRefundNo: parsed.data.out_refund_no }, '微信支付退款通知的商户号不符')
        throw new PaymentNotificationRejected('mchid is not ours')
      }
      return toRefundResult({ ...parsed.data, status: parsed.data.refund_status })
    },
  }
}
