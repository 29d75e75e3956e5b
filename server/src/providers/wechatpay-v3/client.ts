import { randomBytes } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import { z } from 'zod'
import type { WechatPayConfig } from '../../config'
import { decryptResource, MAX_CLOCK_SKEW_MS, rsaSign, rsaVerify, SIGNATURE_SCHEME } from './crypto'

/*
 * One signed WeChat Pay APIv3 client for every adapter on the merchant (payments, 商家转账):
 * requests signed with the merchant key, every answer verified with the platform's public key before
 * a byte of it is believed, notifications verified over the raw body and decrypted. It knows no
 * endpoint; adapters turn its two failures into their own errors:
 * - WechatPayUnreachable: no answer we can believe (network, timeout, 5xx, 429, an unsigned or
 *   wrongly signed answer, not JSON). What happened at WeChat is unknown: retry with the same
 *   numbers, never new ones.
 * - WechatPayApiError: a verified 4xx (other than 429) with WeChat's code.
 */

export type WechatPayLog = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>

export interface WechatPayClientOptions {
  log: WechatPayLog
  now?: () => Date
  /** Per request, answer included (AbortSignal.timeout); default 10 s. */
  timeoutMs?: number
  /** Default: the global fetch. */
  fetch?: typeof fetch
}

export const DEFAULT_TIMEOUT_MS = 10_000

/** Hosts a bill download_url may point at besides WECHATPAY_BASE_URL (主域名 and 备域名). */
const DOWNLOAD_ORIGINS = ['https://api.mch.weixin.qq.com', 'https://api2.mch.weixin.qq.com']

export class WechatPayUnreachable extends Error {
  override name = 'WechatPayUnreachable'
}

export class WechatPayApiError extends Error {
  override name = 'WechatPayApiError'
  constructor(
    /** The HTTP status (a 4xx). */
    readonly status: number,
    /** WeChat's error code (PARAM_ERROR, NOT_ENOUGH, …); HTTP_<status> when the body had none. */
    readonly code: string,
    /** WeChat's own message: for the log, never shown to people and never branched on. */
    readonly wechatMessage: string | undefined,
  ) {
    super(code)
  }
}

export class WechatPayNotificationInvalid extends Error {
  override name = 'WechatPayNotificationInvalid'
}

/** A notification as received: lower-case header names, the body exactly as received. */
export interface SignedNotification {
  headers: Record<string, string | undefined>
  rawBody: string
}

export interface OpenedNotification {
  /** The notification's id (duplicates carry the same one). */
  id: string
  eventType: string
  /** The decrypted resource, parsed JSON, not yet shaped. */
  resource: unknown
}

export interface CallOptions {
  /** A signed 404 answers null instead of throwing. */
  notFoundIsNull?: boolean
  /** Extra request headers (Wechatpay-Serial when the body has encrypted fields). */
  headers?: Record<string, string>
}

export interface WechatPayClient {
  /**
   * One signed call. Returns the verified JSON (null for a 204, and for a signed 404 when
   * notFoundIsNull); throws WechatPayUnreachable or WechatPayApiError.
   */
  call(
    method: 'GET' | 'POST',
    pathAndQuery: string,
    body?: object,
    options?: CallOptions,
  ): Promise<unknown>
  /**
   * A bill file from the download_url a bill application answered: a signed GET whose answer
   * WeChat does not sign (the caller checks the file against the hash_value it was given).
   * Refuses a URL on any host but WeChat's or WECHATPAY_BASE_URL's (our Authorization goes along).
   */
  download(url: string): Promise<Buffer>
  /**
   * Verifies a notification over its raw body and decrypts its resource, which must be of
   * `originalType`; throws WechatPayNotificationInvalid (logged).
   */
  openNotification(notification: SignedNotification, originalType: string): OpenedNotification
}

const ErrorBody = z.object({ code: z.string(), message: z.string().optional() })

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

export function createWechatPayClient(
  config: WechatPayConfig,
  {
    log,
    now = () => new Date(),
    timeoutMs = DEFAULT_TIMEOUT_MS,
    fetch: fetchImpl = globalThis.fetch,
  }: WechatPayClientOptions,
): WechatPayClient {
  const unreachable = (why: string) => new WechatPayUnreachable(why)

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

  /** The Authorization header for one request. */
  function authorization(method: string, url: URL, text: string): string {
    const timestamp = Math.floor(now().getTime() / 1000).toString()
    const nonce = randomBytes(16).toString('hex').toUpperCase()
    const signature = rsaSign(
      `${method}\n${url.pathname}${url.search}\n${timestamp}\n${nonce}\n${text}\n`,
      config.privateKey,
    )
    return (
      `${SIGNATURE_SCHEME} mchid="${config.mchid}",nonce_str="${nonce}",signature="${signature}",` +
      `timestamp="${timestamp}",serial_no="${config.merchantSerial}"`
    )
  }

  async function call(
    method: 'GET' | 'POST',
    pathAndQuery: string,
    body?: object,
    { notFoundIsNull = false, headers = {} }: CallOptions = {},
  ): Promise<unknown> {
    const url = new URL(config.baseUrl + pathAndQuery)
    const text = body === undefined ? '' : JSON.stringify(body)
    const where = { method, path: url.pathname }
    let response: Response
    let answer: string
    try {
      response = await fetchImpl(url, {
        method,
        headers: {
          Accept: 'application/json',
          'Content-Type': 'application/json',
          'User-Agent': 'yingxiang-server',
          ...headers,
          Authorization: authorization(method, url, text),
        },
        ...(body === undefined ? {} : { body: text }),
        signal: AbortSignal.timeout(timeoutMs),
      })
      answer = await response.text()
    } catch (error) {
      const reason = error instanceof Error ? error.name : 'unknown'
      log.warn({ ...where, reason }, '微信支付接口无法访问')
      throw unreachable(`unreachable (${reason})`)
    }
    if (response.status >= 500) {
      log.warn({ ...where, status: response.status }, '微信支付接口暂不可用')
      throw unreachable(`HTTP ${response.status}`)
    }
    const problem = signatureProblem((name) => response.headers.get(name) ?? undefined, answer)
    if (problem) {
      log.error({ ...where, status: response.status, problem }, '微信支付应答签名验证失败')
      throw unreachable(problem)
    }
    let json: unknown = null
    try {
      json = answer === '' ? null : JSON.parse(answer)
    } catch {
      log.error({ ...where, status: response.status }, '微信支付应答不是 JSON')
      throw unreachable('answer is not JSON')
    }
    if (response.ok) return json
    const error = ErrorBody.safeParse(json)
    const code = error.success ? error.data.code : `HTTP_${response.status}`
    if (response.status === 404 && notFoundIsNull) return null
    const fields = { ...where, status: response.status, code, wechatMessage: error.data?.message }
    if (response.status === 429) {
      log.warn(fields, '微信支付请求过于频繁')
      throw unreachable('HTTP 429')
    }
    log.warn(fields, '微信支付拒绝了请求')
    throw new WechatPayApiError(response.status, code, error.data?.message)
  }

  async function download(target: string): Promise<Buffer> {
    let url: URL
    try {
      url = new URL(target)
    } catch {
      log.error({ what: 'download_url' }, '微信支付账单下载地址无效')
      throw unreachable('download_url is not a URL')
    }
    const allowed = [new URL(config.baseUrl).origin, ...DOWNLOAD_ORIGINS]
    if (!allowed.includes(url.origin)) {
      log.error({ origin: url.origin }, '微信支付账单下载地址不是微信支付的域名，已拒绝')
      throw unreachable('download_url on another host')
    }
    const where = { method: 'GET', path: url.pathname }
    let response: Response
    let file: Buffer
    try {
      response = await fetchImpl(url, {
        headers: {
          Accept: '*/*',
          'User-Agent': 'yingxiang-server',
          Authorization: authorization('GET', url, ''),
        },
        signal: AbortSignal.timeout(timeoutMs),
      })
      file = Buffer.from(await response.arrayBuffer())
    } catch (error) {
      const reason = error instanceof Error ? error.name : 'unknown'
      log.warn({ ...where, reason }, '微信支付账单下载失败')
      throw unreachable(`unreachable (${reason})`)
    }
    if (response.status !== 200) {
      log.warn({ ...where, status: response.status }, '微信支付账单下载失败')
      throw unreachable(`download HTTP ${response.status}`)
    }
    return file
  }

  function openNotification(
    notification: SignedNotification,
    originalType: string,
  ): OpenedNotification {
    const reject = (why: string): never => {
      log.warn({ why }, '微信支付通知验证失败，已拒绝')
      throw new WechatPayNotificationInvalid(why)
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
      plain = decryptResource(resource, config.apiv3Key)
    } catch {
      return reject('resource does not decrypt (AEAD_AES_256_GCM)')
    }
    try {
      return { id: envelope.id, eventType: envelope.event_type, resource: JSON.parse(plain) }
    } catch {
      return reject('resource is not JSON')
    }
  }

  return { call, download, openNotification }
}
