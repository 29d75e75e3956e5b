import { z } from 'zod/mini'
import { pageOf, PageQuerySchema } from '../common'
import { defineEndpoint } from '../endpoint'

/**
 * The account's security record (登录记录 under 我的 → 设置): logins, failures, locks and every
 * change of identity, each with when and from which (masked) address and client.
 */
export const AUDIT_KINDS = [
  'login',
  'login-failed',
  'lock',
  'logout',
  'register',
  'password-change',
  'password-reset',
  'phone-rebind',
  'account-merge',
  'id-card-bind',
  'id-card-appeal',
  'qr-confirm',
  'refresh-reuse',
  'account-delete',
  'data-export',
  'data-export-download',
] as const
export const AuditKindSchema = z.enum(AUDIT_KINDS)
export type AuditKind = z.infer<typeof AuditKindSchema>

/** What the app shows for each kind, so every client words them the same. */
export const AUDIT_KIND_LABELS: Record<AuditKind, string> = {
  login: '登录',
  'login-failed': '登录失败（密码错误）',
  lock: '登录被锁定（密码错误次数过多）',
  logout: '退出登录',
  register: '注册账号',
  'password-change': '修改密码',
  'password-reset': '找回密码',
  'phone-rebind': '更换手机号',
  'account-merge': '合并账号',
  'id-card-bind': '绑定身份证',
  'id-card-appeal': '提交身份证申诉',
  'qr-confirm': '扫码登录电脑端',
  'refresh-reuse': '检测到登录凭证被重复使用，已退出所有相关设备',
  'account-delete': '注销账号',
  'data-export': '申请导出个人数据',
  'data-export-download': '下载导出的个人数据',
}

export const AuditEventSchema = z.object({
  id: z.string(),
  kind: AuditKindSchema,
  /** AUDIT_KIND_LABELS[kind], filled in by the server. */
  label: z.string(),
  createdAt: z.string(),
  /** 203.0.113.* */
  ipMasked: z.string(),
  /** 本机, 局域网, 未知位置 (no geo database: never a guessed city) */
  location: z.string(),
  /** Chrome 120 · Windows */
  client: z.string(),
  /** e.g. the login method: 密码, 验证码, 微信, 扫码 */
  detail: z.nullable(z.string()),
})
export type AuditEvent = z.infer<typeof AuditEventSchema>

export const listSecurityEvents = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/account/security-events',
  input: PageQuerySchema,
  output: pageOf(AuditEventSchema),
  auth: true,
  summary: '登录记录：本人账号的安全事件（最新在前，分页）',
})
