import {
  createDecipheriv,
  createSign,
  createVerify,
  type KeyObject,
  randomBytes,
} from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import { z } from 'zod'
import type { WechatPayConfig } from '../../config'
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
 * with the APIv3 key (AEAD_AES_256_GCM). Node's crypto and fetch only.
 */

export const PAYMENT_UNAVAILABLE = '支付服务暂不可用，请稍后再试'
/** How far a signed timestamp (answer or notification) may be from our clock. */
export const MAX_CLOCK_SKEW_MS = 5 * 60_000
const SCHEME = 'WECHATPAY2-SHA256-RSA2048'
const DEFAULT_TIMEOUT_MS = 10_000

export type PaymentLog = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>

export interface WechatPayOptions {
  log: PaymentLog
  now?: () => Date
  /** Per request, answer included (AbortSignal.timeout); default 10 s. */
  timeoutMs?: number
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

export function rsaSign(message: string, key: KeyObject): string {
  return createSign('RSA-SHA256').update(message, 'utf8').sign(key, 'base64')
}

export function rsaVerify(message: string, signature: string, key: KeyObject): boolean {
  try {
    return createVerify('RSA-SHA256').update(message, 'utf8').verify(key, signature, 'base64')
  } catch {
    return false
  }
}

/** WeChat's time_expire: RFC 3339 in Beijing time (2025-06-08T10:34:56+08:00). */
export function beijingTime(date: Date): string {
  return new Date(date.getTime() + 8 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, '+08:00')
}

const isoOrNull = (text: string | undefined) => (text ? new Date(text).toISOString() : null)

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

const Envelope = z.object({
  id: z.string(),
  event_type: z.string(),
  resource_type: z.literal('encrypt-resource'),
  resource: z.object({
    algorithm: z.literal('AEAD_AES_256_GCM'),
    ciphertext: z.string(),
    nonce: z.string(),
    associated_data: z.string().optional(),
    original_type: z.string(),
  }),
})

const ErrorBody = z.object({ code: z.string(), message: z.string().optional() })

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
  { log, now = () => new Date(), timeoutMs = DEFAULT_TIMEOUT_MS }: WechatPayOptions,
): PaymentProvider {
  const unavailable = () => new PaymentProviderUnavailable(PAYMENT_UNAVAILABLE)

  /** Why a signed message (answer or notification) is not WeChat's; null when it is. */
  function signatureProblem(header: (name: string) => string | undefined, body: string) {
    const serial = header('wechatpay-serial')
    const timestamp = header('wechatpay-timestamp')
    const nonce = header('wechatpay-nonce')
    const signature = header('wechatpay-signature')
    if (!serial || !timestamp || !nonce || !signature) return 'missing Wechatpay-* headers'
    if (serial !== config.platformPublicKeyId) return `unknown Wechatpay-Serial ${serial}`
    if (!/^\d{1,12}$/.test(timestamp)) return 'bad Wechatpay-Timestamp'
    if (Math.abs(now().getTime() - Number(timestamp) * 1000) > MAX_CLOCK_SKEW_MS) {
      return 'Wechatpay-Timestamp more than 5 minutes off'
    }
    const message = `${timestamp}\n${nonce}\n${body}\n`
    return rsaVerify(message, signature, config.platformPublicKey) ? null : 'signature mismatch'
  }

  /**
   * One signed call. Returns the verified JSON (null for 204), or null for a 404 the caller allows;
   * throws PaymentProviderUnavailable (network, timeout, 5xx, 429, an unverifiable answer) or
   * PaymentRequestRefused (any other 4xx).
   */
  async function call(
    method: 'GET' | 'POST',
    pathAndQuery: string,
    body?: object,
    { notFoundIsNull = false } = {},
  ): Promise<unknown> {
    const url = new URL(config.baseUrl + pathAndQuery)
    const text = body === undefined ? '' : JSON.stringify(body)
    const timestamp = Math.floor(now().getTime() / 1000).toString()
    const nonce = randomBytes(16).toString('hex').toUpperCase()
    const signature = rsaSign(
      `${method}\n${url.pathname}${url.search}\n${timestamp}\n${nonce}\n${text}\n`,
      config.privateKey,
    )
    const authorization =
      `${SCHEME} mchid="${config.mchid}",nonce_str="${nonce}",signature="${signature}",` +
      `timestamp="${timestamp}",serial_no="${config.merchantSerial}"`
    const where = { method, path: url.pathname }
    let response: Response
    let answer: string
    try {
      response = await fetch(url, {
        method,
        headers: {
          Accept: 'application/json',
          'Content-Type': 'application/json',
          'User-Agent': 'yingxiang-server',
          Authorization: authorization,
        },
        ...(body === undefined ? {} : { body: text }),
        signal: AbortSignal.timeout(timeoutMs),
      })
      answer = await response.text()
    } catch (error) {
      const reason = error instanceof Error ? error.name : 'unknown'
      log.warn({ ...where, reason }, '微信支付接口无法访问')
      throw unavailable()
    }
    if (response.status >= 500) {
      log.warn({ ...where, status: response.status }, '微信支付接口暂不可用')
      throw unavailable()
    }
    const problem = signatureProblem((name) => response.headers.get(name) ?? undefined, answer)
    if (problem) {
      log.error({ ...where, status: response.status, problem }, '微信支付应答签名验证失败')
      throw unavailable()
    }
    let json: unknown = null
    try {
      json = answer === '' ? null : JSON.parse(answer)
    } catch {
      log.error({ ...where, status: response.status }, '微信支付应答不是 JSON')
      throw unavailable()
    }
    if (response.ok) return json
    const error = ErrorBody.safeParse(json)
    const code = error.success ? error.data.code : `HTTP_${response.status}`
    if (response.status === 404 && notFoundIsNull) return null
    const fields = { ...where, status: response.status, code, wechatMessage: error.data?.message }
    if (response.status === 429) {
      log.warn(fields, '微信支付请求过于频繁')
      throw unavailable()
    }
    log.warn(fields, '微信支付拒绝了请求')
    throw new PaymentRequestRefused(REFUSALS[code] ?? PAYMENT_UNAVAILABLE, code, response.status)
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
    const reject = (why: string): never => {
      log.warn({ why }, '微信支付通知验证失败，已拒绝')
      throw new PaymentNotificationRejected(why)
    }
    const problem = signatureProblem((name) => notification.headers[name], notification.rawBody)
    if (problem) reject(problem)
    let envelope: z.infer<typeof Envelope>
    try {
      envelope = Envelope.parse(JSON.parse(notification.rawBody))
    } catch {
      return reject('not a WeChat Pay notification envelope')
    }
    const { resource } = envelope
    if (resource.original_type !== originalType) reject(`not a ${originalType} notification`)
    let plain: string
    try {
      const sealed = Buffer.from(resource.ciphertext, 'base64')
      if (sealed.length <= 16) throw new Error('short')
      const decipher = createDecipheriv(
        'aes-256-gcm',
        config.apiv3Key,
        Buffer.from(resource.nonce, 'utf8'),
      )
      decipher.setAAD(Buffer.from(resource.associated_data ?? '', 'utf8'))
      decipher.setAuthTag(sealed.subarray(sealed.length - 16))
      plain = Buffer.concat([
        decipher.update(sealed.subarray(0, sealed.length - 16)),
        decipher.final(),
      ]).toString('utf8')
    } catch {
      return reject('resource does not decrypt (AEAD_AES_256_GCM)')
    }
    try {
      return JSON.parse(plain) as unknown
    } catch {
      return reject('resource is not JSON')
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
