import { z } from 'zod/mini'
import { PageQuerySchema, pageOf } from '../common'
import { defineEndpoint } from '../endpoint'

/*
 * Feedback (意见反馈, `feedback/feedback`; SPEC section 7 "feedback add"). A person sends a type, a
 * text, up to FEEDBACK_IMAGES_MAX images and an optional contact; they see their own feedback and
 * the operator's reply (contract/main/operator.ts answers it). Images go up one by one first
 * (uploadFeedbackImage, multipart field `file`, like report photos: sniffed, re-encoded without
 * metadata) and are named by id in addFeedback; an image nobody names within a day is removed.
 */

export const FEEDBACK_TYPES = ['bug', 'suggestion', 'records', 'account', 'other'] as const
export const FeedbackTypeSchema = z.enum(FEEDBACK_TYPES, { error: '请选择反馈类型' })
export type FeedbackType = z.infer<typeof FeedbackTypeSchema>
export const FEEDBACK_TYPE_LABELS: Record<FeedbackType, string> = {
  bug: '功能异常',
  suggestion: '产品建议',
  records: '影像/报告问题',
  account: '账号问题',
  other: '其他',
}

export const FEEDBACK_TEXT_MIN = 5
export const FEEDBACK_TEXT_MAX = 500
export const FEEDBACK_IMAGES_MAX = 6
export const FEEDBACK_CONTACT_MAX = 50

export const FEEDBACK_MESSAGES = {
  textShort: `请至少写 ${FEEDBACK_TEXT_MIN} 个字，说清遇到的问题或建议`,
  textLong: `反馈内容最多 ${FEEDBACK_TEXT_MAX} 个字`,
  tooManyImages: `最多上传 ${FEEDBACK_IMAGES_MAX} 张图片`,
  contactLong: `联系方式最多 ${FEEDBACK_CONTACT_MAX} 个字`,
  imageNotFound: '图片已失效，请重新上传',
} as const

export const FeedbackStatusSchema = z.enum(['open', 'replied', 'closed'])
export const FEEDBACK_STATUS_LABELS = {
  open: '待处理',
  replied: '已回复',
  closed: '已关闭',
} as const

export const FeedbackSchema = z.object({
  id: z.string(),
  type: FeedbackTypeSchema,
  typeLabel: z.string(),
  text: z.string(),
  /** Authorised image paths (the sender's and operators' only). */
  imagePaths: z.array(z.string()),
  contact: z.nullable(z.string()),
  status: FeedbackStatusSchema,
  statusLabel: z.string(),
  createdAt: z.string(),
  reply: z.nullable(z.object({ text: z.string(), at: z.string() })),
})
export type Feedback = z.infer<typeof FeedbackSchema>

export const addFeedback = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/feedback',
  input: z.object({
    type: FeedbackTypeSchema,
    text: z
      .string({ error: FEEDBACK_MESSAGES.textShort })
      .check(
        z.trim(),
        z.minLength(FEEDBACK_TEXT_MIN, FEEDBACK_MESSAGES.textShort),
        z.maxLength(FEEDBACK_TEXT_MAX, FEEDBACK_MESSAGES.textLong),
      ),
    /** Ids from uploadFeedbackImage, in the order shown. */
    imageIds: z
      .array(z.string())
      .check(z.maxLength(FEEDBACK_IMAGES_MAX, FEEDBACK_MESSAGES.tooManyImages)),
    contact: z.optional(
      z.string().check(z.trim(), z.maxLength(FEEDBACK_CONTACT_MAX, FEEDBACK_MESSAGES.contactLong)),
    ),
  }),
  output: FeedbackSchema,
  auth: true,
  summary: '提交意见反馈',
})

export const listMyFeedback = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/feedback',
  input: PageQuerySchema,
  output: pageOf(FeedbackSchema),
  auth: true,
  summary: '我的反馈（含处理状态和回复）',
})

/**
 * Uploading one image (multipart, field `file`; the mini-program's uploadFile): a raw route, not a
 * JSON endpoint, like report photos. Answers the image's id for addFeedback.
 */
export const FEEDBACK_IMAGES_PATH = '/main/feedback/images'
export const FeedbackImageSchema = z.object({ id: z.string(), path: z.string() })
