import { z } from 'zod/mini'
import { IdSchema, OkSchema } from '../common'
import { defineEndpoint } from '../endpoint'
import {
  OPINION_MESSAGES,
  OpinionValuesSchema,
  ReportTemplateSchema,
  VARIANT_NAME_MAX,
} from '../main/opinions'

/*
 * The spec's report model service: the structured report templates an expert writes an 影像会诊's
 * opinion with (the built-in ones, after RSNA RadReport), and the expert's own variants of them.
 * The shapes and the opinion itself: contract/main/opinions.ts.
 */

export const listReportTemplates = defineEndpoint({
  service: 'reportModel',
  method: 'GET',
  path: '/templates',
  input: z.object({}),
  /** The built-in templates, then the caller's own variants. */
  output: z.object({ templates: z.array(ReportTemplateSchema) }),
  auth: true,
  role: 'expert',
  summary: '会诊报告模板（内置模板与我的模板）',
})

const VariantNameSchema = z
  .string({ error: OPINION_MESSAGES.variantName })
  .check(
    z.trim(),
    z.minLength(1, OPINION_MESSAGES.variantName),
    z.maxLength(VARIANT_NAME_MAX, OPINION_MESSAGES.variantName),
  )

export const saveTemplateVariant = defineEndpoint({
  service: 'reportModel',
  method: 'POST',
  path: '/templates/variants',
  /** The current values become the variant's default text (the same name replaces it). */
  input: z.object({
    templateId: z.string().check(z.maxLength(64)),
    name: VariantNameSchema,
    values: OpinionValuesSchema,
  }),
  output: ReportTemplateSchema,
  auth: true,
  role: 'expert',
  summary: '保存为我的模板',
})

export const deleteTemplateVariant = defineEndpoint({
  service: 'reportModel',
  method: 'DELETE',
  path: '/templates/variants/:variantId',
  input: z.object({ variantId: IdSchema }),
  output: OkSchema,
  auth: true,
  role: 'expert',
  summary: '删除我的模板',
})
