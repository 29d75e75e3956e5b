import { z } from 'zod/mini'
import { MobileSchema, OkSchema, PasswordSchema, SmsCodeSchema } from '../common'
import { defineEndpoint } from '../endpoint'
import {
  register,
  resetPassword,
  sendSmsCode,
  SessionSchema,
  SmsPurposeSchema,
  UserProfileSchema,
} from '../sso/auth'
import { safeDisplayText } from '../text'

/**
 * The main service's account family (SPEC section 7). App login and register answer exactly as the
 * sign-on service's token and register calls: the same session object.
 */
export const appLogin = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/account/login',
  input: z.union([
    z.object({
      mobile: MobileSchema,
      password: z.string().check(z.minLength(1, '请输入密码'), z.maxLength(64)),
    }),
    z.object({ mobile: MobileSchema, code: SmsCodeSchema }),
  ]),
  output: SessionSchema,
  auth: false,
  summary: 'App 登录（密码或验证码）',
})

export const appRegister = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/account/register',
  input: register.input,
  output: register.output,
  auth: false,
  summary: 'App 注册',
})

export const sendCode = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/account/code/send',
  input: sendSmsCode.input,
  output: sendSmsCode.output,
  auth: false,
  summary: '发送验证码',
})

/**
 * A code for the signed-in account's own phone (account deletion). The app only knows the masked
 * number, so the server sends to the phone on file instead of taking one from the request.
 */
export const sendOwnCode = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/account/code/send-own',
  input: z.object({ purpose: z.enum(['delete', 'verify-old']) }),
  output: z.object({
    cooldownSeconds: z.number(),
    expiresInSeconds: z.number(),
    /** 138****8000: where the code went. */
    mobileMasked: z.string(),
  }),
  auth: true,
  summary: '向当前账号绑定的手机号发送验证码（注销账号、更换手机号前验证身份）',
})

export const validateCode = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/account/code/validate',
  input: z.object({ mobile: MobileSchema, code: SmsCodeSchema, purpose: SmsPurposeSchema }),
  /** A single-use ticket for the next step of a multi-step form (valid 10 minutes). */
  output: z.object({ ticket: z.string(), expiresInSeconds: z.number() }),
  auth: false,
  summary: '校验验证码',
})

export const getProfile = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/account/profile',
  input: z.object({}),
  output: UserProfileSchema,
  auth: true,
  summary: '当前用户信息（更新用户缓存后也返回此结构）',
})

export const refreshUserCache = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/account/cache/refresh',
  input: z.object({}),
  output: UserProfileSchema,
  auth: true,
  summary: '更新用户缓存',
})

export const bindPhone = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/account/phone/bind',
  input: z.object({
    mobile: MobileSchema,
    /** The 'bind' code sent to the NEW number. */
    code: SmsCodeSchema,
    /**
     * Proof of the current identity, one of the two, required when the account has a phone or a
     * password: the login password, or a 'verify-old' code sent to the current phone (sendOwnCode).
     */
    password: z.optional(z.string().check(z.maxLength(64, '密码最多 64 位'))),
    oldCode: z.optional(SmsCodeSchema),
  }),
  output: UserProfileSchema,
  auth: true,
  summary:
    '绑定或更换手机号：先验证当前身份（密码或原手机号验证码），验证码发到新号码；其他设备将退出登录，原手机号会收到通知',
})

export const IdCardNumberSchema = z
  .string({ error: '请输入身份证号' })
  .check(z.regex(/^\d{17}[\dX]$/, '请输入 18 位身份证号，末位 X 请大写'))

export const RealNameSchema = z
  .string({ error: '请输入真实姓名' })
  .check(z.trim(), z.regex(/^[\u4e00-\u9fa5·]{2,20}$/, '请输入 2–20 个汉字的真实姓名'))

export const BoundCardSchema = z.object({
  id: z.string(),
  kind: z.enum(['idcard']),
  /** 张** */
  holderMasked: z.string(),
  /** 110***********123X */
  numberMasked: z.string(),
  createdAt: z.string(),
  /** bound: stored, shown as 已绑定; verified: a real-name provider confirmed it (已实名). */
  status: z.optional(z.enum(['bound', 'verified'])),
})
export type BoundCard = z.infer<typeof BoundCardSchema>

export const bindIdCard = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/account/idcard',
  input: z.object({ realName: RealNameSchema, idCard: IdCardNumberSchema }),
  output: BoundCardSchema,
  auth: true,
  summary: '绑定身份证（实名）',
})

export const verifyIdCard = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/account/idcard/verify',
  input: z.object({}),
  /** The card with status 'verified'. Without a provider: 400 未配置实名核验. */
  output: BoundCardSchema,
  auth: true,
  summary: '实名核验已绑定的身份证（需配置实名核验服务；未配置时返回 未配置实名核验）',
})

export const APPEAL_STATUSES = ['pending', 'resolved', 'rejected'] as const
export const AppealStatusSchema = z.enum(APPEAL_STATUSES)
export type AppealStatus = z.infer<typeof AppealStatusSchema>
export const APPEAL_STATUS_LABELS: Record<AppealStatus, string> = {
  pending: '处理中',
  resolved: '已处理',
  rejected: '未通过',
}

export const IdCardAppealSchema = z.object({
  id: z.string(),
  status: AppealStatusSchema,
  /** APPEAL_STATUS_LABELS[status] */
  statusLabel: z.string(),
  /** 110***********123X */
  numberMasked: z.string(),
  reason: z.string(),
  contact: z.string(),
  /** What the operator told the person, once decided. */
  operatorNote: z.nullable(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type IdCardAppeal = z.infer<typeof IdCardAppealSchema>

export const appealIdCard = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/account/idcard/appeal',
  input: z.object({
    realName: RealNameSchema,
    idCard: IdCardNumberSchema,
    reason: z
      .string({ error: '请填写申诉说明' })
      .check(
        z.trim(),
        z.minLength(5, '申诉说明至少 5 个字'),
        z.maxLength(500, '申诉说明最多 500 个字'),
        safeDisplayText('申诉说明不能包含控制字符或不可见字符', { multiline: true }),
      ),
    /** How the operator reaches the person: a phone number or an e-mail address. */
    contact: z
      .string({ error: '请填写联系方式' })
      .check(
        z.trim(),
        z.regex(
          /^(1[2-9]\d{9}|[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{1,20})$/,
          '请填写正确的手机号或邮箱',
        ),
        safeDisplayText('请填写正确的手机号或邮箱'),
      ),
  }),
  /** The recorded appeal (status pending). A pending appeal for the same number is answered again. */
  output: IdCardAppealSchema,
  auth: true,
  summary: '身份证已被其他账号绑定时提交申诉，由运营人员核实处理',
})

export const listIdCardAppeals = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/account/idcard/appeals',
  input: z.object({}),
  output: z.array(IdCardAppealSchema),
  auth: true,
  summary: '本人提交的身份证申诉及处理状态（最新在前）',
})

export const getIdCardByPhone = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/account/idcard/by-phone',
  input: z.object({ mobile: MobileSchema }),
  /** Only for the caller's own phone; null when no card is bound. */
  output: z.nullable(BoundCardSchema),
  auth: true,
  summary: '按手机号查询本人绑定的身份证（脱敏）',
})

export const listBoundCards = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/account/cards',
  input: z.object({}),
  output: z.array(BoundCardSchema),
  auth: true,
  summary: '已绑定证件列表（脱敏）',
})

export const logout = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/account/logout',
  input: z.object({}),
  output: OkSchema,
  auth: true,
  summary: '退出登录（吊销当前令牌）',
})

export const changePassword = defineEndpoint({
  service: 'main',
  method: 'PUT',
  path: '/account/password',
  input: z.object({
    oldPassword: z.optional(z.string().check(z.maxLength(64))),
    newPassword: PasswordSchema,
  }),
  /** Every other session is revoked; the caller gets a fresh one. */
  output: SessionSchema,
  auth: true,
  summary: '修改密码（其他设备将退出登录）',
})

export const getPassword = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/account/password/forgot',
  input: resetPassword.input,
  output: resetPassword.output,
  auth: false,
  summary: '忘记密码：验证码重设',
})

export const deleteAccount = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/account/delete',
  input: z.object({ code: SmsCodeSchema }),
  output: OkSchema,
  auth: true,
  summary: '注销账号（验证码确认，个人资料删除或匿名化）',
})

export const NoticeSettingsSchema = z.object({
  consultReply: z.boolean(),
  reportReady: z.boolean(),
  systemNotice: z.boolean(),
})
export type NoticeSettings = z.infer<typeof NoticeSettingsSchema>

export const getNoticeSettings = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/account/notice',
  input: z.object({}),
  output: NoticeSettingsSchema,
  auth: true,
  summary: '通知设置',
})

export const saveNoticeSettings = defineEndpoint({
  service: 'main',
  method: 'PUT',
  path: '/account/notice',
  input: z.partial(NoticeSettingsSchema),
  output: NoticeSettingsSchema,
  auth: true,
  summary: '保存通知设置',
})

export const addTrack = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/account/track',
  input: z.object({
    /** e.g. page_view, tap_entry; no personal content */
    event: z.string().check(z.regex(/^[a-z][a-z0-9_]{1,39}$/, '事件名格式不正确')),
    page: z.optional(z.string().check(z.maxLength(120))),
  }),
  output: OkSchema,
  auth: false,
  summary: '记录用户行为事件（用于统计，不含个人内容）',
})

export const wechatLogin = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/account/wechat/login',
  input: z.object({ code: z.string().check(z.minLength(1, '缺少微信登录凭证')) }),
  output: SessionSchema,
  auth: false,
  summary: '微信小程序登录（Taro.login 的 code）；未配置时返回 未配置微信登录',
})

export const demoLatestSms = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/demo/sms/latest',
  input: z.object({ mobile: MobileSchema }),
  output: z.object({
    mobile: z.string(),
    code: z.string(),
    purpose: SmsPurposeSchema,
    sentAt: z.string(),
  }),
  auth: false,
  summary: '仅演示模式：读取发往某手机号的最新验证码（短信发件箱）',
})
