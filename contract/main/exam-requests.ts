import { z } from 'zod/mini'
import { IdSchema } from '../common'
import { defineEndpoint } from '../endpoint'
import { safeDisplayText } from '../text'

/*
 * 检查申请单 (issue 23, "the other report pages"): in a consultation the expert may suggest further
 * exams. The patient sees it in the conversation (a card) and as a form to show at any hospital's
 * registration desk, with its request number as a Code 128 bar code. It is a suggestion, not an
 * order: the hospital's own doctor decides.
 */

export const EXAM_TYPES = [
  'ct',
  'ct-contrast',
  'mr',
  'mr-contrast',
  'xray',
  'ultrasound',
  'pet-ct',
  'other',
] as const
export type ExamType = (typeof EXAM_TYPES)[number]
export const EXAM_TYPE_LABELS: Record<ExamType, string> = {
  ct: 'CT',
  'ct-contrast': '增强 CT',
  mr: 'MR',
  'mr-contrast': '增强 MR',
  xray: 'X 线',
  ultrasound: '超声',
  'pet-ct': 'PET-CT',
  other: '其他',
}

export const EXAM_CONTRASTS = ['yes', 'no', 'hospital'] as const
export type ExamContrast = (typeof EXAM_CONTRASTS)[number]
export const EXAM_CONTRAST_LABELS: Record<ExamContrast, string> = {
  yes: '是',
  no: '否',
  hospital: '由医院决定',
}

export const EXAM_URGENCIES = ['routine', 'soon', 'urgent'] as const
export type ExamUrgency = (typeof EXAM_URGENCIES)[number]
export const EXAM_URGENCY_LABELS: Record<ExamUrgency, string> = {
  routine: '常规',
  soon: '尽快（1 周内）',
  urgent: '紧急（请立即就医）',
}

/** Body parts offered as taps; any other part may be typed. */
export const EXAM_BODY_PARTS = [
  '头颅',
  '颈部',
  '胸部',
  '上腹部',
  '全腹部',
  '盆腔',
  '颈椎',
  '腰椎',
  '膝关节',
  '乳腺',
] as const

export const EXAM_REASON_MAX = 500
export const EXAM_BODY_PART_MAX = 30
export const EXAM_NAME_MAX = 30

/** Printed on every 检查申请单, and said again under the expert's compose form. */
export const EXAM_REQUEST_NOTICE =
  '本单为专家的检查建议，不是医嘱或处方；请到医院挂号后由接诊医生决定是否检查'

export const EXAM_REQUEST_MESSAGES = {
  examType: '请选择检查类型',
  examName: `选择「其他」时请填写检查名称（最多 ${EXAM_NAME_MAX} 字）`,
  bodyPart: `请选择或填写检查部位（最多 ${EXAM_BODY_PART_MAX} 字）`,
  contrast: '请选择是否使用造影剂',
  urgency: '请选择紧急程度',
  reason: '请填写检查理由，便于接诊医生了解',
  reasonLong: `检查理由最多 ${EXAM_REASON_MAX} 字`,
  unsafe: '内容含有无法显示的字符，请删除后重试',
  notAnswering: '只有进行中或已回复的咨询可以开检查建议',
  notFound: '检查申请单不存在或您无权查看',
  sent: '检查建议已发送给患者',
  clientIdTaken: '发送失败，请返回对话后重新开检查建议',
} as const

/** JC + the day (YYYYMMDD) + 6 random digits: what the Code 128 bar code carries. */
export const EXAM_REQUEST_NUMBER = /^JC\d{14}$/

const shortText = (max: number, message: string) =>
  z
    .string({ error: message })
    .check(
      z.trim(),
      z.minLength(1, message),
      z.maxLength(max, message),
      safeDisplayText(EXAM_REQUEST_MESSAGES.unsafe),
    )

const formShape = {
  examType: z.enum(EXAM_TYPES, { error: EXAM_REQUEST_MESSAGES.examType }),
  /** The exam's name when examType is 'other'. */
  examName: z.optional(
    z
      .string()
      .check(
        z.trim(),
        z.maxLength(EXAM_NAME_MAX, EXAM_REQUEST_MESSAGES.examName),
        safeDisplayText(EXAM_REQUEST_MESSAGES.unsafe),
      ),
  ),
  bodyPart: shortText(EXAM_BODY_PART_MAX, EXAM_REQUEST_MESSAGES.bodyPart),
  contrast: z.enum(EXAM_CONTRASTS, { error: EXAM_REQUEST_MESSAGES.contrast }),
  urgency: z.enum(EXAM_URGENCIES, { error: EXAM_REQUEST_MESSAGES.urgency }),
  reason: z
    .string({ error: EXAM_REQUEST_MESSAGES.reason })
    .check(
      z.trim(),
      z.minLength(1, EXAM_REQUEST_MESSAGES.reason),
      z.maxLength(EXAM_REASON_MAX, EXAM_REQUEST_MESSAGES.reasonLong),
      safeDisplayText(EXAM_REQUEST_MESSAGES.unsafe, { multiline: true }),
    ),
}

/** 其他 needs its name. */
export const otherIsNamed = z.refine<{ examType: ExamType; examName?: string | undefined }>(
  (form) => form.examType !== 'other' || Boolean(form.examName),
  { message: EXAM_REQUEST_MESSAGES.examName, path: ['examName'] },
)

/** What the expert fills (the compose form checks it with this schema before the server does). */
export const ExamRequestFormSchema = z.object(formShape).check(otherIsNamed)
export type ExamRequestForm = z.infer<typeof ExamRequestFormSchema>

/** The exam as the form and the card name it: 增强 CT, or the typed name of 其他. */
export function examTypeLabel(examType: ExamType, examName?: string | null): string {
  return examType === 'other' && examName ? examName : EXAM_TYPE_LABELS[examType]
}

export const ExamRequestSchema = z.object({
  id: z.string(),
  /** JC20261129042517: the bar code's content. */
  number: z.string(),
  consultationId: z.string(),
  examType: z.enum(EXAM_TYPES),
  examTypeLabel: z.string(),
  bodyPart: z.string(),
  contrast: z.enum(EXAM_CONTRASTS),
  contrastLabel: z.string(),
  urgency: z.enum(EXAM_URGENCIES),
  urgencyLabel: z.string(),
  reason: z.string(),
  /** As the consultation showed them when it was written (masked name). */
  patient: z.object({
    nameMasked: z.string(),
    sexLabel: z.string(),
    age: z.nullable(z.number()),
  }),
  expert: z.object({
    name: z.string(),
    titleLabel: z.string(),
    hospitalName: z.string(),
    department: z.string(),
  }),
  createdAt: z.string(),
  notice: z.string(),
  /** Who reads it: the consultation's patient side or its expert. */
  role: z.enum(['patient', 'expert']),
})
export type ExamRequest = z.infer<typeof ExamRequestSchema>

export const createExamRequest = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/expert/consultations/:consultationId/exam-requests',
  /**
   * The consultation's expert suggests an exam (进行中 or 已回复); it reaches the patient as a
   * conversation message. A retry with the same clientId is the same request.
   */
  // No refinement here (the route picks the path's fields out of it): the server checks that
  // 其他 is named, with the form's message.
  input: z.object({
    ...formShape,
    consultationId: IdSchema,
    clientId: z.string().check(z.minLength(8), z.maxLength(64)),
  }),
  output: ExamRequestSchema,
  auth: true,
  role: 'expert',
  summary: '开检查建议（检查申请单）',
})

export const getExamRequest = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/exam-requests/:examRequestId',
  input: z.object({ examRequestId: IdSchema }),
  output: ExamRequestSchema,
  auth: true,
  summary: '检查申请单（该咨询的患者与专家）',
})
