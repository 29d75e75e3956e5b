import { z } from 'zod/mini'
import { OkSchema, PageQuerySchema, pageOf } from '../common'
import { defineEndpoint } from '../endpoint'
import {
  ARTICLE_SUMMARY_MAX,
  ARTICLE_TITLE_MAX,
  ArticleDetailSchema,
  VideoCategorySchema,
  VideoDetailSchema,
} from './content'
import { FeedbackSchema, FeedbackStatusSchema } from './feedback'
import { IdSchema } from './records'

/*
 * Operators (issue 10): a role of its own (users.role = 'operator'), H5 pages in their own subpackage
 * that the weapp build leaves out. Every call here answers 403 to anyone else, and every change is
 * written to the audit log with who, when and what. An operator never sees patients' records:
 * nothing here returns an exam, a report or a person's identity beyond a feedback's own text and
 * contact.
 */

export const OPERATOR_MESSAGES = {
  notOperator: '仅运营人员可以使用此功能',
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
  /** An uploaded image's id (operator image upload), or none. */
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
  summary: '运营：文章列表（含草稿、已下架）',
})

export const operatorSaveArticle = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/operator/articles',
  /** With `id`: an edit of that article; without: a new draft. */
  input: z.extend(ArticleDraftSchema, { id: z.optional(IdSchema) }),
  output: OperatorArticleSchema,
  auth: true,
  summary: '运营：新建或修改文章（保存为草稿）',
})

export const operatorSetArticleState = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/operator/articles/:articleId/state',
  input: z.object({ articleId: IdSchema, state: z.enum(['published', 'unpublished']) }),
  output: OperatorArticleSchema,
  auth: true,
  summary: '运营：发布 / 下架文章',
})

// --- Videos ---------------------------------------------------------------------------------------

export const OperatorVideoSchema = z.extend(VideoDetailSchema, {
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
  summary: '运营：新建或修改视频',
})

export const operatorSetVideoState = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/operator/videos/:videoId/state',
  input: z.object({ videoId: IdSchema, state: z.enum(['published', 'unpublished']) }),
  output: OperatorVideoSchema,
  auth: true,
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
  summary: '运营：开关应用功能、调整顺序',
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
  summary: '运营：签发医院接口密钥（只显示一次）',
})

export const operatorRevokeHospitalKey = defineEndpoint({
  service: 'main',
  method: 'DELETE',
  path: '/operator/hospitals/:hospitalId/keys/:keyId',
  input: z.object({ hospitalId: IdSchema, keyId: IdSchema }),
  output: HospitalKeySchema,
  auth: true,
  summary: '运营：吊销医院接口密钥（立即生效）',
})
