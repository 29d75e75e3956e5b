import {
  constants,
  createCipheriv,
  createHash,
  createSign,
  createVerify,
  generateKeyPairSync,
  type KeyObject,
  type KeyPairKeyObjectResult,
  privateDecrypt,
  randomBytes,
  randomUUID,
} from 'node:crypto'
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import type { WechatPayAccountType, WechatPayConfig } from '../../src/config'
import type { RawNotification } from '../../src/providers/payments'
import type { TransferState } from '../../src/providers/transfers/types'

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
 * 商家转账 (issue 22) is here too: transfer bills in memory whose states advance as WeChat's do
 * (ACCEPTED → WAIT_USER_CONFIRM → the user confirms → TRANSFERING → SUCCESS / FAIL, or CANCELING →
 * CANCELLED), user_name decrypted with the platform's private key, the merchant's 运营账户 with a
 * balance that a transfer locks and a success debits, and its 资金账单 (fundflowbill → download_url →
 * the CSV file, gzip on request, with its SHA1). More endpoints are one `route(method, pattern,
 * handler)` call each; a handler gets the parsed request and answers `{ status, body }`, and the
 * stand-in signs it.
 *
 * `startTestMerchant()` starts one for the test merchant (keys generated once per process) and gives
 * the WechatPayConfig an adapter needs to talk to it.
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
  headers: IncomingHttpHeaders
}

export interface StandinReply {
  status: number
  /** JSON; omitted for 204. */
  body?: unknown
  /**
   * A file instead of JSON (bill downloads): not signed, as WeChat does; gzip: compressed on the
   * way out (after a tamperBody fault changed a byte of the content).
   */
  file?: { bytes: Buffer; contentType: string; gzip?: boolean }
}

export type StandinHandler = (request: StandinRequest, standin: WechatPayStandin) => StandinReply

/**
 * What the next requests suffer: `error500` (SYSTEM_ERROR), `hang` (never answered: the client's
 * timeout; nothing is done), `lostAnswer` (done, but the answer never arrives: the client's timeout
 * after WeChat acted), `badSignature` (handled, but the answer is signed with a key nobody knows),
 * `wrongSerial` (handled and signed, but naming a Wechatpay-Serial the merchant was never given),
 * `tamperBody` (handled and signed, then the body changed in transit: a JSON answer's "state" reads
 * SUCCESS, a downloaded file has a byte of its content flipped), or a scripted signed error answer.
 */
export type StandinFault =
  | 'error500'
  | 'hang'
  | 'lostAnswer'
  | 'badSignature'
  | 'wrongSerial'
  | 'tamperBody'
  /** A signed error answer instead of handling the request (e.g. 403 FREQUENCY_LIMITED). */
  | { status: number; code: string; message?: string }

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

/** A 商家转账 bill as the stand-in keeps it (WeChat's field names). */
export interface StandinTransferBill {
  mch_id: string
  appid: string
  out_bill_no: string
  transfer_bill_no: string
  transfer_scene_id: string
  openid: string
  /** user_name as the stand-in decrypted it with the platform's private key; null: none sent. */
  userName: string | null
  /** user_name as the last request sent it (RSA-OAEP ciphertext, base64). */
  user_name?: string
  transfer_amount: number
  transfer_remark: string
  notify_url?: string
  transfer_scene_report_infos: { info_type: string; info_content: string }[]
  state: TransferState
  fail_reason?: string
  package_info: string
  create_time: string
  update_time: string
  /** How many create requests named this bill (the first and every retry). */
  requests: number
}

/** One line of a merchant account's 资金账单 (what the account's money did). */
export interface StandinFundFlow {
  account: WechatPayAccountType
  at: Date
  /** 微信支付业务单号 (a transfer's transfer_bill_no). */
  wechatNo: string
  /** 资金流水单号. */
  flowNo: string
  /** 业务名称 and 业务类型: 商家转账 for transfers, 充值/提现 + 充值 for a top-up. */
  business: string
  type: string
  direction: '收入' | '支出'
  fen: number
  /** 账户结余 after the line. */
  balanceFen: number
  /** 资金变更提交申请人. */
  applicant: string
  remark: string
  /** 业务凭证号 (a transfer's out_bill_no). */
  voucher: string
}

export const STANDIN_PUBLIC_KEY_ID = 'PUB_KEY_ID_0116000000002025000000000000000001'

/** 1005 佣金报酬 needs these report fields (transfer_scene_report_infos), each once. */
export const SCENE_1005_REPORT_TYPES = ['岗位类型', '报酬说明']
/** WeChat's per-user daily limit for 商家转账 (20,000 元) and its smallest transfer (0.1 元). */
const USER_DAILY_LIMIT_FEN = 2_000_000
const MIN_TRANSFER_FEN = 10
/** From this amount (2,000 元) user_name is required. */
const USER_NAME_REQUIRED_FEN = 200_000
/** Queries reach bills of the last 30 days only. */
const QUERY_WINDOW_MS = 30 * 24 * 3_600_000
const FINAL_STATES: TransferState[] = ['SUCCESS', 'FAIL', 'CANCELLED']

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
  /** 商家转账 bills by out_bill_no. */
  readonly transfers = new Map<string, StandinTransferBill>()
  /** The merchant accounts' 资金账单 lines, oldest first. */
  readonly fundFlows: StandinFundFlow[] = []
  /** Account balances in fen (the opening balance has no line). */
  readonly balances: Record<WechatPayAccountType, number> = {
    OPERATION: 100_000_000,
    BASIC: 100_000_000,
  }
  /** Fen locked by transfers not yet final (they leave the balance on SUCCESS). */
  lockedFen = 0
  /** The account 商家转账 pays from. */
  transferAccount: WechatPayAccountType = 'OPERATION'
  /** The transfer scenes the merchant has opened (others: 403 NO_AUTH). */
  transferScenes = ['1005']
  /** The state a new bill answers with: WAIT_USER_CONFIRM, or ACCEPTED (then readyTransfer). */
  transferStartState: 'WAIT_USER_CONFIRM' | 'ACCEPTED' = 'WAIT_USER_CONFIRM'
  /** Users' real names by openid: a user_name that differs fails the bill when the user confirms. */
  readonly realNames = new Map<string, string>()
  /** Every request, in order, with the status it got ('hang': none; 'lost': done, never answered). */
  readonly calls: { method: string; path: string; status: number | 'hang' | 'lost' }[] = []
  /** Bill files behind download tokens (valid 30 s). */
  readonly billFiles = new Map<string, { bytes: Buffer; gzip: boolean; expires: number }>()
  baseUrl = ''
  private readonly platformPrivateKey: KeyObject
  private readonly routes: { method: string; pattern: RegExp; handler: StandinHandler }[] = []
  private readonly faults: { fault: StandinFault; path: RegExp | undefined }[] = []
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
    registerTransfers(this)
    registerBills(this)
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

  /**
   * The next `times` requests suffer `fault` (only requests whose path matches `path`, when given:
   * e.g. the bill download after its application).
   */
  failNext(fault: StandinFault, times = 1, path?: RegExp): void {
    for (let i = 0; i < times; i++) this.faults.push({ fault, path })
  }

  // --- 商家转账: what the user and WeChat do ------------------------------------------------------

  private bill(outBillNo: string): StandinTransferBill {
    const bill = this.transfers.get(outBillNo)
    if (!bill) throw new Error(`stand-in: no transfer bill ${outBillNo}`)
    return bill
  }

  private setState(bill: StandinTransferBill, state: TransferState, failReason?: string): void {
    bill.state = state
    bill.update_time = wechatTime(this.now())
    if (failReason) bill.fail_reason = failReason
  }

  /** An ACCEPTED bill becomes WAIT_USER_CONFIRM (WeChat has locked the money). */
  readyTransfer(outBillNo: string): StandinTransferBill {
    const bill = this.bill(outBillNo)
    if (bill.state !== 'ACCEPTED') throw new Error(`stand-in: ${outBillNo} is ${bill.state}`)
    this.setState(bill, 'WAIT_USER_CONFIRM')
    return bill
  }

  /**
   * The user taps 确认收款 in the mini-program (wx.requestMerchantTransfer with mchId, appId and the
   * package): the bill turns TRANSFERING, or FAIL (NAME_NOT_CORRECT) when user_name was sent and is
   * not the user's real name (realNames). Throws like the mini-program would fail: wrong package,
   * wrong merchant or app, or a bill not waiting for the user.
   */
  confirmTransfer(
    outBillNo: string,
    params: { mchId: string; appId: string; packageInfo: string },
  ): StandinTransferBill {
    const bill = this.bill(outBillNo)
    if (bill.state !== 'WAIT_USER_CONFIRM') {
      throw new Error(`stand-in: ${outBillNo} is ${bill.state}, not WAIT_USER_CONFIRM`)
    }
    if (
      params.mchId !== this.merchant.mchid ||
      params.appId !== this.merchant.appid ||
      params.packageInfo !== bill.package_info
    ) {
      throw new Error('stand-in: requestMerchantTransfer with the wrong mchId, appId or package')
    }
    const realName = this.realNames.get(bill.openid)
    if (bill.userName !== null && realName !== undefined && realName !== bill.userName) {
      this.finish(bill, 'FAIL', 'NAME_NOT_CORRECT')
    } else {
      this.setState(bill, 'TRANSFERING')
    }
    return bill
  }

  /**
   * The bill reaches a final state: SUCCESS (from TRANSFERING: the money leaves the account, one
   * 支出 line), FAIL (from any state not final, with a reason), CANCELLED (from ACCEPTED,
   * WAIT_USER_CONFIRM or CANCELING: the user never confirmed, or our cancel went through). Returns
   * WeChat's MCHTRANSFER.BILL.FINISHED notification; again for a bill already there: a duplicate.
   */
  completeTransfer(
    outBillNo: string,
    state: 'SUCCESS' | 'FAIL' | 'CANCELLED' = 'SUCCESS',
    options: { failReason?: string; spoilers?: NotificationSpoilers } = {},
  ): RawNotification {
    const bill = this.bill(outBillNo)
    if (bill.state !== state) {
      const allowed =
        state === 'SUCCESS'
          ? bill.state === 'TRANSFERING'
          : state === 'FAIL'
            ? !FINAL_STATES.includes(bill.state)
            : ['ACCEPTED', 'WAIT_USER_CONFIRM', 'CANCELING'].includes(bill.state)
      if (!allowed) throw new Error(`stand-in: ${outBillNo} cannot go ${bill.state} → ${state}`)
      this.finish(bill, state, options.failReason ?? (state === 'FAIL' ? 'OTHERS' : undefined))
    }
    return this.transferNotification(outBillNo, options.spoilers)
  }

  private finish(bill: StandinTransferBill, state: TransferState, failReason?: string): void {
    this.setState(bill, state, failReason)
    this.lockedFen -= bill.transfer_amount
    if (state !== 'SUCCESS') return
    const account = this.transferAccount
    this.balances[account] -= bill.transfer_amount
    this.fundFlows.push({
      account,
      at: this.now(),
      wechatNo: bill.transfer_bill_no,
      flowNo: `${this.merchant.mchid}${digits(20)}`,
      business: '商家转账',
      type: '商家转账',
      direction: '支出',
      fen: bill.transfer_amount,
      balanceFen: this.balances[account],
      applicant: `${this.merchant.mchid}API`,
      remark: bill.transfer_remark,
      voucher: bill.out_bill_no,
    })
  }

  /** The MCHTRANSFER.BILL.FINISHED notification for a bill as it is now (signed, encrypted). */
  transferNotification(outBillNo: string, spoilers: NotificationSpoilers = {}): RawNotification {
    const bill = this.bill(outBillNo)
    const resource = {
      out_bill_no: bill.out_bill_no,
      transfer_bill_no: bill.transfer_bill_no,
      state: bill.state,
      mchid: bill.mch_id,
      transfer_amount: bill.transfer_amount,
      openid: bill.openid,
      ...(bill.fail_reason ? { fail_reason: bill.fail_reason } : {}),
      create_time: bill.create_time,
      update_time: bill.update_time,
    }
    return this.notification(
      'MCHTRANSFER.BILL.FINISHED',
      'mch_payment',
      resource,
      '商家转账单据终态通知',
      spoilers,
    )
  }

  /** Money paid out for a bill number: the 支出 lines naming it (the only right answers: 0 and 1). */
  payouts(outBillNo: string): number {
    return this.fundFlows.filter((line) => line.voucher === outBillNo && line.direction === '支出')
      .length
  }

  /** The merchant tops an account up (a 充值 收入 line). */
  topUp(fen: number, account: WechatPayAccountType = this.transferAccount): void {
    this.balances[account] += fen
    this.fundFlows.push({
      account,
      at: this.now(),
      wechatNo: `${digits(28)}`,
      flowNo: `${this.merchant.mchid}${digits(20)}`,
      business: '充值/提现',
      type: '充值',
      direction: '收入',
      fen,
      balanceFen: this.balances[account],
      applicant: `${this.merchant.mchid}`,
      remark: '运营账户充值',
      voucher: '',
    })
  }

  /** A sensitive field as WeChat reads it: RSA-OAEP (SHA-1) with the platform's private key. */
  decryptSensitive(ciphertext: string): string {
    return privateDecrypt(
      { key: this.platformPrivateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' },
      Buffer.from(ciphertext, 'base64'),
    ).toString('utf8')
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
    const call = {
      method: req.method ?? '',
      path: url.pathname,
      status: 0 as number | 'hang' | 'lost',
    }
    this.calls.push(call)
    const at = this.faults.findIndex((entry) => !entry.path || entry.path.test(url.pathname))
    const fault = at < 0 ? undefined : this.faults.splice(at, 1)[0]!.fault
    if (fault === 'hang') {
      call.status = 'hang'
      return
    }
    const reply = ((): StandinReply => {
      if (fault === 'error500') return error(500, 'SYSTEM_ERROR', '系统错误')
      if (this.authorizationProblem(req, text)) return error(401, 'SIGN_ERROR', '签名错误')
      if (typeof fault === 'object') return error(fault.status, fault.code, fault.message ?? '')
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
          {
            method: route.method,
            path: url.pathname,
            query: url.searchParams,
            params,
            body,
            headers: req.headers,
          },
          this,
        )
      }
      return error(404, 'RESOURCE_NOT_EXISTS', '接口不存在')
    })()
    if (fault === 'lostAnswer') {
      // WeChat acted; the answer is lost on the way (the client times out).
      call.status = 'lost'
      return
    }
    call.status = reply.status
    if (reply.file) {
      // Bill files are not signed; their integrity is the hash_value the application answered.
      let bytes = Buffer.from(reply.file.bytes)
      if (fault === 'tamperBody' && bytes.length > 0) bytes[bytes.length >> 1]! ^= 0x01
      if (reply.file.gzip) bytes = gzipSync(bytes)
      res.writeHead(reply.status, {
        'Content-Type': reply.file.contentType,
        'Request-ID': randomUUID(),
      })
      res.end(bytes)
      return
    }
    const answer = reply.body === undefined ? '' : JSON.stringify(reply.body)
    const spoilers: NotificationSpoilers =
      fault === 'badSignature'
        ? { signWith: strangerKeys().privateKey }
        : fault === 'wrongSerial'
          ? { serial: 'PUB_KEY_ID_0116999999999999999999999999999999' }
          : {}
    const headers = this.signatureHeaders(answer, spoilers)
    // Changed after signing, as a man in the middle would: a state now reads SUCCESS (an answer
    // without one, or already SUCCESS, gains a trailing space: still not what was signed).
    const tampered = answer.replace(/"state":"[A-Z_]+"/, '"state":"SUCCESS"')
    const sent = fault !== 'tamperBody' ? answer : tampered !== answer ? tampered : `${answer} `
    res.writeHead(reply.status, {
      ...(sent ? { 'Content-Type': 'application/json' } : {}),
      'Request-ID': randomUUID(),
      ...headers,
    })
    res.end(sent)
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

// --- 商家转账 -----------------------------------------------------------------------------------

/** The create answer: out_bill_no, transfer_bill_no, create_time, state (+ package_info, fail_reason). */
function transferAnswer(bill: StandinTransferBill): Record<string, unknown> {
  return {
    out_bill_no: bill.out_bill_no,
    transfer_bill_no: bill.transfer_bill_no,
    create_time: bill.create_time,
    state: bill.state,
    ...(bill.state === 'WAIT_USER_CONFIRM' ? { package_info: bill.package_info } : {}),
    ...(bill.state === 'FAIL' && bill.fail_reason ? { fail_reason: bill.fail_reason } : {}),
  }
}

/** The query answer (商户单号查询转账单). */
function transferQueryJson(bill: StandinTransferBill): Record<string, unknown> {
  return {
    mch_id: bill.mch_id,
    out_bill_no: bill.out_bill_no,
    transfer_bill_no: bill.transfer_bill_no,
    appid: bill.appid,
    state: bill.state,
    transfer_amount: bill.transfer_amount,
    transfer_remark: bill.transfer_remark,
    ...(bill.fail_reason ? { fail_reason: bill.fail_reason } : {}),
    openid: bill.openid,
    create_time: bill.create_time,
    update_time: bill.update_time,
  }
}

/** 1005 佣金报酬: 岗位类型 and 报酬说明, each once, each with content. */
function sceneReportOk(infos: unknown): boolean {
  if (!Array.isArray(infos)) return false
  const types = infos.map((info: { info_type?: unknown; info_content?: unknown }) =>
    typeof info?.info_type === 'string' &&
    typeof info.info_content === 'string' &&
    info.info_content.length > 0 &&
    [...info.info_content].length <= 32
      ? info.info_type
      : null,
  )
  return (
    types.length === SCENE_1005_REPORT_TYPES.length &&
    SCENE_1005_REPORT_TYPES.every((type) => types.includes(type))
  )
}

function registerTransfers(standin: WechatPayStandin): void {
  const { merchant } = standin
  const visible = (bill: StandinTransferBill | undefined) =>
    bill && standin.now().getTime() - new Date(bill.create_time).getTime() <= QUERY_WINDOW_MS
      ? bill
      : undefined

  standin.route('POST', /^\/v3\/fund-app\/mch-transfer\/transfer-bills$/, ({ body, headers }) => {
    const {
      appid,
      out_bill_no,
      transfer_scene_id,
      openid,
      user_name,
      transfer_amount,
      transfer_remark,
      notify_url,
      transfer_scene_report_infos,
    } = body ?? {}
    if (appid !== merchant.appid) {
      return error(400, 'INVALID_REQUEST', 'appid与商户号的绑定关系不存在')
    }
    if (typeof out_bill_no !== 'string' || !/^[A-Za-z0-9]{5,32}$/.test(out_bill_no)) {
      return error(400, 'PARAM_ERROR', '商户单号只能由5-32位数字、大小写字母组成')
    }
    if (typeof transfer_scene_id !== 'string') return error(400, 'PARAM_ERROR', '转账场景ID必填')
    if (!standin.transferScenes.includes(transfer_scene_id)) {
      return error(403, 'NO_AUTH', '商户未开通该转账场景')
    }
    if (transfer_scene_id === '1005' && !sceneReportOk(transfer_scene_report_infos)) {
      return error(400, 'PARAM_ERROR', '需传入转账场景报备信息,请检查')
    }
    if (typeof openid !== 'string' || openid === '') {
      return error(400, 'PARAM_ERROR', '收款用户OpenID必填')
    }
    if (!Number.isInteger(transfer_amount))
      return error(400, 'PARAM_ERROR', '转账金额必须是整数（分）')
    if (transfer_amount < MIN_TRANSFER_FEN) {
      return error(400, 'INVALID_REQUEST', '超过单笔转账上下限')
    }
    if (
      typeof transfer_remark !== 'string' ||
      transfer_remark === '' ||
      [...transfer_remark].length > 32
    ) {
      return error(400, 'PARAM_ERROR', '转账备注必填，最多32个字符')
    }
    if (
      notify_url !== undefined &&
      (typeof notify_url !== 'string' || !/^https?:\/\/[^?#]+$/.test(notify_url))
    ) {
      return error(400, 'PARAM_ERROR', '回调地址格式错误，不能携带参数')
    }
    let userName: string | null = null
    if (user_name !== undefined) {
      if (headers['wechatpay-serial'] !== standin.platformPublicKeyId) {
        return error(400, 'PARAM_ERROR', 'Wechatpay-Serial与加密敏感信息所用的公钥不符')
      }
      try {
        userName = standin.decryptSensitive(String(user_name))
      } catch {
        return error(400, 'PARAM_ERROR', '收款用户姓名解密失败')
      }
    } else if (transfer_amount >= USER_NAME_REQUIRED_FEN) {
      return error(400, 'PARAM_ERROR', '转账金额大于等于2000元时，收款用户姓名必填')
    }

    const existing = standin.transfers.get(out_bill_no)
    if (existing) {
      // A retry with the same bill number is the same bill (the name compared decrypted: RSA-OAEP
      // is randomised, so the ciphertext differs every time).
      if (
        existing.transfer_amount !== transfer_amount ||
        existing.openid !== openid ||
        existing.userName !== userName ||
        existing.transfer_scene_id !== transfer_scene_id ||
        existing.transfer_remark !== transfer_remark
      ) {
        return error(400, 'INVALID_REQUEST', '商户单号已使用，请求参数与原单不一致')
      }
      existing.requests++
      if (typeof user_name === 'string') existing.user_name = user_name
      return { status: 200, body: transferAnswer(existing) }
    }

    const today = wechatTime(standin.now()).slice(0, 10)
    const receivedToday = [...standin.transfers.values()]
      .filter(
        (bill) =>
          bill.openid === openid &&
          bill.create_time.slice(0, 10) === today &&
          bill.state !== 'FAIL' &&
          bill.state !== 'CANCELLED',
      )
      .reduce((sum, bill) => sum + bill.transfer_amount, 0)
    if (receivedToday + transfer_amount > USER_DAILY_LIMIT_FEN) {
      return error(400, 'INVALID_REQUEST', '超出用户单日收款额度')
    }
    if (standin.balances[standin.transferAccount] - standin.lockedFen < transfer_amount) {
      return error(
        403,
        'NOT_ENOUGH',
        '商户运营账户资金不足，充值后可以原单号发起重试，请勿更换商户单号',
      )
    }
    const time = wechatTime(standin.now())
    const bill: StandinTransferBill = {
      mch_id: merchant.mchid,
      appid: merchant.appid,
      out_bill_no,
      transfer_bill_no: `1330${digits(30)}`,
      transfer_scene_id,
      openid,
      userName,
      ...(typeof user_name === 'string' ? { user_name } : {}),
      transfer_amount,
      transfer_remark,
      ...(notify_url ? { notify_url } : {}),
      transfer_scene_report_infos,
      state: standin.transferStartState,
      package_info: randomBytes(96).toString('base64'),
      create_time: time,
      update_time: time,
      requests: 1,
    }
    standin.lockedFen += transfer_amount
    standin.transfers.set(out_bill_no, bill)
    return { status: 200, body: transferAnswer(bill) }
  })

  standin.route(
    'GET',
    /^\/v3\/fund-app\/mch-transfer\/transfer-bills\/out-bill-no\/([^/]+)$/,
    (request) => {
      const bill = visible(standin.transfers.get(request.params[0]!))
      if (!bill) return error(404, 'NOT_FOUND', '记录不存在')
      return { status: 200, body: transferQueryJson(bill) }
    },
  )

  standin.route(
    'POST',
    /^\/v3\/fund-app\/mch-transfer\/transfer-bills\/out-bill-no\/([^/]+)\/cancel$/,
    (request) => {
      const bill = visible(standin.transfers.get(request.params[0]!))
      if (!bill) return error(404, 'NOT_FOUND', '记录不存在')
      if (['ACCEPTED', 'PROCESSING', 'WAIT_USER_CONFIRM'].includes(bill.state)) {
        bill.state = 'CANCELING'
        bill.update_time = wechatTime(standin.now())
      } else if (bill.state !== 'CANCELING' && bill.state !== 'CANCELLED') {
        return error(400, 'INVALID_REQUEST', '当前单据状态不允许撤销')
      }
      return {
        status: 200,
        body: {
          out_bill_no: bill.out_bill_no,
          transfer_bill_no: bill.transfer_bill_no,
          state: bill.state,
          update_time: bill.update_time,
        },
      }
    },
  )
}

// --- 资金账单 -----------------------------------------------------------------------------------

export const FUND_FLOW_HEADER =
  '记账时间,微信支付业务单号,资金流水单号,业务名称,业务类型,收支类型,收支金额(元),账户结余(元),资金变更提交申请人,备注,业务凭证号'
export const FUND_FLOW_SUMMARY_HEADER = '资金流水总笔数,收入笔数,收入金额,支出笔数,支出金额'

/** Fen as WeChat's 元 with two decimals. */
function yuan(fen: number): string {
  const sign = fen < 0 ? '-' : ''
  const abs = Math.abs(fen)
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}

/**
 * A 资金账单 file as WeChat writes it: the header, one line per money movement with every field
 * prefixed by ` (so Excel keeps long numbers), the summary header and the summary line. \1 becomes
 * a space, CR and LF in the free-text fields become the two characters \r and \n.
 */
export function fundFlowCsv(lines: StandinFundFlow[]): string {
  const at = (date: Date) => wechatTime(date).slice(0, 19).replace('T', ' ')
  const clean = (text: string) =>
    text.replaceAll('\u0001', ' ').replaceAll('\r', '\\r').replaceAll('\n', '\\n')
  const row = (fields: string[]) => fields.map((field) => `\`${field}`).join(',')
  const income = lines.filter((line) => line.direction === '收入')
  const outgo = lines.filter((line) => line.direction === '支出')
  const total = (some: StandinFundFlow[]) => some.reduce((sum, line) => sum + line.fen, 0)
  return [
    FUND_FLOW_HEADER,
    ...lines.map((line) =>
      row([
        at(line.at),
        line.wechatNo,
        line.flowNo,
        line.business,
        line.type,
        line.direction,
        yuan(line.fen),
        yuan(line.balanceFen),
        line.applicant,
        clean(line.remark),
        clean(line.voucher),
      ]),
    ),
    FUND_FLOW_SUMMARY_HEADER,
    row([
      String(lines.length),
      String(income.length),
      yuan(total(income)),
      String(outgo.length),
      yuan(total(outgo)),
    ]),
    '',
  ].join('\r\n')
}

function registerBills(standin: WechatPayStandin): void {
  standin.route('GET', /^\/v3\/bill\/fundflowbill$/, ({ query }) => {
    const date = query.get('bill_date') ?? ''
    const account = query.get('account_type') ?? 'BASIC'
    const tar = query.get('tar_type')
    if (
      !/^\d{4}-\d{2}-\d{2}$/.test(date) ||
      Number.isNaN(new Date(`${date}T00:00:00+08:00`).getTime())
    ) {
      return error(400, 'PARAM_ERROR', '账单日期格式不正确，应为yyyy-MM-dd')
    }
    if (!['BASIC', 'OPERATION', 'FEES'].includes(account)) {
      return error(400, 'PARAM_ERROR', '资金账户类型不正确')
    }
    if (tar !== null && tar !== 'GZIP') return error(400, 'PARAM_ERROR', '压缩类型不正确')
    const today = wechatTime(standin.now()).slice(0, 10)
    if (date > today) return error(400, 'INVALID_REQUEST', '账单日期不能晚于今天')
    if (date === today) return error(400, 'STATEMENT_CREATING', '账单生成中，请次日10点后再下载')
    const lines = standin.fundFlows.filter(
      (line) => line.account === account && wechatTime(line.at).slice(0, 10) === date,
    )
    if (lines.length === 0) return error(400, 'NO_STATEMENT_EXIST', '申请的账单不存在')
    const csv = Buffer.from(fundFlowCsv(lines), 'utf8')
    const token = randomBytes(24).toString('base64url')
    standin.billFiles.set(token, {
      bytes: csv,
      gzip: tar === 'GZIP',
      expires: standin.now().getTime() + 30_000,
    })
    return {
      status: 200,
      body: {
        hash_type: 'SHA1',
        hash_value: createHash('sha1').update(csv).digest('hex'),
        download_url: `${standin.baseUrl}/v3/billdownload/file?token=${token}`,
      },
    }
  })

  standin.route('GET', /^\/v3\/billdownload\/file$/, ({ query }) => {
    const file = standin.billFiles.get(query.get('token') ?? '')
    if (!file || file.expires < standin.now().getTime()) {
      return error(400, 'INVALID_REQUEST', '下载地址已失效，请重新申请账单')
    }
    return {
      status: 200,
      file: file.gzip
        ? { bytes: file.bytes, contentType: 'application/x-gzip', gzip: true }
        : { bytes: file.bytes, contentType: 'text/plain;charset=utf-8' },
    }
  })
}

// --- The test merchant --------------------------------------------------------------------------

export const TEST_MCHID = '1900000109'
export const TEST_APPID = 'wxd678efa567aa6787'
export const TEST_MERCHANT_SERIAL = '5157F09EFDC096DE15EBE81A47057A7232F1B8E1'
export const TEST_APIV3_KEY = Buffer.from('0123456789abcdefghijklmnopqrstuv', 'utf8')

let merchantKeys: KeyPairKeyObjectResult | undefined
let otherKeys: KeyPairKeyObjectResult | undefined

/** The test merchant's API key pair (generated once per process). */
export function testMerchantKeys(): KeyPairKeyObjectResult {
  return (merchantKeys ??= generateKeyPairSync('rsa', { modulusLength: 2048 }))
}

/** A key pair WeChat never gave anyone: forgeries are signed with it. */
export function strangerKeys(): KeyPairKeyObjectResult {
  return (otherKeys ??= generateKeyPairSync('rsa', { modulusLength: 2048 }))
}

/**
 * A stand-in for the test merchant and the WechatPayConfig an adapter needs to talk to it (the
 * caller stops the stand-in).
 */
export async function startTestMerchant(
  options: { now?: () => Date } = {},
): Promise<{ standin: WechatPayStandin; config: WechatPayConfig }> {
  const keys = testMerchantKeys()
  const standin = await WechatPayStandin.start(
    {
      mchid: TEST_MCHID,
      appid: TEST_APPID,
      serial: TEST_MERCHANT_SERIAL,
      publicKey: keys.publicKey,
      apiv3Key: TEST_APIV3_KEY,
    },
    options,
  )
  const config: WechatPayConfig = {
    mchid: TEST_MCHID,
    appid: TEST_APPID,
    merchantSerial: TEST_MERCHANT_SERIAL,
    privateKey: keys.privateKey,
    apiv3Key: TEST_APIV3_KEY,
    platformPublicKey: standin.platformPublicKey,
    platformPublicKeyId: standin.platformPublicKeyId,
    baseUrl: standin.baseUrl,
    transferAccountType: 'OPERATION',
  }
  return { standin, config }
}
