import { z } from 'zod'
import { REPORT_STATUSES } from '../../domain/reports/reports'

/*
 * The subset of FHIR R4 DiagnosticReport this server accepts (README.md beside this file shows it).
 * Element names are R4's. Unknown elements are refused rather than dropped: a typo ("conlusion") or
 * an element we do not understand must not vanish silently from a medical report. Primitive
 * extensions (`_status`) of known elements are kept.
 */

const LIMITS = { id: 64, short: 256, text: 1000, conclusion: 10_000, findings: 20_000 } as const

/** FHIR R4 dateTime: a date, or date and time with seconds and an offset. */
export const DATE_TIME =
  /^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01])(T([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d{1,9})?(Z|[+-]((0\d|1[0-3]):[0-5]\d|14:00)))?)?)?$/
/** FHIR R4 instant: always a full time with an offset. */
const INSTANT =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d{1,9})?(Z|[+-]((0\d|1[0-3]):[0-5]\d|14:00))$/
const DATE = /^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$/
const FHIR_ID = /^[A-Za-z0-9\-.]{1,64}$/

const str = (max: number = LIMITS.short) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? undefined : '应为字符串') })
    .min(1, '不能为空字符串（没有值时请省略该字段）')
    .max(max, `不能超过 ${max} 个字符`)

const Extension = z.looseObject({ url: str() })

/**
 * A FHIR element: its own keys, `id`, `extension`, and `_key` primitive extensions of its keys.
 * Anything else fails in the same pass as the other checks (so every wrong field is reported at
 * once): named keys with the reason given in `refuse`, the rest as unknown elements.
 */
function element<Shape extends z.ZodRawShape>(shape: Shape, refuse: Record<string, string> = {}) {
  const own = {
    id: z.optional(str(LIMITS.id)),
    extension: z.optional(z.array(Extension)),
    ...shape,
  }
  const extra: Record<string, z.ZodType> = {}
  for (const key of Object.keys(own)) extra[`_${key}`] = z.optional(z.unknown())
  for (const [key, message] of Object.entries(refuse)) {
    extra[key] = z.optional(z.never({ error: message }))
  }
  return z.strictObject({ ...own, ...(extra as object) })
}

const Coding = element({
  system: z.optional(str()),
  version: z.optional(str()),
  code: z.optional(str()),
  display: z.optional(str(LIMITS.text)),
  userSelected: z.optional(z.boolean()),
})
export const CodeableConcept = element({
  coding: z.optional(z.array(Coding)),
  text: z.optional(str(LIMITS.text)),
})
const Period = element({
  start: z.optional(
    z.string().regex(DATE_TIME, '应为 FHIR dateTime，如 2026-11-20T09:30:00+08:00'),
  ),
  end: z.optional(z.string().regex(DATE_TIME, '应为 FHIR dateTime，如 2026-11-20T09:30:00+08:00')),
})
export const Identifier = element({
  use: z.optional(z.enum(['usual', 'official', 'temp', 'secondary', 'old'])),
  type: z.optional(CodeableConcept),
  system: z.optional(str()),
  value: z.optional(str()),
  period: z.optional(Period),
  assigner: z.optional(z.looseObject({})),
})
export const Reference = element({
  reference: z.optional(str()),
  type: z.optional(str()),
  identifier: z.optional(Identifier),
  display: z.optional(str()),
})
const Attachment = element({
  contentType: z.optional(str()),
  language: z.optional(str()),
  data: z.optional(z.string()),
  url: z.optional(str(2048)),
  size: z.optional(z.number().int().nonnegative()),
  hash: z.optional(str()),
  title: z.optional(str()),
  creation: z.optional(z.string().regex(DATE_TIME, '应为 FHIR dateTime')),
})
const HumanName = element({
  use: z.optional(str()),
  text: z.optional(str(100)),
  family: z.optional(str(50)),
  given: z.optional(z.array(str(50))),
  prefix: z.optional(z.array(str(50))),
  suffix: z.optional(z.array(str(50))),
  period: z.optional(Period),
})
const ContactPoint = element({
  system: z.optional(z.enum(['phone', 'fax', 'email', 'pager', 'url', 'sms', 'other'])),
  value: z.optional(str(50)),
  use: z.optional(z.enum(['home', 'work', 'temp', 'old', 'mobile'])),
  rank: z.optional(z.number().int().positive()),
  period: z.optional(Period),
})

const PATIENT_REFUSED = '本服务不接收患者的该项信息（只接收证件号、姓名、手机号、性别、出生日期）'
export const ContainedPatient = element(
  {
    resourceType: z.literal('Patient'),
    id: z.string().regex(FHIR_ID, '应为 1–64 位字母、数字、- 或 .'),
    identifier: z.optional(z.array(Identifier)),
    name: z.optional(z.array(HumanName)),
    telecom: z.optional(z.array(ContactPoint)),
    gender: z.optional(
      z.enum(['male', 'female', 'other', 'unknown'], {
        error: '取值无效，可选 male、female、other、unknown',
      }),
    ),
    birthDate: z.optional(z.string().regex(DATE, '应为日期，如 1990-05-01')),
  },
  Object.fromEntries(
    ['address', 'contact', 'maritalStatus', 'photo', 'communication', 'text', 'meta'].map((key) => [
      key,
      PATIENT_REFUSED,
    ]),
  ),
)
const ContainedPractitioner = element({
  resourceType: z.literal('Practitioner'),
  id: z.string().regex(FHIR_ID, '应为 1–64 位字母、数字、- 或 .'),
  identifier: z.optional(z.array(Identifier)),
  name: z.optional(z.array(HumanName)),
})
const ContainedOrganization = element({
  resourceType: z.literal('Organization'),
  id: z.string().regex(FHIR_ID, '应为 1–64 位字母、数字、- 或 .'),
  identifier: z.optional(z.array(Identifier)),
  name: z.optional(str()),
})

/** A key image (DiagnosticReport.media[].link → `#id`): where it is, by a WADO-RS address. */
const ContainedMedia = element({
  resourceType: z.literal('Media'),
  id: z.string().regex(FHIR_ID, '应为 1–64 位字母、数字、- 或 .'),
  identifier: z.optional(z.array(Identifier)),
  status: z.optional(str()),
  type: z.optional(CodeableConcept),
  modality: z.optional(CodeableConcept),
  view: z.optional(CodeableConcept),
  frames: z.optional(z.number().int().positive()),
  content: Attachment,
})

export type FhirPatient = z.infer<typeof ContainedPatient>
export type FhirReference = z.infer<typeof Reference>
export type FhirIdentifier = z.infer<typeof Identifier>
export type FhirHumanName = z.infer<typeof HumanName>

export const DiagnosticReportSchema = element(
  {
    resourceType: z.literal('DiagnosticReport'),
    id: z.optional(z.string()),
    // Ours to set: what a client sends is ignored (meta.versionId comes from If-Match instead).
    meta: z.optional(z.looseObject({})),
    // The narrative is not kept: it is free HTML that usually repeats the patient's name.
    text: z.optional(z.looseObject({})),
    language: z.optional(str()),
    contained: z.optional(
      z.array(
        z.discriminatedUnion(
          'resourceType',
          [ContainedPatient, ContainedPractitioner, ContainedOrganization, ContainedMedia],
          { error: 'contained 只接受 Patient、Practitioner、Organization、Media' },
        ),
      ),
    ),
    identifier: z
      .array(Identifier, { error: '缺少报告标识 identifier（数组）' })
      .min(1, '缺少报告标识'),
    basedOn: z.optional(z.array(Reference)),
    status: z.enum(REPORT_STATUSES, {
      error: `取值无效，可选 ${REPORT_STATUSES.join('、')}`,
    }),
    category: z.optional(z.array(CodeableConcept)),
    code: CodeableConcept,
    subject: Reference,
    encounter: z.optional(Reference),
    effectiveDateTime: z.optional(
      z.string().regex(DATE_TIME, '应为 FHIR dateTime，如 2026-11-20T09:30:00+08:00'),
    ),
    effectivePeriod: z.optional(Period),
    issued: z.optional(z.string().regex(INSTANT, '应为带时区的时间，如 2026-11-20T10:05:00+08:00')),
    performer: z.optional(z.array(Reference)),
    resultsInterpreter: z.optional(z.array(Reference)),
    specimen: z.optional(z.array(Reference)),
    result: z.optional(z.array(Reference)),
    imagingStudy: z.array(Reference, {
      error: '缺少 imagingStudy（报告所读的检查，identifier 为 urn:dicom:uid 的 StudyInstanceUID）',
    }),
    media: z.optional(z.array(element({ comment: z.optional(str(LIMITS.text)), link: Reference }))),
    conclusion: z.optional(str(LIMITS.conclusion)),
    conclusionCode: z.optional(z.array(CodeableConcept)),
    presentedForm: z.optional(z.array(Attachment)),
  },
  {
    implicitRules: '不支持 implicitRules：本服务无法按其规则解读报告',
    modifierExtension: '不支持 modifierExtension：本服务无法理解会改变含义的扩展',
  },
)

export type DiagnosticReportInput = z.infer<typeof DiagnosticReportSchema>

export { LIMITS as REPORT_LIMITS }
