import {
  createCipheriv,
  createSign,
  createVerify,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  randomUUID,
} from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { RawNotification } from '../../src/providers/payments'

/*
 * A local WeChat Pay (APIv3) for tests: node:http on 127.0.0.1, WeChat's JSON shapes and error
 * codes, its own platform key pair (微信支付公钥 mode, PUB_KEY_ID_…). It checks the merchant's
 * Authorization signature on every request (401 SIGN_ERROR otherwise), signs every answer, keeps
 * orders and refunds in memory, and plays the payer (`pay`) and the bank (`completeRefund`), handing
 * back the notification WeChat would post: signed, resource encrypted with AEAD_AES_256_GCM.
 *
 * Its crypto is written here from WeChat's documentation, not imported from the adapter, so the
 * adapter is checked against the format rather than against itself.
 *
 * More endpoints (issue 22: 商家转账) are one `route(method, pattern, handler)` call each; a handler
 * gets the parsed request and answers `{ status, body }`, and the stand-in signs it.
 */

export interface StandinMerchant {
  mchid: string
  appid: string
  /** The merchant certificate's serial the Authorization header must name. */
  serial: string
  /** The merchant's public key: the stand-in verifies request signatures with it. */
  publicKey: KeyObject
  /** The 32-byte APIv3 key notifications are encrypted with. */
  apiv3Key: Buffer
}

export interface StandinRequest {
  method: string
  /** The path without the query. */
  path: string
  query: URLSearchParams
  /** The route pattern's capture groups, decoded. */
  params: string[]
  /** The JSON body (undefined for none). */
  body: any // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface StandinReply {
  status: number
  /** JSON; omitted for 204. */
  body?: unknown
}

export type StandinHandler = (request: StandinRequest, standin: WechatPayStandin) => StandinReply

/**
 * What the next requests suffer: `error500` (SYSTEM_ERROR), `hang` (never answered: the client's
 * timeout), `badSignature` (handled, but the answer is signed with a key nobody knows),
 * `wrongSerial` (handled and signed, but naming a Wechatpay-Serial the merchant was never given).
 */
export type StandinFault = 'error500' | 'hang' | 'badSignature' | 'wrongSerial'

/** How to spoil a notification (each names one check the adapter must make). */
export interface NotificationSpoilers {
  /** Sign with this key instead of the platform's. */
  signWith?: KeyObject
  /** Send this Wechatpay-Serial. */
  serial?: string
  /** Send this Wechatpay-Timestamp (seconds). */
  timestamp?: number
  /** Flip a byte of the ciphertext (the envelope is then signed correctly). */
  tamperCiphertext?: boolean
  /** Fields replacing the resource's own (mchid: another merchant's). */
  resource?: Record<string, unknown>
}

export interface StandinOrder {
  appid: string
  mchid: string
  out_trade_no: string
  description: string
  notify_url: string
  time_expire: string
  prepay_id: string
  total: number
  openid: string
  trade_state: 'NOTPAY' | 'SUCCESS' | 'CLOSED' | 'REFUND'
  transaction_id?: string
  success_time?: string
}

export interface StandinRefund {
  refund_id: string
  out_refund_no: string
  out_trade_no: string
  transaction_id: string
  reason: string
  notify_url?: string
  refund: number
  total: number
  status: 'PROCESSING' | 'SUCCESS' | 'CLOSED' | 'ABNORMAL'
  create_time: string
  success_time?: string
}

export const STANDIN_PUBLIC_KEY_ID = 'PUB_KEY_ID_0116000000002025000000000000000001'

/** RFC 3339 in Beijing time, as WeChat writes times. */
export function wechatTime(date: Date): string {
  return new Date(date.getTime() + 8 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, '+08:00')
}

const digits = (length: number) =>
  Array.from(randomBytes(length), (byte) => String(byte % 10)).join('')

const error = (status: number, code: string, message: string): StandinReply => ({
  status,
  body: { code, message },
})

export class WechatPayStandin {
  readonly platformPublicKeyId = STANDIN_PUBLIC_KEY_ID
  readonly platformPublicKey: KeyObject
  readonly orders = new Map<string, StandinOrder>()
  readonly refunds = new Map<string, StandinRefund>()
  /** Every request, in order, with the status it got ('hang': none). */
  readonly calls: { method: string; path: string; status: number | 'hang' }[] = []
  baseUrl = ''
  private readonly platformPrivateKey: KeyObject
  private readonly routes: { method: string; pattern: RegExp; handler: StandinHandler }[] = []
  private readonly faults: StandinFault[] = []
  private server: Server | undefined

  private constructor(
    readonly merchant: StandinMerchant,
    readonly now: () => Date,
  ) {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 })
    this.platformPrivateKey = pair.privateKey
    this.platformPublicKey = pair.publicKey
    registerPayments(this)
    registerRefunds(this)
  }

  static async start(
    merchant: StandinMerchant,
    options: { now?: () => Date } = {},
  ): Promise<WechatPayStandin> {
    const standin = new WechatPayStandin(merchant, options.now ?? (() => new Date()))
    const server = createServer((req, res) => void standin.handle(req, res))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    standin.server = server
    standin.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    return standin
  }

  async stop(): Promise<void> {
    const server = this.server
    if (!server) return
    this.server = undefined
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }

  /** Adds an endpoint; `pattern` matches the whole path (its groups become `params`). */
  route(method: string, pattern: RegExp, handler: StandinHandler): void {
    this.routes.push({ method, pattern, handler })
  }

  /** The next `times` requests suffer `fault`. */
  failNext(fault: StandinFault, times = 1): void {
    for (let i = 0; i < times; i++) this.faults.push(fault)
  }

  /** The payer pays: the order turns SUCCESS; returns WeChat's TRANSACTION.SUCCESS notification. */
  pay(outTradeNo: string, spoilers: NotificationSpoilers = {}): RawNotification {
    const order = this.orders.get(outTradeNo)
    if (!order) throw new Error(`stand-in: no order ${outTradeNo}`)
    if (order.trade_state === 'NOTPAY') {
      order.trade_state = 'SUCCESS'
      order.transaction_id = `4200${digits(24)}`
      order.success_time = wechatTime(this.now())
    }
    return this.notification(
      'TRANSACTION.SUCCESS',
      'transaction',
      transactionJson(order),
      '支付成功',
      spoilers,
    )
  }

  /** The refund reaches the payer (or fails): returns WeChat's REFUND.* notification. */
  completeRefund(
    outRefundNo: string,
    status: 'SUCCESS' | 'ABNORMAL' | 'CLOSED' = 'SUCCESS',
    spoilers: NotificationSpoilers = {},
  ): RawNotification {
    const refund = this.refunds.get(outRefundNo)
    if (!refund) throw new Error(`stand-in: no refund ${outRefundNo}`)
    refund.status = status
    if (status === 'SUCCESS') refund.success_time = wechatTime(this.now())
    const resource = {
      mchid: this.merchant.mchid,
      out_trade_no: refund.out_trade_no,
      transaction_id: refund.transaction_id,
      out_refund_no: refund.out_refund_no,
      refund_id: refund.refund_id,
      refund_status: refund.status,
      ...(refund.success_time ? { success_time: refund.success_time } : {}),
      user_received_account: '支付用户零钱',
      amount: {
        total: refund.total,
        refund: refund.refund,
        payer_total: refund.total,
        payer_refund: refund.refund,
      },
    }
    const summary = { SUCCESS: '退款成功', ABNORMAL: '退款异常', CLOSED: '退款关闭' }[status]
    return this.notification(`REFUND.${status}`, 'refund', resource, summary, spoilers)
  }

  /** A notification in WeChat's envelope, resource encrypted and the whole body signed. */
  notification(
    eventType: string,
    originalType: string,
    resource: Record<string, unknown>,
    summary: string,
    spoilers: NotificationSpoilers = {},
  ): RawNotification {
    const nonce = randomBytes(9).toString('base64url') // 12 characters, as WeChat's
    const associatedData = originalType
    const cipher = createCipheriv('aes-256-gcm', this.merchant.apiv3Key, Buffer.from(nonce))
    cipher.setAAD(Buffer.from(associatedData))
    const plain = JSON.stringify({ ...resource, ...spoilers.resource })
    const sealed = Buffer.concat([
      cipher.update(plain, 'utf8'),
      cipher.final(),
      cipher.getAuthTag(),
    ])
    if (spoilers.tamperCiphertext) sealed[0] = sealed[0]! ^ 0xff
    const rawBody = JSON.stringify({
      id: randomUUID(),
      create_time: wechatTime(this.now()),
      resource_type: 'encrypt-resource',
      event_type: eventType,
      summary,
      resource: {
        original_type: originalType,
        algorithm: 'AEAD_AES_256_GCM',
        ciphertext: sealed.toString('base64'),
        associated_data: associatedData,
        nonce,
      },
    })
    const headers = Object.fromEntries(
      Object.entries(this.signatureHeaders(rawBody, spoilers)).map(([name, value]) => [
        name.toLowerCase(),
        value,
      ]),
    )
    return { headers, rawBody }
  }

  /** POSTs a notification to `url` as WeChat does, `times` times; the statuses it got. */
  async deliver(url: string, notification: RawNotification, times = 1): Promise<number[]> {
    const statuses: number[] = []
    for (let i = 0; i < times; i++) {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          ...(notification.headers as Record<string, string>),
          'content-type': 'application/json',
        },
        body: notification.rawBody,
      })
      await response.arrayBuffer()
      statuses.push(response.status)
    }
    return statuses
  }

  /** Wechatpay-* headers over `timestamp\nnonce\nbody\n`. */
  signatureHeaders(body: string, spoilers: NotificationSpoilers = {}): Record<string, string> {
    const timestamp = String(spoilers.timestamp ?? Math.floor(this.now().getTime() / 1000))
    const nonce = randomBytes(16).toString('hex')
    const signature = createSign('RSA-SHA256')
      .update(`${timestamp}\n${nonce}\n${body}\n`)
      .sign(spoilers.signWith ?? this.platformPrivateKey, 'base64')
    return {
      'Wechatpay-Timestamp': timestamp,
      'Wechatpay-Nonce': nonce,
      'Wechatpay-Signature': signature,
      'Wechatpay-Serial': spoilers.serial ?? this.platformPublicKeyId,
      'Wechatpay-Signature-Type': 'WECHATPAY2-SHA256-RSA2048',
    }
  }

  /** Why the Authorization header is not the merchant's; null when it is. */
  private authorizationProblem(req: IncomingMessage, body: string): string | null {
    const header = req.headers.authorization ?? ''
    const prefix = 'WECHATPAY2-SHA256-RSA2048 '
    if (!header.startsWith(prefix)) return 'scheme'
    const fields = Object.fromEntries(
      header
        .slice(prefix.length)
        .split(',')
        .map((part) => /^\s*(\w+)="?([^"]*)"?\s*$/.exec(part))
        .filter((match) => match !== null)
        .map((match) => [match[1], match[2]]),
    ) as Record<string, string | undefined>
    const { mchid, nonce_str, signature, timestamp, serial_no } = fields
    if (!mchid || !nonce_str || !signature || !timestamp || !serial_no) return 'fields'
    if (mchid !== this.merchant.mchid) return 'mchid'
    if (serial_no !== this.merchant.serial) return 'serial'
    if (Math.abs(this.now().getTime() / 1000 - Number(timestamp)) > 300) return 'timestamp'
    const message = `${req.method}\n${req.url}\n${timestamp}\n${nonce_str}\n${body}\n`
    const ok = createVerify('RSA-SHA256')
      .update(message)
      .verify(this.merchant.publicKey, signature, 'base64')
    return ok ? null : 'signature'
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const text = Buffer.concat(chunks).toString('utf8')
    const url = new URL(req.url ?? '/', 'http://standin')
    const call = { method: req.method ?? '', path: url.pathname, status: 0 as number | 'hang' }
    this.calls.push(call)
    const fault = this.faults.shift()
    if (fault === 'hang') {
      call.status = 'hang'
      return
    }
    const reply = ((): StandinReply => {
      if (fault === 'error500') return error(500, 'SYSTEM_ERROR', '系统错误')
      if (this.authorizationProblem(req, text)) return error(401, 'SIGN_ERROR', '签名错误')
      let body: unknown
      try {
        body = text === '' ? undefined : JSON.parse(text)
      } catch {
        return error(400, 'PARAM_ERROR', '请求体不是 JSON')
      }
      for (const route of this.routes) {
        const match = route.method === req.method ? route.pattern.exec(url.pathname) : null
        if (!match) continue
        const params = match.slice(1).map((value) => decodeURIComponent(value ?? ''))
        return route.handler(
          { method: route.method, path: url.pathname, query: url.searchParams, params, body },
          this,
        )
      }
      return error(404, 'RESOURCE_NOT_EXISTS', '接口不存在')
    })()
    call.status = reply.status
    const answer = reply.body === undefined ? '' : JSON.stringify(reply.body)
    const spoilers: NotificationSpoilers =
      fault === 'badSignature'
        ? { signWith: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey }
        : fault === 'wrongSerial'
          ? { serial: 'PUB_KEY_ID_0116999999999999999999999999999999' }
          : {}
    res.writeHead(reply.status, {
      ...(answer ? { 'Content-Type': 'application/json' } : {}),
      'Request-ID': randomUUID(),
      ...this.signatureHeaders(answer, spoilers),
    })
    res.end(answer)
  }
}

/** The query answer's shape (also a payment notification's resource). */
function transactionJson(order: StandinOrder): Record<string, unknown> {
  return {
    appid: order.appid,
    mchid: order.mchid,
    out_trade_no: order.out_trade_no,
    ...(order.transaction_id ? { transaction_id: order.transaction_id } : {}),
    trade_type: 'JSAPI',
    trade_state: order.trade_state,
    trade_state_desc: {
      NOTPAY: '未支付',
      SUCCESS: '支付成功',
      CLOSED: '已关闭',
      REFUND: '转入退款',
    }[order.trade_state],
    ...(order.transaction_id ? { bank_type: 'OTHERS', success_time: order.success_time } : {}),
    attach: '',
    payer: { openid: order.openid },
    amount:
      order.trade_state === 'NOTPAY' || order.trade_state === 'CLOSED'
        ? { total: order.total, currency: 'CNY' }
        : { total: order.total, payer_total: order.total, currency: 'CNY', payer_currency: 'CNY' },
  }
}

function refundJson(refund: StandinRefund): Record<string, unknown> {
  return {
    refund_id: refund.refund_id,
    out_refund_no: refund.out_refund_no,
    transaction_id: refund.transaction_id,
    out_trade_no: refund.out_trade_no,
    channel: 'ORIGINAL',
    user_received_account: '支付用户零钱',
    ...(refund.success_time ? { success_time: refund.success_time } : {}),
    create_time: refund.create_time,
    status: refund.status,
    funds_account: 'AVAILABLE',
    amount: {
      total: refund.total,
      refund: refund.refund,
      from: [],
      payer_total: refund.total,
      payer_refund: refund.refund,
      settlement_refund: refund.refund,
      settlement_total: refund.total,
      discount_refund: 0,
      currency: 'CNY',
    },
    promotion_detail: [],
  }
}

const isFen = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value > 0

function registerPayments(standin: WechatPayStandin): void {
  const { merchant } = standin
  standin.route('POST', /^\/v3\/pay\/transactions\/jsapi$/, ({ body }) => {
    if (body?.mchid !== merchant.mchid || body?.appid !== merchant.appid) {
      return error(400, 'APPID_MCHID_NOT_MATCH', 'appid和mch_id不匹配')
    }
    const { out_trade_no, description, notify_url, time_expire, amount, payer } = body
    if (
      typeof out_trade_no !== 'string' ||
      !/^[A-Za-z0-9_*|-]{6,32}$/.test(out_trade_no) ||
      typeof description !== 'string' ||
      typeof notify_url !== 'string' ||
      !/^https?:\/\//.test(notify_url) ||
      (time_expire !== undefined && !/\+08:00$|Z$/.test(String(time_expire))) ||
      !isFen(amount?.total) ||
      typeof payer?.openid !== 'string'
    ) {
      return error(400, 'PARAM_ERROR', '参数错误')
    }
    const existing = standin.orders.get(out_trade_no)
    if (existing) {
      if (existing.trade_state === 'SUCCESS' || existing.trade_state === 'REFUND') {
        return error(403, 'ORDERPAID', '该订单已支付')
      }
      if (existing.trade_state === 'CLOSED') return error(400, 'ORDER_CLOSED', '订单已关闭')
      if (existing.total !== amount.total || existing.description !== description) {
        return error(403, 'OUT_TRADE_NO_USED', '商户订单号重复')
      }
      return { status: 200, body: { prepay_id: existing.prepay_id } }
    }
    const order: StandinOrder = {
      appid: merchant.appid,
      mchid: merchant.mchid,
      out_trade_no,
      description,
      notify_url,
      time_expire: String(time_expire ?? ''),
      prepay_id: `wx${randomBytes(16).toString('hex')}`,
      total: amount.total,
      openid: payer.openid,
      trade_state: 'NOTPAY',
    }
    standin.orders.set(out_trade_no, order)
    return { status: 200, body: { prepay_id: order.prepay_id } }
  })

  standin.route('GET', /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)$/, (request) => {
    if (request.query.get('mchid') !== merchant.mchid) return error(400, 'PARAM_ERROR', 'mchid')
    const order = standin.orders.get(request.params[0]!)
    if (!order) return error(404, 'ORDER_NOT_EXIST', '订单不存在')
    return { status: 200, body: transactionJson(order) }
  })

  standin.route('POST', /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)\/close$/, (request) => {
    if (request.body?.mchid !== merchant.mchid) return error(400, 'PARAM_ERROR', 'mchid')
    const order = standin.orders.get(request.params[0]!)
    if (!order) return error(404, 'ORDER_NOT_EXIST', '订单不存在')
    if (order.trade_state === 'SUCCESS' || order.trade_state === 'REFUND') {
      return error(400, 'ORDERPAID', '订单已支付')
    }
    order.trade_state = 'CLOSED'
    return { status: 204 }
  })
}

function registerRefunds(standin: WechatPayStandin): void {
  standin.route('POST', /^\/v3\/refund\/domestic\/refunds$/, ({ body }) => {
    const { out_trade_no, out_refund_no, reason, notify_url, amount } = body ?? {}
    if (
      typeof out_trade_no !== 'string' ||
      typeof out_refund_no !== 'string' ||
      !isFen(amount?.refund) ||
      !isFen(amount?.total) ||
      amount?.currency !== 'CNY'
    ) {
      return error(400, 'PARAM_ERROR', '参数错误')
    }
    const existing = standin.refunds.get(out_refund_no)
    if (existing) {
      // A retry with the same out_refund_no is the same refund.
      if (existing.out_trade_no !== out_trade_no || existing.refund !== amount.refund) {
        return error(400, 'INVALID_REQUEST', '退款单号已被其他退款使用')
      }
      return { status: 200, body: refundJson(existing) }
    }
    const order = standin.orders.get(out_trade_no)
    if (!order) return error(404, 'RESOURCE_NOT_EXISTS', '订单不存在')
    if (!order.transaction_id) return error(400, 'INVALID_REQUEST', '订单未支付')
    if (amount.total !== order.total) return error(400, 'PARAM_ERROR', '订单金额不符')
    const refunded = [...standin.refunds.values()]
      .filter((refund) => refund.out_trade_no === out_trade_no && refund.status !== 'CLOSED')
      .reduce((sum, refund) => sum + refund.refund, 0)
    if (refunded + amount.refund > order.total) {
      return error(400, 'INVALID_REQUEST', '申请退款金额超过订单可退金额')
    }
    const refund: StandinRefund = {
      refund_id: `5030${digits(25)}`,
      out_refund_no,
      out_trade_no,
      transaction_id: order.transaction_id,
      reason: String(reason ?? ''),
      ...(typeof notify_url === 'string' ? { notify_url } : {}),
      refund: amount.refund,
      total: amount.total,
      status: 'PROCESSING',
      create_time: wechatTime(standin.now()),
    }
    standin.refunds.set(out_refund_no, refund)
    order.trade_state = 'REFUND'
    return { status: 200, body: refundJson(refund) }
  })

  standin.route('GET', /^\/v3\/refund\/domestic\/refunds\/([^/]+)$/, (request) => {
    const refund = standin.refunds.get(request.params[0]!)
    if (!refund) return error(404, 'RESOURCE_NOT_EXISTS', '退款单不存在')
    return { status: 200, body: refundJson(refund) }
  })
}
