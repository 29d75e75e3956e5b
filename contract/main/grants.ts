import { z } from 'zod/mini'
import { IdSchema, MobileSchema } from '../common'
import { defineEndpoint } from '../endpoint'
import { ExamDetailSchema, ReportDetailSchema } from './records'

/*
 * Authorisation records (授权记录, SPEC section 7 "authorization records": add, list, cancel) and
 * what a grant lets its holder see (issue 9).
 *
 * A grant is made by the person whose records they are (or by their family manager, for them) and
 * covers chosen records: an exam's images, and reports one by one. A private report is shared only
 * when it is named itself in `reportIds`; sharing an exam never carries its report implicitly.
 *
 * Audiences:
 * - `account`: a registered account (a doctor or expert, or a relative with an account), found by
 *   phone number. It appears in their 共享给我的 (listReceivedGrants) until it ends.
 * - `link`: anyone holding the link (and the 提取码 when set). The link's token is 128-bit random,
 *   stored hashed: it is shown once, in createGrant's answer, and never again.
 *
 * Every check is made on the server's clock at each request. A grant ends when revoked, expired or
 * (link) when its views are used up; whoever holds an ended grant is answered 403 授权已失效.
 * Anyone else asking for a record they cannot see is answered 404 检查不存在或您无权查看.
 */

export const GRANT_AUDIENCES = ['account', 'link'] as const
export const GrantAudienceSchema = z.enum(GRANT_AUDIENCES)
export type GrantAudience = z.infer<typeof GrantAudienceSchema>

export const GRANT_DURATIONS = ['1h', '24h', '7d', '30d'] as const
export const GrantDurationSchema = z.enum(GRANT_DURATIONS, { error: '请选择有效期' })
export type GrantDuration = z.infer<typeof GrantDurationSchema>
export const GRANT_DURATION_LABELS: Record<GrantDuration, string> = {
  '1h': '1 小时',
  '24h': '24 小时',
  '7d': '7 天',
  '30d': '30 天',
}
export const GRANT_DURATION_SECONDS: Record<GrantDuration, number> = {
  '1h': 3600,
  '24h': 86400,
  '7d': 7 * 86400,
  '30d': 30 * 86400,
}

export const GRANT_STATUSES = ['active', 'expired', 'revoked', 'exhausted'] as const
export const GrantStatusSchema = z.enum(GRANT_STATUSES)
export type GrantStatus = z.infer<typeof GrantStatusSchema>
export const GRANT_STATUS_LABELS: Record<GrantStatus, string> = {
  active: '有效',
  expired: '已过期',
  revoked: '已撤销',
  exhausted: '次数已用完',
}

/** Records in one grant: enough for a study with its report, or a few visits. */
export const GRANT_RECORDS_MAX = 20
/** A link's optional view limit (views = openings of the link with the right code). */
export const GRANT_MAX_VIEWS_MAX = 100
/**
 * Grants to an account (by phone number) a person may make in a day. Each answers whether a number
 * is registered, and as whom (masked): without a bound the call looked numbers up in bulk.
 */
export const ACCOUNT_GRANTS_PER_DAY = 30
export const PICKUP_CODE_LENGTH = 4
/** Wrong 提取码 attempts per link before it is locked for PICKUP_LOCK_MINUTES (limits module). */
export const PICKUP_ATTEMPTS_MAX = 5
export const PICKUP_LOCK_MINUTES = 15
/**
 * Wrong 提取码 in a link's whole life: at this many the link ends and its owner is told. Without it
 * a 30-day link allowed 480 guesses a day, all 10 000 codes in three weeks; with it a guesser's
 * chance is 20 in 10 000 (0.2%), and the owner learns someone tried.
 */
export const PICKUP_WRONG_TOTAL_MAX = 20
/** How long a visitor's session lasts after opening a link (never beyond the grant's expiry). */
export const SHARE_SESSION_SECONDS = 2 * 3600
/** Share-session access tokens start with this, so DICOMweb's bearer check can tell them apart. */
export const SHARE_TOKEN_PREFIX = 'yxs_'

export const GRANT_MESSAGES = {
  noRecords: '请至少选择一项要授权的影像或报告',
  tooManyRecords: `一次最多授权 ${GRANT_RECORDS_MAX} 项`,
  mobileRequired: '请输入对方的手机号',
  noAccount: '该手机号尚未注册，请让对方先注册，或改用链接分享',
  self: '不能授权给自己',
  maxViews: `查看次数应为 1–${GRANT_MAX_VIEWS_MAX} 次`,
  linkOnly: '提取码和查看次数只用于链接分享',
  /** Whoever held a grant that has ended (revoked, expired, used up). */
  ended: '授权已失效',
  notFound: '授权不存在或已删除',
  linkInvalid: '链接无效或已失效',
  pickupRequired: '请输入 4 位提取码',
  pickupWrong: '提取码错误，请向分享人确认',
  pickupLocked: `提取码错误次数过多，请 ${PICKUP_LOCK_MINUTES} 分钟后再试`,
  pickupExhausted: '提取码错误次数过多，该分享已失效，请联系分享人重新分享',
  noReshare: '通过授权查看的记录不能再次分享',
  accountGrantsExhausted: `每天最多按手机号授权 ${ACCOUNT_GRANTS_PER_DAY} 次，请明天再试`,
  /** DICOMweb instance retrieve (the stored files, with the patient's identity) through a grant. */
  noFiles: '通过授权查看的影像仅供在线浏览，不提供原始文件下载',
} as const

export const PickupCodeSchema = z
  .string({ error: GRANT_MESSAGES.pickupRequired })
  .check(z.regex(/^\d{4}$/, GRANT_MESSAGES.pickupRequired))

/** What a grant covers, as lists show it. */
export const GrantRecordSchema = z.object({
  kind: z.enum(['exam', 'report']),
  /** The exam's or the report's id. */
  id: z.string(),
  examId: z.string(),
  title: z.string(),
  /** The hospital's name, or the patient's own text for uploads. */
  hospitalName: z.nullable(z.string()),
  studyDate: z.nullable(z.string()),
  modalities: z.array(z.string()),
  /** The report is private (shared only because it was ticked itself). */
  private: z.boolean(),
})
export type GrantRecord = z.infer<typeof GrantRecordSchema>

/** Who a grant is to, masked (张*, 138****0000). */
export const GranteeSchema = z.object({
  userId: z.string(),
  nameMasked: z.nullable(z.string()),
  mobileMasked: z.nullable(z.string()),
  role: z.enum(['patient', 'expert']),
})

/** A grant as its owner sees it (授权记录). */
/** Why a grant exists: made by hand in 授权记录, or by submitting a consultation (labelled 咨询). */
export const GRANT_PURPOSE_LABELS = { share: '分享', consultation: '咨询' } as const

export const GrantSchema = z.object({
  id: z.string(),
  audience: GrantAudienceSchema,
  purpose: z.enum(['share', 'consultation']),
  /** 分享 or 咨询 (a consultation's grant: revoking it ends what the expert sees; they are told). */
  purposeLabel: z.string(),
  status: GrantStatusSchema,
  statusLabel: z.string(),
  /** The person whose records these are (the caller, or a family member they manage). */
  personId: z.string(),
  personNameMasked: z.nullable(z.string()),
  records: z.array(GrantRecordSchema),
  /** audience 'account' only. */
  grantee: z.nullable(GranteeSchema),
  /** audience 'link' only: whether a 提取码 is needed (the code itself is shown once). */
  pickupCode: z.boolean(),
  maxViews: z.nullable(z.number()),
  /** Views so far (one view = one session on one record, see GrantViewSchema). */
  views: z.number(),
  /** Link openings with the right code (what maxViews counts); 0 for account grants. */
  opens: z.number(),
  lastViewAt: z.nullable(z.string()),
  createdAt: z.string(),
  expiresAt: z.string(),
  revokedAt: z.nullable(z.string()),
})
export type Grant = z.infer<typeof GrantSchema>

export const createGrant = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/grants',
  input: z.object({
    audience: GrantAudienceSchema,
    examIds: z.array(IdSchema).check(z.maxLength(GRANT_RECORDS_MAX, GRANT_MESSAGES.tooManyRecords)),
    /** Reports named one by one (a private report is shared only this way). */
    reportIds: z
      .array(IdSchema)
      .check(z.maxLength(GRANT_RECORDS_MAX, GRANT_MESSAGES.tooManyRecords)),
    duration: GrantDurationSchema,
    /** audience 'account': the grantee's phone number. */
    mobile: z.optional(MobileSchema),
    /** audience 'link': ask a 4-digit 提取码 (the server draws it). */
    pickupCode: z.optional(z.boolean()),
    /**
     * audience 'link': at most this many openings. A JSON number: `true`, `"0x10"` or `" 7 "` are
     * refused, not read as 1, 16 or 7.
     */
    maxViews: z.optional(
      z
        .number({ error: GRANT_MESSAGES.maxViews })
        .check(
          z.int(GRANT_MESSAGES.maxViews),
          z.minimum(1, GRANT_MESSAGES.maxViews),
          z.maximum(GRANT_MAX_VIEWS_MAX, GRANT_MESSAGES.maxViews),
        ),
    ),
    /** Grant for a family member the caller manages (their records); default: the caller's own. */
    personId: z.optional(IdSchema),
  }),
  output: z.object({
    grant: GrantSchema,
    /** audience 'link' only, shown this once: the token, the app path that opens it, the code. */
    link: z.nullable(
      z.object({
        token: z.string(),
        /** `/pages/share/share?token=…` (the app's route), for the mini-program share card. */
        path: z.string(),
        /** Absolute H5 address (the server's PUBLIC_URL), for copy and the QR code. */
        url: z.string(),
        pickupCode: z.nullable(z.string()),
        /** Share-card title without personal data: 张**分享的影像. */
        title: z.string(),
      }),
    ),
  }),
  auth: true,
  summary:
    '新增授权：把选定的影像和报告授权给医生/亲友账号，或生成分享链接（可设提取码、有效期、查看次数）',
})

export const listGrants = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/grants',
  input: z.object({
    /** A family member's grants (default: the caller's own). */
    personId: z.optional(IdSchema),
    /** Only grants covering this exam (or its report). */
    examId: z.optional(IdSchema),
  }),
  /** Newest first; ended grants stay listed (with their status) so the log keeps its context. */
  output: z.array(GrantSchema),
  auth: true,
  summary: '授权记录（每项授权的内容、对象、状态、查看次数和最近查看）',
})

export const cancelGrant = defineEndpoint({
  service: 'main',
  method: 'DELETE',
  path: '/grants/:grantId',
  input: z.object({ grantId: IdSchema }),
  /** At once: the holder's next request is answered 403 授权已失效. Idempotent. */
  output: GrantSchema,
  auth: true,
  summary: '撤销授权（立即生效）',
})

/** One view: one session (a login session, or one opening of a link) on one record. */
export const GrantViewSchema = z.object({
  grantId: z.string(),
  /** The viewer's masked name, or 分享访客 for a link. */
  viewer: z.string(),
  viewerKind: z.enum(['account', 'link']),
  record: GrantRecordSchema,
  firstAt: z.string(),
  lastAt: z.string(),
  /** City-level place from the address (北京市, 局域网, 未知): never finer. */
  place: z.string(),
})
export type GrantView = z.infer<typeof GrantViewSchema>

export const listGrantViews = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/grants/:grantId/views',
  input: z.object({ grantId: IdSchema }),
  output: z.array(GrantViewSchema),
  auth: true,
  summary: '一项授权的查看记录（谁、何时、看了什么、大致地点）',
})

export const listRecordViews = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/exams/:examId/views',
  input: z.object({ examId: IdSchema }),
  /** Views of the exam and its report through any grant, newest first (谁看过). */
  output: z.array(GrantViewSchema),
  auth: true,
  summary: '谁看过：这次检查的影像和报告经授权被查看的记录',
})

/** A grant as its holder sees it (共享给我的, and the link visitor's landing page). */
export const ReceivedGrantSchema = z.object({
  id: z.string(),
  status: GrantStatusSchema,
  statusLabel: z.string(),
  /** 张** : who shared it. */
  sharerMasked: z.string(),
  records: z.array(GrantRecordSchema),
  expiresAt: z.string(),
  createdAt: z.string(),
  /** What the watermark says besides the time: the holder's masked name, or 分享访客. */
  watermark: z.string(),
})
export type ReceivedGrant = z.infer<typeof ReceivedGrantSchema>

export const listReceivedGrants = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/grants/received',
  input: z.object({}),
  /** Active grants to the caller's account, newest first. */
  output: z.array(ReceivedGrantSchema),
  auth: true,
  summary: '共享给我的：他人授权给我查看的影像和报告',
})

// ---------------------------------------------------------------------------------------------------
// Link visitors (no account). Opening counts a view only after the person taps 查看 (openShare):
// the preview a browser or WeChat fetches (getShare) counts nothing.

export const getShare = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/shares/:token',
  input: z.object({ token: z.string().check(z.minLength(1), z.maxLength(64)) }),
  output: z.object({
    sharerMasked: z.string(),
    needsPickupCode: z.boolean(),
    expiresAt: z.string(),
    status: GrantStatusSchema,
    statusLabel: z.string(),
    /** How many records, without naming them before the code is given. */
    recordCount: z.number(),
  }),
  auth: false,
  summary: '分享链接预览（分享人、是否需要提取码、有效期；不计查看）',
})

export const openShare = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/shares/:token/open',
  input: z.object({
    token: z.string().check(z.minLength(1), z.maxLength(64)),
    pickupCode: z.optional(PickupCodeSchema),
  }),
  output: z.object({
    /** `yxs_…`: a bearer token for this grant only (the shared routes and DICOMweb reads). */
    accessToken: z.string(),
    expiresAt: z.string(),
    grant: ReceivedGrantSchema,
  }),
  auth: false,
  summary: '打开分享链接（校验提取码，计一次打开），得到仅限本次分享的访问令牌',
})

// ---------------------------------------------------------------------------------------------------
// Reading through a grant: a signed-in grantee's token, or a link visitor's yxs_ token.

export const getSharedGrant = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/shared/:grantId',
  input: z.object({ grantId: IdSchema }),
  output: ReceivedGrantSchema,
  auth: true,
  summary: '经授权查看：授权概要（分享人、内容、有效期、水印文字）',
})

export const getSharedExam = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/shared/:grantId/exams/:examId',
  input: z.object({ grantId: IdSchema, examId: IdSchema }),
  output: ExamDetailSchema,
  auth: true,
  summary: '经授权查看：检查详情（序列与缩略图）',
})

export const getSharedReport = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/shared/:grantId/reports/:reportId',
  input: z.object({ grantId: IdSchema, reportId: IdSchema }),
  output: ReportDetailSchema,
  auth: true,
  summary: '经授权查看：报告详情',
})
