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

export const scanQrLogin = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/account/qr/:id/scan',
  input: z.object({ id: z.string() }),
  /** Who is asking, for the phone to show before confirming. */
  output: z.object({
    id: z.string(),
    browser: z.string(),
    ipMasked: z.string(),
    createdAt: z.string(),
    expiresAt: z.string(),
  }),
  auth: true,
  summary: '手机端扫码：登记扫码并返回请求方信息',
})

export const answerQrLogin = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/account/qr/:id/answer',
  input: z.object({ id: z.string(), approve: z.boolean() }),
  output: OkSchema,
  auth: true,
  summary: '手机端确认或拒绝扫码登录',
})
