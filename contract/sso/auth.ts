import { z } from 'zod/mini'
import { MobileSchema, OkSchema, PasswordSchema, SmsCodeSchema } from '../common'
import { defineEndpoint } from '../endpoint'
import { NicknameSchema } from '../text'

/**
 * An operator (运营人员) is made by the server's tooling or the demo seed, never at sign-up; the app
 * treats them as a patient plus 运营后台 (H5 only).
 */
export const ROLES = ['patient', 'expert', 'operator'] as const
export const RoleSchema = z.enum(ROLES)
export type Role = z.infer<typeof RoleSchema>

/**
 * The roles an endpoint may require (`Endpoint.role`). Every signed-in account is a patient for its own
 * records; expert and operator are granted on top, so an expert keeps every patient feature.
 */
export type GrantedRole = Exclude<Role, 'patient'>

/** What a caller without the required role is told (403), one per role. */
export const ROLE_REQUIRED_MESSAGES: Record<GrantedRole, string> = {
  expert: '仅认证专家可以使用此功能',
  operator: '仅运营人员可以使用此功能',
}

export const GENDERS = ['male', 'female', 'unknown'] as const
export type Gender = (typeof GENDERS)[number]

/**
 * none: no ID card; bound: a card is stored (已绑定), its number checked for form only; verified: a
 * real-name provider confirmed that name and number belong together (已实名).
 */
export const ID_CARD_STATUSES = ['none', 'bound', 'verified'] as const
export const IdCardStatusSchema = z.enum(ID_CARD_STATUSES)
export type IdCardStatus = z.infer<typeof IdCardStatusSchema>

/** What the app may show of the signed-in person; never a full phone or ID number. */
export const UserProfileSchema = z.object({
  id: z.string(),
  /** 138****8000 */
  mobileMasked: z.nullable(z.string()),
  nickname: z.string(),
  avatarUrl: z.nullable(z.string()),
  role: RoleSchema,
  /** Real-name verified by a provider (idCardStatus 'verified'); a bound card alone is not. */
  realNameVerified: z.boolean(),
  /** Optional so servers that do not report it stay valid; this server always sends it. */
  idCardStatus: z.optional(IdCardStatusSchema),
  hasPassword: z.boolean(),
  wechatBound: z.boolean(),
  createdAt: z.string(),
  /** As set with modifyUser; optional so servers that do not report it stay valid. */
  gender: z.optional(z.enum(GENDERS)),
})
export type UserProfile = z.infer<typeof UserProfileSchema>

/** SPEC section 3's stored session, plus who it belongs to. */
export const SessionSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  /** Seconds until the access token expires. */
  expires_in: z.number(),
  refresh_token: z.string(),
  user: UserProfileSchema,
})
export type Session = z.infer<typeof SessionSchema>

/**
 * `verify-old`: a code to the account's CURRENT phone (sent with sendOwnCode) proving the owner
 * before the phone is changed.
 */
export const SMS_PURPOSES = [
  'register',
  'login',
  'reset',
  'bind',
  'delete',
  'merge',
  'verify-old',
  // A code to the account's own phone that opens private reports (records unlock ticket).
  'report-unlock',
  // 影像查询 / film-bag claims: a code to the phone the HOSPITAL recorded, sent only by that flow.
  'claim',
  // 亲情卡: a code to the phone of an adult being added as a family member (their agreement), sent
  // only by that flow (main/family.ts sendFamilyCode).
  'family',
] as const
export const SmsPurposeSchema = z.enum(SMS_PURPOSES)
export type SmsPurpose = z.infer<typeof SmsPurposeSchema>

export const sendSmsCode = defineEndpoint({
  service: 'sso',
  method: 'POST',
  path: '/sms/send',
  input: z.object({ mobile: MobileSchema, purpose: SmsPurposeSchema }),
  output: z.object({
    /** Seconds before another code may be sent to this phone. */
    cooldownSeconds: z.number(),
    /** Seconds the code stays valid. */
    expiresInSeconds: z.number(),
  }),
  auth: false,
  summary: '发送短信验证码',
})

export const TokenRequestSchema = z.discriminatedUnion('grant_type', [
  z.object({
    grant_type: z.literal('password'),
    username: MobileSchema,
    password: z.string().check(z.minLength(1, '请输入密码'), z.maxLength(64, '密码最多 64 位')),
  }),
  z.object({ grant_type: z.literal('sms_code'), mobile: MobileSchema, code: SmsCodeSchema }),
  z.object({
    grant_type: z.literal('refresh_token'),
    refresh_token: z.string().check(z.minLength(1)),
  }),
])

/**
 * The `error` of a refresh refused because the same refresh token was just exchanged by another
 * request of its owner (another tab, a retried call): the newer session is wherever that request
 * stored it. The app tells this apart from an ended session by the reason session.refresh-raced
 * (reasons.ts), not by this text.
 */
export const REFRESH_RACED_ERROR = '登录状态已在其他页面更新，请重试'

export const issueToken = defineEndpoint({
  service: 'sso',
  method: 'POST',
  path: '/oauth2/token',
  input: TokenRequestSchema,
  output: SessionSchema,
  auth: false,
  summary: '登录：密码、短信验证码或刷新令牌',
})

export const register = defineEndpoint({
  service: 'sso',
  method: 'POST',
  path: '/register',
  input: z.object({
    mobile: MobileSchema,
    code: SmsCodeSchema,
    password: PasswordSchema,
    /** The person ticked 同意《用户协议》和《隐私政策》; the versions agreed are recorded. */
    agreed: z.literal(true, '请阅读并同意用户协议和隐私政策'),
  }),
  output: SessionSchema,
  auth: false,
  summary: '注册（手机号 + 验证码 + 密码）',
})

export const resetPassword = defineEndpoint({
  service: 'sso',
  method: 'POST',
  path: '/password/reset',
  input: z.object({ mobile: MobileSchema, code: SmsCodeSchema, password: PasswordSchema }),
  output: OkSchema,
  auth: false,
  summary: '找回密码（短信验证码）；所有已登录设备将退出',
})

export const modifyUser = defineEndpoint({
  service: 'sso',
  method: 'PUT',
  path: '/user',
  input: z.object({
    nickname: z.optional(NicknameSchema),
    avatarUrl: z.optional(z.nullable(z.string().check(z.maxLength(500)))),
    gender: z.optional(z.enum(GENDERS)),
  }),
  output: UserProfileSchema,
  auth: true,
  summary: '修改个人信息',
})

export const mergeUser = defineEndpoint({
  service: 'sso',
  method: 'POST',
  path: '/user/merge',
  input: z.object({
    mobile: MobileSchema,
    code: SmsCodeSchema,
    /**
     * The phone account's login password: required when that account has one (a recycled number
     * receives the code, only the owner knows the password). Other sessions are signed out after.
     */
    password: z.optional(z.string().check(z.maxLength(64, '密码最多 64 位'))),
  }),
  output: UserProfileSchema,
  auth: true,
  summary: '合并账号：把用该手机号注册的账号并入当前（微信）账号，保留两边记录',
})
