import { z } from 'zod/mini'
import { IdSchema, pageOf, PageQuerySchema } from '../common'
import { defineEndpoint } from '../endpoint'
import { HospitalCardSchema } from '../hospitals'
import { safeDisplayText } from '../text'
import { EXPERT_MESSAGES, ExpertTitleSchema, INTRODUCTION_MAX, SpecialitiesSchema } from './experts'

/*
 * Certified experts as patients meet them (issue 20): the public profile (`personalDetail`), the
 * directory (找专家) and the expert's own settings (我的主页, 服务设置); operators suspend and resume.
 * Only a certified (`experts` row), non-suspended expert is public. Never public: the ID number, the
 * certificate numbers, the certificate photos, the phone. The profile says that the practice
 * certificate was checked and when (`certifiedAt`), not the numbers.
 *
 * The services (图文咨询, 影像会诊) are priced in integer fen by the expert within the platform's bounds
 * (EXPERT_SERVICE_RULES), or turned off. The figures a patient judges an expert by (answered, 采纳,
 * median time to first answer, rating) come from consultations (issue 21): until an expert has
 * answered any, `stats` is null and the app says 暂无咨询数据, never zeros that look like a bad doctor.
 */

export const CONSULT_SERVICES = ['text', 'imaging'] as const
export const ConsultServiceSchema = z.enum(CONSULT_SERVICES, { error: '请选择服务类型' })
export type ConsultService = z.infer<typeof ConsultServiceSchema>

/** Per service: its name, the answer-time promise, and the platform's price bounds in fen. */
export const EXPERT_SERVICE_RULES: Record<
  ConsultService,
  { label: string; hours: number; minFen: number; maxFen: number; defaultFen: number }
> = {
  text: { label: '图文咨询', hours: 48, minFen: 1_000, maxFen: 100_000, defaultFen: 3_000 },
  imaging: { label: '影像会诊', hours: 72, minFen: 5_000, maxFen: 300_000, defaultFen: 20_000 },
}

/** New consultations an expert accepts per day (服务设置). */
export const DAILY_LIMIT_MIN = 1
export const DAILY_LIMIT_MAX = 100
export const DAILY_LIMIT_DEFAULT = 20
export const SUSPEND_REASON_MAX = 200

const yuan = (fen: number) => (fen / 100).toFixed(0)

export const EXPERT_PROFILE_MESSAGES = {
  notFound: '专家不存在或已暂停服务',
  notCertified: '您还不是认证专家，请先完成专家认证',
  priceInteger: '价格应为整数（分）',
  priceRange: (service: ConsultService) => {
    const rule = EXPERT_SERVICE_RULES[service]
    return `${rule.label}价格应在 ¥${yuan(rule.minFen)} 至 ¥${yuan(rule.maxFen)} 之间`
  },
  servicesDuplicate: '每种服务只能设置一次',
  servicesMissing: `请设置每一种服务：${CONSULT_SERVICES.map((kind) => EXPERT_SERVICE_RULES[kind].label).join('、')}`,
  followupLimit: '追问次数应为 0 至 10 之间的整数',
  dailyLimit: `每日接诊上限应为 ${DAILY_LIMIT_MIN} 至 ${DAILY_LIMIT_MAX} 之间的整数`,
  suspendReasonRequired: '请填写暂停原因，专家会看到它',
  suspendReasonLong: `暂停原因最多 ${SUSPEND_REASON_MAX} 个字`,
  suspendReasonUnsafe: '暂停原因不能包含控制字符或不可见字符',
  alreadySuspended: '该专家已被暂停服务',
  notSuspended: '该专家未被暂停服务',
  /** A new consultation asked of an expert who turned 接诊 off (暂停接诊). */
  notAccepting: '该专家暂停接诊，请稍后再试或选择其他专家',
  serviceOff: (service: ConsultService) =>
    `该专家未开通${EXPERT_SERVICE_RULES[service].label}，请选择其他服务或专家`,
  /** Shown on the expert's own settings while the platform has suspended them. */
  suspended: (reason: string) =>
    `您的专家服务已被平台暂停：${reason}。如有疑问请通过意见反馈联系我们`,
} as const

export const ExpertServiceSchema = z.object({
  kind: ConsultServiceSchema,
  label: z.string(),
  enabled: z.boolean(),
  priceFen: z.number(),
  /** The answer-time promise in hours (48 for 图文咨询, 72 for 影像会诊). */
  hours: z.number(),
})
export type ExpertService = z.infer<typeof ExpertServiceSchema>

/** The figures consultations fill (issue 21); null until the expert has answered one. */
export const ExpertStatsSchema = z.object({
  answered: z.number(),
  /** Share of answered consultations the patient 采纳, 0..1. */
  adoptionRate: z.nullable(z.number()),
  medianFirstAnswerMinutes: z.nullable(z.number()),
  /** Mean of 1–5 stars, null before the first 评价. */
  rating: z.nullable(z.number()),
  ratingCount: z.number(),
})
export type ExpertStats = z.infer<typeof ExpertStatsSchema>

/** One row of 找专家 and of search results' target. */
export const ExpertCardSchema = z.object({
  /** The expert's user id: the profile's `id` query. */
  id: z.string(),
  /** The certified name (the bound ID card holder's). */
  name: z.string(),
  /** A public picture path, or null (the app draws the initial). */
  photoPath: z.nullable(z.string()),
  title: ExpertTitleSchema,
  titleLabel: z.string(),
  hospital: HospitalCardSchema,
  department: z.string(),
  specialities: z.array(z.string()),
  /** 接诊中 (true) or 暂停接诊 (false), as the expert set it. */
  accepting: z.boolean(),
  services: z.array(ExpertServiceSchema),
  /** Demo data (演示专家), never a real doctor. */
  demo: z.boolean(),
})
export type ExpertCard = z.infer<typeof ExpertCardSchema>

export const ExpertProfileSchema = z.extend(ExpertCardSchema, {
  introduction: z.string(),
  /** When an operator checked the certificates against the registry (shown as 执业信息已核验). */
  certifiedAt: z.string(),
  stats: z.nullable(ExpertStatsSchema),
  favouriteCount: z.number(),
  /** Whether the signed-in caller has 收藏 this expert (false when signed out). */
  favourited: z.boolean(),
  /** The caller is this expert (the page offers 编辑 instead of 咨询). */
  self: z.boolean(),
})
export type ExpertProfile = z.infer<typeof ExpertProfileSchema>

// --- The directory -------------------------------------------------------------------------------

export const EXPERT_KEYWORD_MAX = 30

export const listExperts = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/experts',
  input: z.extend(PageQuerySchema, {
    department: z.optional(z.string().check(z.maxLength(30))),
    province: z.optional(z.string().check(z.maxLength(20))),
    city: z.optional(z.string().check(z.maxLength(20))),
    title: z.optional(ExpertTitleSchema),
    /** Only experts offering this service (enabled). */
    service: z.optional(ConsultServiceSchema),
    /** Name, hospital, department or speciality, a Chinese substring. */
    keyword: z.optional(
      z.string().check(z.maxLength(EXPERT_KEYWORD_MAX, `关键字最多 ${EXPERT_KEYWORD_MAX} 个字`)),
    ),
  }),
  /**
   * Certified, not suspended. Order: accepting first, then by title (主任 first), then the most
   * recently certified; issue 21 adds rating once it exists.
   */
  output: pageOf(ExpertCardSchema),
  auth: false,
  summary: '找专家（按科室、地区、职称、服务筛选，分页）',
})

/** The filters' choices: only values some public expert has, so no filter leads to an empty list. */
export const getExpertFilters = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/experts/filters',
  input: z.object({}),
  output: z.object({
    departments: z.array(z.string()),
    regions: z.array(z.object({ province: z.string(), cities: z.array(z.string()) })),
  }),
  auth: false,
  summary: '找专家的筛选项（有专家的科室和地区）',
})

export const getExpertProfile = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/experts/:expertId',
  input: z.object({ expertId: IdSchema }),
  /** 404 for anyone who is not a certified, non-suspended expert (except to themself). */
  output: ExpertProfileSchema,
  auth: false,
  summary: '专家主页（公开信息、服务与价格、收藏数）',
})

// --- The expert's own settings (我的主页, 服务设置) -------------------------------------------------

export const MyExpertSettingsSchema = z.object({
  profile: ExpertProfileSchema,
  dailyLimit: z.number(),
  /** Follow-up messages a patient may send after the first answer (图文咨询, issue 21). */
  followupLimit: z.number(),
  /** The platform's suspension (停诊), with its reason; null while the expert may take consultations. */
  suspension: z.nullable(z.object({ reason: z.string(), at: z.string() })),
  /**
   * A newer application changing hospital, department or title, while it waits for review (the
   * profile keeps the certified values until it is approved); null when there is none.
   */
  pendingChange: z.nullable(z.object({ applicationId: z.string(), status: z.string() })),
})
export type MyExpertSettings = z.infer<typeof MyExpertSettingsSchema>

export const getMyExpertSettings = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/experts/me',
  input: z.object({}),
  output: MyExpertSettingsSchema,
  auth: true,
  role: 'expert',
  summary: '我的专家主页与服务设置',
})

export const updateMyExpertProfile = defineEndpoint({
  service: 'main',
  method: 'PUT',
  path: '/experts/me/profile',
  /** Take effect at once (no review): the introduction and the specialities. */
  input: z.object({
    introduction: z
      .string()
      .check(
        z.trim(),
        z.maxLength(INTRODUCTION_MAX, EXPERT_MESSAGES.introductionLong),
        safeDisplayText(EXPERT_MESSAGES.introductionUnsafe, { multiline: true }),
      ),
    specialities: SpecialitiesSchema,
  }),
  output: MyExpertSettingsSchema,
  auth: true,
  role: 'expert',
  summary: '修改个人简介和擅长方向（即时生效）',
})

export const updateMyExpertServices = defineEndpoint({
  service: 'main',
  method: 'PUT',
  path: '/experts/me/services',
  input: z.object({
    accepting: z.boolean(),
    dailyLimit: z
      .number({ error: EXPERT_PROFILE_MESSAGES.dailyLimit })
      .check(
        z.int(EXPERT_PROFILE_MESSAGES.dailyLimit),
        z.gte(DAILY_LIMIT_MIN, EXPERT_PROFILE_MESSAGES.dailyLimit),
        z.lte(DAILY_LIMIT_MAX, EXPERT_PROFILE_MESSAGES.dailyLimit),
      ),
    /** 追问次数 after the first answer; left out, it stays as it was. */
    followupLimit: z.optional(
      z
        .number({ error: EXPERT_PROFILE_MESSAGES.followupLimit })
        .check(
          z.int(EXPERT_PROFILE_MESSAGES.followupLimit),
          z.gte(0, EXPERT_PROFILE_MESSAGES.followupLimit),
          z.lte(10, EXPERT_PROFILE_MESSAGES.followupLimit),
        ),
    ),
    /** Every service once; prices checked against EXPERT_SERVICE_RULES by the server. */
    services: z.array(
      z.object({
        kind: ConsultServiceSchema,
        enabled: z.boolean(),
        priceFen: z
          .number({ error: EXPERT_PROFILE_MESSAGES.priceInteger })
          .check(z.int(EXPERT_PROFILE_MESSAGES.priceInteger)),
      }),
    ),
  }),
  output: MyExpertSettingsSchema,
  auth: true,
  role: 'expert',
  summary: '服务设置：价格（分）、开关、接诊中/暂停接诊、每日上限',
})

// --- Operators: suspension (停诊 by the platform) ----------------------------------------------------

export const OperatorExpertSchema = z.extend(ExpertCardSchema, {
  certifiedAt: z.string(),
  suspension: z.nullable(z.object({ reason: z.string(), at: z.string() })),
})

export const operatorListExperts = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/operator/experts',
  input: z.extend(PageQuerySchema, {
    keyword: z.optional(z.string().check(z.maxLength(EXPERT_KEYWORD_MAX))),
    suspended: z.optional(z.enum(['yes', 'no'])),
  }),
  output: pageOf(OperatorExpertSchema),
  auth: true,
  role: 'operator',
  summary: '运营：认证专家列表（含暂停状态）',
})

const SuspendReason = z
  .string({ error: EXPERT_PROFILE_MESSAGES.suspendReasonRequired })
  .check(
    z.trim(),
    z.minLength(1, EXPERT_PROFILE_MESSAGES.suspendReasonRequired),
    z.maxLength(SUSPEND_REASON_MAX, EXPERT_PROFILE_MESSAGES.suspendReasonLong),
    safeDisplayText(EXPERT_PROFILE_MESSAGES.suspendReasonUnsafe, { multiline: true }),
  )

export const operatorSuspendExpert = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/operator/experts/:expertId/suspend',
  input: z.object({ expertId: IdSchema, reason: SuspendReason }),
  /** From the next request: gone from 找专家 and 搜索, the profile 404, new consultations refused. */
  output: OperatorExpertSchema,
  auth: true,
  role: 'operator',
  summary: '运营：暂停专家服务（停诊，附原因）',
})

export const operatorResumeExpert = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/operator/experts/:expertId/resume',
  input: z.object({ expertId: IdSchema }),
  output: OperatorExpertSchema,
  auth: true,
  role: 'operator',
  summary: '运营：恢复专家服务',
})
