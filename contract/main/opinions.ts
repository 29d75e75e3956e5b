import { z } from 'zod/mini'
import { IdSchema } from '../common'
import { defineEndpoint } from '../endpoint'

/*
 * The expert's written opinion of an 影像会诊 (issue 23): structured report templates (the spec's
 * "report model" service), findings pinned to the slice they speak of, and the shapes an AI draft
 * and the viewer hand to the opinion.
 *
 * - A template follows IHE MRRT (the form of the RSNA RadReport templates): sections, each with typed
 *   fields (free text, a pick-list of one, a pick-list of several, a number with its unit) and their
 *   default text. An expert fills one, and may keep their own variant (its own default text).
 * - Every field of a filled template is one sentence of the opinion (`label：value`). A pin attaches
 *   a slice, or a measurement drawn on it, to one sentence: the patient taps the sentence and the
 *   viewer opens on that slice with the measurement drawn and its values.
 * - Pins are stored as structured data after DICOM SR TID 1500 (measurement report): what was
 *   measured (distance, angle, ellipse ROI), where (study, series, SOP instance, frame — TID 1500's
 *   image library and SCOORD), the values with their units (mm, °, HU, mm²). We keep no SR object;
 *   the opinion's JSON carries the same content (README, 会诊报告).
 */

// --- Templates -----------------------------------------------------------------------------------

export const TEMPLATE_FIELD_TYPES = ['text', 'choice', 'multi', 'number'] as const
export type TemplateFieldType = (typeof TEMPLATE_FIELD_TYPES)[number]

export const OPINION_PARTS = ['findings', 'impression', 'advice'] as const
export type OpinionPart = (typeof OPINION_PARTS)[number]
export const OPINION_PART_LABELS: Record<OpinionPart, string> = {
  findings: '影像所见',
  impression: '会诊意见',
  advice: '建议',
}

export const TemplateFieldSchema = z.object({
  /** Stable within a template (a pin and an AI draft name a field by it). */
  id: z.string(),
  label: z.string(),
  type: z.enum(TEMPLATE_FIELD_TYPES),
  /** The pick-list of a choice / multi field. */
  options: z.optional(z.array(z.string())),
  /** A number field's unit (mm, HU, cm³ ...). */
  unit: z.optional(z.string()),
  /** The text a new opinion starts with (a normal finding, as RadReport's default text). */
  defaultValue: z.optional(z.union([z.string(), z.array(z.string())])),
  required: z.boolean(),
  placeholder: z.optional(z.string()),
})
export type TemplateField = z.infer<typeof TemplateFieldSchema>

export const TemplateSectionSchema = z.object({
  id: z.string(),
  title: z.string(),
  /** Which part of the opinion the section's sentences belong to. */
  part: z.enum(OPINION_PARTS),
  fields: z.array(TemplateFieldSchema),
})
export type TemplateSection = z.infer<typeof TemplateSectionSchema>

/** A field's value: text or one option (text, choice, number as text), or several options (multi). */
export const FieldValueSchema = z.union([z.string(), z.array(z.string())])
export type FieldValue = z.infer<typeof FieldValueSchema>
export const OpinionValuesSchema = z.record(z.string(), FieldValueSchema)
export type OpinionValues = z.infer<typeof OpinionValuesSchema>

// --- Pins (a slice or a measurement attached to a sentence) ------------------------------------

export const MEASUREMENT_KINDS = ['distance', 'angle', 'ellipse'] as const
export type MeasurementKind = (typeof MEASUREMENT_KINDS)[number]
export const MEASUREMENT_KIND_LABELS: Record<MeasurementKind, string> = {
  distance: '测距',
  angle: '测角',
  ellipse: '椭圆测量',
}

/** A point in the image's own pixels (column, row), as the viewer measures. */
export const ImagePointSchema = z.tuple([z.number(), z.number()])
export type ImagePoint = z.infer<typeof ImagePointSchema>

const maybeNumber = z.optional(z.nullable(z.number()))

export const PinnedMeasurementSchema = z.object({
  kind: z.enum(MEASUREMENT_KINDS),
  /** distance: 2 ends; angle: 3 (the vertex in the middle); ellipse: 2 corners of its bounding box. */
  points: z.array(ImagePointSchema).check(z.minLength(2), z.maxLength(3)),
  /** TID 1500 numeric values; null where the image cannot say (no pixel spacing, not CT). */
  values: z.object({
    lengthMm: maybeNumber,
    angleDeg: maybeNumber,
    areaMm2: maybeNumber,
    meanHu: maybeNumber,
    sdHu: maybeNumber,
    minHu: maybeNumber,
    maxHu: maybeNumber,
    pixels: maybeNumber,
  }),
})
export type PinnedMeasurement = z.infer<typeof PinnedMeasurementSchema>

const uid = z.string().check(z.minLength(1), z.maxLength(64))

export const ImagePinSchema = z.object({
  /** Made by the client (idempotent saves). */
  id: z.string().check(z.minLength(8), z.maxLength(64)),
  /** The sentence (template field) it belongs to. */
  fieldId: z.string().check(z.minLength(1), z.maxLength(64)),
  /** The exam record (我的影像 id) the viewer showed. */
  examId: z.string().check(z.minLength(1), z.maxLength(64)),
  studyUid: uid,
  seriesUid: uid,
  /** SOP instance UID of the image. */
  sop: uid,
  /** 1-based frame of a multi-frame image (1 otherwise). */
  frame: z.number().check(z.int(), z.minimum(1)),
  measurement: z.nullable(PinnedMeasurementSchema),
  /** What the sentence's marker says: 第 34 层 · 8.2 mm. */
  label: z.string().check(z.maxLength(80)),
})
export type ImagePin = z.infer<typeof ImagePinSchema>

// --- AI drafts (only ever to an expert, issue 23 "AI only as a draft") -----------------------------

export const AiProviderSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** demo: the local 演示算法; hospital / vendor: a configured service. */
  kind: z.enum(['demo', 'hospital', 'vendor']),
  /** Shown wherever its text is: 演示算法，非医疗器械 for the demo. */
  notice: z.string(),
})
export type AiProvider = z.infer<typeof AiProviderSchema>

/**
 * What an AI analysis hands the expert: text for some of a template's fields, and what it really
 * computed (each value with its unit). Never served to the patient.
 */
export const AiDraftSchema = z.object({
  analysisId: z.string(),
  examId: z.string(),
  provider: AiProviderSchema,
  templateId: z.string(),
  values: OpinionValuesSchema,
  computed: z.array(z.object({ label: z.string(), value: z.string(), unit: z.string() })),
  createdAt: z.string(),
})
export type AiDraft = z.infer<typeof AiDraftSchema>

// --- Messages ------------------------------------------------------------------------------------

/** Longest text of one field, and of a variant's name. */
export const OPINION_FIELD_MAX = 2000
export const VARIANT_NAME_MAX = 20
/** An expert's own variants (a shelf, not a library). */
export const VARIANTS_MAX = 30
/** Pins on one opinion. */
export const PINS_MAX = 30

export const OPINION_MESSAGES = {
  templateUnknown: '模板不存在或已停用，请重新选择模板',
  fieldUnknown: '报告中有模板没有的项目，请刷新后重试',
  required: (label: string) => `请填写「${label}」`,
  tooLong: (label: string) => `「${label}」最多 ${OPINION_FIELD_MAX} 字`,
  notAnOption: (label: string) => `「${label}」请从选项中选择`,
  notANumber: (label: string) => `「${label}」请输入数字`,
  unsafe: (label: string) => `「${label}」含有无法显示的字符，请删除后重试`,
  pinField: '附图所在的项目不存在，请重新附图',
  pinExam: '附图的检查不在本次会诊共享的资料中',
  tooManyPins: `每份报告最多附 ${PINS_MAX} 张图`,
  notImaging: '只有影像会诊使用会诊报告模板',
  signed: '会诊报告已签署，不能修改；如需补充，请在会诊对话中写补充说明',
  notAnswering: '当前状态不能撰写会诊报告',
  variantName: `请输入模板名称（1–${VARIANT_NAME_MAX} 字）`,
  variantExists: '已有同名模板，请换一个名称',
  tooManyVariants: `最多保存 ${VARIANTS_MAX} 个自己的模板，请先删除不用的`,
  variantGone: '该模板已删除',
  aiUnknown: 'AI 草稿不存在或不属于本次会诊，请重新填入',
  notFound: '会诊报告不存在或您无权查看',
  verifyNotFound: '未找到该验证码对应的会诊报告，请核对后重试',
  pdfNoFont: '服务器未安装中文字体，暂时无法生成 PDF，请稍后再试或联系客服',
} as const

// --- Templates (report model service) ------------------------------------------------------------

export const ReportTemplateSchema = z.object({
  id: z.string(),
  version: z.number(),
  title: z.string(),
  modality: z.string(),
  bodyPart: z.string(),
  /** The public template it follows (RSNA RadReport, by name). */
  source: z.string(),
  sections: z.array(TemplateSectionSchema),
  /** The expert's own variant of it (its default values differ), else null. */
  variant: z.nullable(z.object({ id: z.string(), name: z.string() })),
})
export type ReportTemplate = z.infer<typeof ReportTemplateSchema>

// --- Writing and signing -------------------------------------------------------------------------

/** Field id → the AI analysis (AiDraft.analysisId) its text began from. */
export const AiFieldsSchema = z.record(z.string(), z.string().check(z.maxLength(64)))

export const OpinionDraftSchema = z.object({
  templateId: z.string(),
  variantId: z.nullable(z.string()),
  values: OpinionValuesSchema,
  pins: z.array(ImagePinSchema),
  aiFields: AiFieldsSchema,
  updatedAt: z.string(),
})
export type OpinionDraft = z.infer<typeof OpinionDraftSchema>

/** One sentence of a signed opinion: a field, as the patient reads it. */
export const OpinionSentenceSchema = z.object({
  part: z.enum(OPINION_PARTS),
  sectionTitle: z.string(),
  fieldId: z.string(),
  label: z.string(),
  text: z.string(),
  /** Began as an AI draft (the provider is the opinion's `ai.provider`). */
  fromAi: z.boolean(),
})
export type OpinionSentence = z.infer<typeof OpinionSentenceSchema>

export const SignerSchema = z.object({
  name: z.string(),
  titleLabel: z.string(),
  hospitalName: z.string(),
  department: z.string(),
})

/** A signed opinion, as the patient and the expert read it (never changed; addenda follow). */
export const SignedOpinionSchema = z.object({
  id: z.string(),
  consultationId: z.string(),
  template: z.object({
    id: z.string(),
    version: z.number(),
    title: z.string(),
    source: z.string(),
  }),
  sentences: z.array(OpinionSentenceSchema),
  pins: z.array(ImagePinSchema),
  /** Which parts began as an AI draft, and whose; null when none did. */
  ai: z.nullable(z.object({ provider: AiProviderSchema, fieldIds: z.array(z.string()) })),
  signer: SignerSchema,
  /** 张** 女 45岁 (masked, as the consultation shows the person). */
  patientLabel: z.string(),
  signedAt: z.string(),
  /** Printed on the PDF; anyone checks it at verifyOpinion. */
  verifyCode: z.string(),
  /** SHA-256 of the signed content (hex). */
  contentHash: z.string(),
  addenda: z.array(z.object({ text: z.string(), signedAt: z.string() })),
  /** Who reads it: the patient's side or the signing expert. */
  role: z.enum(['patient', 'expert']),
})
export type SignedOpinion = z.infer<typeof SignedOpinionSchema>

export const SharedExamSchema = z.object({
  examId: z.string(),
  title: z.string(),
  modality: z.string(),
})

export const getOpinionWorkspace = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/expert/consultations/:consultationId/opinion',
  input: z.object({ consultationId: IdSchema }),
  output: z.object({
    consultationId: z.string(),
    /** The consultation's grant: the viewer opens the exams through it. */
    grantId: z.string(),
    patientLabel: z.string(),
    chiefComplaint: z.string(),
    /** null: the expert may write and sign now; else why not. */
    blocked: z.nullable(z.string()),
    /** The exams shared in the consultation (a pin's examId is one of them). */
    exams: z.array(SharedExamSchema),
    draft: z.nullable(OpinionDraftSchema),
    signed: z.nullable(SignedOpinionSchema),
  }),
  auth: true,
  role: 'expert',
  summary: '撰写会诊报告：草稿、共享的检查、已签署的报告',
})

const OpinionBodySchema = z.object({
  consultationId: IdSchema,
  templateId: z.string().check(z.maxLength(64)),
  variantId: z.optional(z.nullable(z.string().check(z.maxLength(64)))),
  values: OpinionValuesSchema,
  pins: z.array(ImagePinSchema).check(z.maxLength(PINS_MAX, OPINION_MESSAGES.tooManyPins)),
  aiFields: AiFieldsSchema,
})

export const saveOpinionDraft = defineEndpoint({
  service: 'main',
  method: 'PUT',
  path: '/expert/consultations/:consultationId/opinion/draft',
  /** Saved as the expert types; incomplete is fine, malformed is not. */
  input: OpinionBodySchema,
  output: OpinionDraftSchema,
  auth: true,
  role: 'expert',
  summary: '保存会诊报告草稿',
})

export const signOpinion = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/expert/consultations/:consultationId/opinion/sign',
  /**
   * Signs the opinion (password or SMS code) and sends it as the consultation's answer: 影像所见,
   * 会诊意见 and 建议 are its sentences. Once signed it never changes.
   */
  input: z.extend(OpinionBodySchema, {
    clientId: z.string().check(z.minLength(8), z.maxLength(64)),
    password: z.optional(z.string().check(z.maxLength(64))),
    smsCode: z.optional(z.string().check(z.maxLength(6))),
  }),
  output: SignedOpinionSchema,
  auth: true,
  role: 'expert',
  summary: '签署会诊报告',
})

// --- One rendering, for the server's signature and the app's preview ----------------------------

function isEmptyValue(value: FieldValue | undefined): boolean {
  return value === undefined || (Array.isArray(value) ? value.length === 0 : value.trim() === '')
}

/** What a new opinion on this template starts with: each field's default value. */
export function templateDefaults(template: ReportTemplate): OpinionValues {
  const values: OpinionValues = {}
  for (const section of template.sections) {
    for (const field of section.fields) {
      if (field.defaultValue !== undefined) values[field.id] = field.defaultValue
    }
  }
  return values
}

function valueText(field: TemplateField, value: FieldValue): string {
  if (Array.isArray(value)) return value.join('、')
  const text = value.trim()
  return field.type === 'number' && field.unit ? `${text} ${field.unit}` : text
}

/** The filled fields as the patient reads them, in the template's order (empty ones left out). */
export function opinionSentences(
  template: ReportTemplate,
  values: OpinionValues,
  aiFieldIds: ReadonlySet<string>,
): OpinionSentence[] {
  return template.sections.flatMap((section) =>
    section.fields
      .filter((field) => !isEmptyValue(values[field.id]))
      .map((field) => ({
        part: section.part,
        sectionTitle: section.title,
        fieldId: field.id,
        label: field.label,
        text: valueText(field, values[field.id]!),
        fromAi: aiFieldIds.has(field.id),
      })),
  )
}

// --- Reading -------------------------------------------------------------------------------------

export const getOpinion = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/opinions/:opinionId',
  input: z.object({ opinionId: IdSchema }),
  output: SignedOpinionSchema,
  auth: true,
  summary: '会诊报告（患者与签署专家）',
})

/**
 * The PDF's address inside the main service (bearer-authorised, not an envelope): GET answers
 * application/pdf.
 */
export const OPINION_PDF_PATH = (opinionId: string) =>
  `/opinions/${encodeURIComponent(opinionId)}/pdf`

export const VerifyCodeSchema = z
  .string({ error: '请输入验证码' })
  .check(
    z.trim(),
    z.toUpperCase(),
    z.regex(/^[A-Z2-9]{5}-?[A-Z2-9]{5}$/, '验证码为 10 位字母与数字，如 AB3CD-EF4GH'),
  )

export const verifyOpinion = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/opinions/verify/:code',
  input: z.object({ code: VerifyCodeSchema }),
  /** What a doctor holding the PDF may check: who signed what, when, and its hash. */
  output: z.object({
    verifyCode: z.string(),
    templateTitle: z.string(),
    signer: SignerSchema,
    patientLabel: z.string(),
    signedAt: z.string(),
    contentHash: z.string(),
    addenda: z.number(),
  }),
  auth: false,
  summary: '核验会诊报告（报告上的验证码）',
})
