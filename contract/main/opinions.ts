import { z } from 'zod/mini'

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
