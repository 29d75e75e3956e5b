import { z } from 'zod/mini'
import { OkSchema } from '../common'
import { defineEndpoint } from '../endpoint'
import { SessionSchema } from '../sso/auth'

export const QR_STATUSES = ['pending', 'scanned', 'confirmed', 'refused', 'expired'] as const
export const QrStatusSchema = z.enum(QR_STATUSES)

/** Prefix of the QR content, so the app's scanner knows a login request from any other code. */
export const QR_LOGIN_PREFIX = 'yingxiang-login:'

export const createQrLogin = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/account/qr',
  input: z.object({}),
  output: z.object({
    id: z.string(),
    /** Known only to the desktop browser that asked; required to poll and to receive the session. */
    pollSecret: z.string(),
    /** What the QR code encodes: QR_LOGIN_PREFIX + id. */
    content: z.string(),
    expiresAt: z.string(),
  }),
  auth: false,
  summary: '生成扫码登录二维码（一次性，短时有效）',
})

export const pollQrLogin = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/account/qr/:id',
  input: z.object({ id: z.string(), pollSecret: z.string() }),
  output: z.object({
    status: QrStatusSchema,
    /** Present once, when the phone confirmed. */
    session: z.optional(SessionSchema),
  }),
  auth: false,
  summary: '查询扫码登录状态（桌面端轮询）',
})

/** Who is asking, for the phone to show before confirming: where and when the desktop asked. */
export const QrRequesterSchema = z.object({
  id: z.string(),
  /** 浏览器 · 系统, e.g. Chrome 120 · Windows */
  browser: z.string(),
  /** The desktop's address, masked: 203.0.113.* */
  ipMasked: z.string(),
  /**
   * Where, as far as the server honestly knows: 本机, 局域网, 运营商内网 or 未知位置 (no geo database,
   * so never a guessed city). Optional so older servers stay valid.
   */
  location: z.optional(z.string()),
  /** Whether the desktop asked from the phone's own network (same masked address): a hint only. */
  sameNetwork: z.optional(z.boolean()),
  /** When the desktop asked. */
  createdAt: z.string(),
  expiresAt: z.string(),
})
export type QrRequester = z.infer<typeof QrRequesterSchema>

export const scanQrLogin = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/account/qr/:id/scan',
  input: z.object({
    id: z.string(),
    /**
     * Only the in-app scanner calls this, right after decoding: `source: 'scanner'` and the decoded
     * text (QR_LOGIN_PREFIX + id). A page opened from a link must never call it.
     */
    source: z.literal('scanner', '请使用 App 内的扫一扫扫描电脑上的二维码'),
    content: z.string().check(z.maxLength(300)),
  }),
  output: z.extend(QrRequesterSchema, {
    /**
     * The confirm ticket: answerQrLogin and getQrLoginRequest require it. Keep it in memory and hand
     * it to the confirm page in memory, never in a URL, so a link someone sent cannot confirm.
     */
    ticket: z.string(),
  }),
  auth: true,
  summary: '手机端扫码（仅 App 内扫一扫调用）：登记扫码，返回请求方信息和确认凭证',
})

export const getQrLoginRequest = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/account/qr/:id/request',
  input: z.object({ id: z.string(), ticket: z.string() }),
  output: z.extend(QrRequesterSchema, { status: QrStatusSchema }),
  auth: true,
  summary: '确认页读取扫码登录请求：电脑端的位置、浏览器和时间（需扫码时得到的确认凭证）',
})

export const answerQrLogin = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/account/qr/:id/answer',
  input: z.object({
    id: z.string(),
    approve: z.boolean(),
    /** From scanQrLogin's answer; without it the answer is refused (403 请使用 App 内的扫一扫…). */
    ticket: z.string().check(z.minLength(1, '请使用 App 内的扫一扫扫描电脑上的二维码')),
  }),
  output: OkSchema,
  auth: true,
  summary: '手机端确认或拒绝扫码登录（需扫码时得到的确认凭证）',
})
