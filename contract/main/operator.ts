import { z } from 'zod/mini'
import { IdSchema, OkSchema, pageOf, PageQuerySchema } from '../common'
import { defineEndpoint } from '../endpoint'
import { HOSPITAL_CARD, HospitalSchema } from '../hospitals'
import { ROLE_REQUIRED_MESSAGES } from '../sso/auth'
import {
  ARTICLE_SUMMARY_MAX,
  ARTICLE_TITLE_MAX,
  ArticleDetailSchema,
  VideoCategorySchema,
  VideoDetailSchema,
} from './content'
import { FeedbackSchema, FeedbackStatusSchema } from './feedback'

/*
 * Operators (issue 10): a role of its own (users.role = 'operator'), H5 pages in their own subpackage
 * that the weapp build leaves out. Every call here answers 403 to anyone else, and every change is
 * written to the audit log with who, when and what. An operator never sees patients' records:
 * nothing here returns an exam, a report or a person's identity beyond a feedback's own text and
 * contact.
 */

export const OPERATOR_MESSAGES = {
  notOperator: ROLE_REQUIRED_MESSAGES.operator,
  titleRequired: '请输入标题',
  titleLong: `标题最多 ${ARTICLE_TITLE_MAX} 个字`,
  summaryLong: `摘要最多 ${ARTICLE_SUMMARY_MAX} 个字`,
  bodyRequired: '请输入正文',
  replyRequired: '请输入回复内容',
} as const

const Title = z
  .string({ error: OPERATOR_MESSAGES.titleRequired })
  .check(
    z.trim(),
    z.minLength(1, OPERATOR_MESSAGES.titleRequired),
    z.maxLength(ARTICLE_TITLE_MAX, OPERATOR_MESSAGES.titleLong),
  )
const Summary = z
  .string()
  .check(z.trim(), z.maxLength(ARTICLE_SUMMARY_MAX, OPERATOR_MESSAGES.summaryLong))

export const PUBLISH_STATES = ['draft', 'published', 'unpublished'] as const
export const PublishStateSchema = z.enum(PUBLISH_STATES)
export const PUBLISH_STATE_LABELS = {
  draft: '草稿',
  published: '已发布',
  unpublished: '已下架',
} as const

// --- Articles -------------------------------------------------------------------------------------

export const ArticleDraftSchema = z.object({
  typeId: IdSchema,
  title: Title,
  summary: Summary,
  /** HTML as written; the server keeps only the allow-list (content.ts ARTICLE_TAGS) and says so. */
  html: z
    .string({ error: OPERATOR_MESSAGES.bodyRequired })
    .check(z.minLength(1, OPERATOR_MESSAGES.bodyRequired)),
  author: z.optional(z.string().check(z.trim(), z.maxLength(30))),
  source: z.optional(z.string().check(z.trim(), z.maxLength(60))),
  /** An uploaded cover's id (OPERATOR_FILES_PATH); absent on an edit: the cover stays. */
  coverImageId: z.optional(z.string()),
})

export const OperatorArticleSchema = z.extend(ArticleDetailSchema, {
  state: PublishStateSchema,
  stateLabel: z.string(),
  updatedAt: z.string(),
  /** Tags or attributes the sanitiser removed from the last save (shown so nothing vanishes silently). */
  removed: z.array(z.string()),
})

export const operatorListArticles = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/operator/articles',
  input: z.extend(PageQuerySchema, { state: z.optional(PublishStateSchema) }),
  output: pageOf(OperatorArticleSchema),
  auth: true,
  role: 'operator',
  summary: '运营：文章列表（含草稿、已下架）',
})

export const operatorListArticleTypes = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/operator/article-types',
  input: z.object({}),
  /** Every type, with the count of all its articles (drafts included). */
  output: z.array(z.object({ id: z.string(), name: z.string(), count: z.number() })),
  auth: true,
  role: 'operator',
  summary: '运营：文章分类',
})

export const operatorGetArticle = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/operator/articles/:articleId',
  input: z.object({ articleId: IdSchema }),
  output: OperatorArticleSchema,
  auth: true,
  role: 'operator',
  summary: '运营：文章详情（含草稿）',
})

export const operatorSaveArticle = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/operator/articles',
  /** With `id`: an edit of that article; without: a new draft. */
  input: z.extend(ArticleDraftSchema, { id: z.optional(IdSchema) }),
  output: OperatorArticleSchema,
  auth: true,
  role: 'operator',
  summary: '运营：新建或修改文章（保存为草稿）',
})

export const operatorSetArticleState = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/operator/articles/:articleId/state',
  input: z.object({ articleId: IdSchema, state: z.enum(['published', 'unpublished']) }),
  output: OperatorArticleSchema,
  auth: true,
  role: 'operator',
  summary: '运营：发布 / 下架文章',
})

// --- Videos ---------------------------------------------------------------------------------------

export const OperatorVideoSchema = z.extend(VideoDetailSchema, {
  /** The video file's id, so an edit can keep it (operatorSaveVideo fileId). */
  fileId: z.string(),
  state: PublishStateSchema,
  stateLabel: z.string(),
  updatedAt: z.string(),
})

export const operatorListVideos = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/operator/videos',
  input: z.extend(PageQuerySchema, { category: z.optional(VideoCategorySchema) }),
  output: pageOf(OperatorVideoSchema),
  auth: true,
  role: 'operator',
  summary: '运营：视频列表',
})

export const operatorSaveVideo = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/operator/videos',
  /** The file itself goes up first (a raw multipart route, MP4 checked by its header). */
  input: z.object({
    id: z.optional(IdSchema),
    category: VideoCategorySchema,
    title: Title,
    summary: Summary,
    fileId: z.string(),
    posterImageId: z.optional(z.string()),
  }),
  output: OperatorVideoSchema,
  auth: true,
  role: 'operator',
  summary: '运营：新建或修改视频',
})

export const operatorSetVideoState = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/operator/videos/:videoId/state',
  input: z.object({ videoId: IdSchema, state: z.enum(['published', 'unpublished']) }),
  output: OperatorVideoSchema,
  auth: true,
  role: 'operator',
  summary: '运营：发布 / 下架视频',
})

// --- Feedback -------------------------------------------------------------------------------------

export const operatorListFeedback = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/operator/feedback',
  input: z.extend(PageQuerySchema, { status: z.optional(FeedbackStatusSchema) }),
  output: pageOf(FeedbackSchema),
  auth: true,
  role: 'operator',
  summary: '运营：意见反馈列表',
})

export const operatorReplyFeedback = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/operator/feedback/:feedbackId/reply',
  input: z.object({
    feedbackId: IdSchema,
    text: z
      .string({ error: OPERATOR_MESSAGES.replyRequired })
      .check(z.trim(), z.minLength(1, OPERATOR_MESSAGES.replyRequired), z.maxLength(500)),
    /** 采纳: the sender earns points (apps.ts POINT_REASONS feedbackAdopted), once. */
    adopted: z.boolean(),
  }),
  /** The sender gets a message (messages.ts, kind system) with the reply. */
  output: FeedbackSchema,
  auth: true,
  role: 'operator',
  summary: '运营：回复反馈（可采纳并奖励积分）',
})

// --- Features and hospitals -----------------------------------------------------------------------

export const operatorSetFeature = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/operator/features/:key',
  input: z.object({
    key: z.string().check(z.regex(/^[a-zA-Z][a-zA-Z0-9]{0,31}$/)),
    enabled: z.boolean(),
    order: z.optional(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(999))),
  }),
  output: OkSchema,
  auth: true,
  role: 'operator',
  summary: '运营：开关应用功能、调整顺序',
})

export const OperatorFeatureSchema = z.object({
  key: z.string(),
  name: z.string(),
  iconPath: z.string(),
  enabled: z.boolean(),
  order: z.number(),
  updatedAt: z.string(),
})

export const operatorListFeatures = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/operator/features',
  input: z.object({}),
  /** Every feature, switched on or off, in order. */
  output: z.array(OperatorFeatureSchema),
  auth: true,
  role: 'operator',
  summary: '运营：全部应用功能（含已关闭）',
})

export const HOSPITAL_NAME_MAX = 100
const HospitalText = (max: number) => z.optional(z.string().check(z.trim(), z.maxLength(max)))

/** What an operator edits, and the hospital's count of keys not revoked. */
export const OperatorHospitalSchema = z.extend(
  z.pick(HospitalSchema, {
    ...HOSPITAL_CARD,
    regionCode: true,
    regionName: true,
    latitude: true,
    longitude: true,
    demo: true,
  }),
  { activeKeys: z.number() },
)

export const operatorListHospitals = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/operator/hospitals',
  input: z.object({}),
  output: z.array(OperatorHospitalSchema),
  auth: true,
  role: 'operator',
  summary: '运营：医院列表',
})

export const operatorSaveHospital = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/operator/hospitals',
  /** With `id`: an edit of that hospital; without: a new one (names are unique). */
  input: z.object({
    id: z.optional(IdSchema),
    name: z
      .string({ error: '请填写医院名称' })
      .check(
        z.trim(),
        z.minLength(1, '请填写医院名称'),
        z.maxLength(HOSPITAL_NAME_MAX, `医院名称不能超过 ${HOSPITAL_NAME_MAX} 个字`),
      ),
    level: HospitalText(20),
    province: HospitalText(20),
    city: HospitalText(20),
    address: HospitalText(100),
    regionCode: z.optional(
      z
        .string()
        .check(z.trim(), z.regex(/^(\d{6})?$/, '地区代码应为 6 位数字的行政区划代码（如 110101）')),
    ),
    regionName: HospitalText(30),
    /** GCJ-02 (高德 / 腾讯地图 coordinates); both or neither. */
    latitude: z.optional(
      z.coerce
        .number()
        .check(z.minimum(3, '纬度应在 3–54 之间'), z.maximum(54, '纬度应在 3–54 之间')),
    ),
    longitude: z.optional(
      z.coerce
        .number()
        .check(z.minimum(73, '经度应在 73–136 之间'), z.maximum(136, '经度应在 73–136 之间')),
    ),
  }),
  output: OperatorHospitalSchema,
  auth: true,
  role: 'operator',
  summary: '运营：新增或修改医院',
})

export const HospitalKeySchema = z.object({
  id: z.string(),
  /** yxh_ab12…: the start only; the whole key is shown once, when issued. */
  prefix: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.nullable(z.string()),
  revokedAt: z.nullable(z.string()),
})

export const operatorListHospitalKeys = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/operator/hospitals/:hospitalId/keys',
  input: z.object({ hospitalId: IdSchema }),
  output: z.array(HospitalKeySchema),
  auth: true,
  role: 'operator',
  summary: '运营：医院的接口密钥',
})

export const operatorIssueHospitalKey = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/operator/hospitals/:hospitalId/keys',
  input: z.object({ hospitalId: IdSchema }),
  /** The whole key, this once. */
  output: z.extend(HospitalKeySchema, { key: z.string() }),
  auth: true,
  role: 'operator',
  summary: '运营：签发医院接口密钥（只显示一次）',
})

export const operatorRevokeHospitalKey = defineEndpoint({
  service: 'main',
  method: 'DELETE',
  path: '/operator/hospitals/:hospitalId/keys/:keyId',
  input: z.object({ hospitalId: IdSchema, keyId: IdSchema }),
  output: HospitalKeySchema,
  auth: true,
  role: 'operator',
  summary: '运营：吊销医院接口密钥（立即生效）',
})

// --- Files and the audit log ----------------------------------------------------------------------

/**
 * A cover, a poster or a video goes up here first (multipart field `file`, `?kind=cover|poster|
 * video`), then an article or a video names it by id. Pictures are re-encoded as JPEG (no EXIF);
 * a video must be an MP4 (checked by its `ftyp` box, its length read from `mvhd`).
 */
export const OPERATOR_FILES_PATH = '/main/operator/files'
export const OPERATOR_FILE_KINDS = ['cover', 'poster', 'video'] as const
export const OperatorFileKindSchema = z.enum(OPERATOR_FILE_KINDS)
export const OPERATOR_VIDEO_MAX_BYTES = 50 * 1024 * 1024
export const OperatorFileSchema = z.object({
  id: z.string(),
  /** /media/<id> once attached. */
  path: z.string(),
  /** Seconds, for a video. */
  durationSeconds: z.nullable(z.number()),
})

export const OPERATOR_ACTIONS = [
  'article-save',
  'article-publish',
  'article-unpublish',
  'video-save',
  'video-publish',
  'video-unpublish',
  'feedback-reply',
  'feature-set',
  'hospital-save',
  'hospital-key-issue',
  'hospital-key-revoke',
  'expert-approve',
  'expert-reject',
  'hospital-request-resolve',
  'hospital-request-decline',
  'expert-suspend',
  'expert-resume',
  'consult-complaint',
  'platform-share-set',
  'withdrawal-approve',
  'withdrawal-reject',
  'wallet-reconcile',
  'income-report-export',
  'wallet-limits-set',
] as const
export const OperatorActionKindSchema = z.enum(OPERATOR_ACTIONS)
export const OPERATOR_ACTION_LABELS: Record<z.infer<typeof OperatorActionKindSchema>, string> = {
  'article-save': '保存文章',
  'article-publish': '发布文章',
  'article-unpublish': '下架文章',
  'video-save': '保存视频',
  'video-publish': '发布视频',
  'video-unpublish': '下架视频',
  'feedback-reply': '回复反馈',
  'feature-set': '设置应用功能',
  'hospital-save': '保存医院',
  'hospital-key-issue': '签发医院密钥',
  'hospital-key-revoke': '吊销医院密钥',
  'expert-approve': '通过专家认证',
  'expert-reject': '驳回专家认证',
  'hospital-request-resolve': '添加申请的医院',
  'hospital-request-decline': '不予添加申请的医院',
  'expert-suspend': '暂停专家服务',
  'expert-resume': '恢复专家服务',
  'consult-complaint': '处理咨询投诉',
  'platform-share-set': '设置平台分成',
  'withdrawal-approve': '通过提现审核',
  'withdrawal-reject': '驳回提现',
  'wallet-reconcile': '提现对账',
  'income-report-export': '导出收入报送表',
  'wallet-limits-set': '设置提现限额',
}

export const OperatorActionSchema = z.object({
  id: z.string(),
  action: OperatorActionKindSchema,
  label: z.string(),
  targetId: z.string(),
  detail: z.nullable(z.string()),
  /** The operator's nickname. */
  operator: z.string(),
  at: z.string(),
})

export const operatorListActions = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/operator/actions',
  input: PageQuerySchema,
  output: pageOf(OperatorActionSchema),
  auth: true,
  role: 'operator',
  summary: '运营：操作记录（审计日志）',
})
