import { z } from 'zod/mini'
import { defineEndpoint } from '../endpoint'

/*
 * The knowledge service's analysis (SPEC section 7, "a knowledge analysis endpoint"; issue 23,
 * 通俗解释): the server finds the glossary's terms in a report's or an opinion's text and answers
 * where they are and what they mean, so the app underlines them and explains one on a tap.
 *
 * Spans are in UTF-16 code units, as JavaScript strings index them (`text.slice(start, end)`), never
 * split a surrogate pair, never overlap, and come sorted by `start`. Where terms overlap the longest
 * wins (磨玻璃结节 over 结节). The glossary and its review: server/src/domain/knowledge/glossary/.
 */

/** A report's 检查所见 and 诊断结论 together stay far below this; an opinion too. */
export const KNOWLEDGE_TEXT_MAX = 20_000

export const KNOWLEDGE_MESSAGES = {
  textTooLong: `文字过长，最多 ${KNOWLEDGE_TEXT_MAX} 字`,
  textMissing: '请提供要解释的文字',
  termNotFound: '未找到该术语的解释',
  /** Shown under every explanation, by the app (not repeated in each entry). */
  caveat: '解释仅供理解报告，具体请以医生意见为准',
} as const

export const GLOSSARY_CATEGORIES = ['chest', 'neuro', 'spine', 'abdomen', 'general'] as const
export const GlossaryCategorySchema = z.enum(GLOSSARY_CATEGORIES)
export type GlossaryCategory = z.infer<typeof GlossaryCategorySchema>
export const GLOSSARY_CATEGORY_LABELS: Record<GlossaryCategory, string> = {
  chest: '胸部与乳腺',
  neuro: '头颅与头颈',
  spine: '脊柱与关节',
  abdomen: '腹部与盆腔',
  general: '通用与检查技术',
}

/** What usually follows a finding, only where a named guideline says so clearly. */
export const FollowUpSchema = z.object({
  text: z.string(),
  /** The guideline, named (Fleischner Society 2017, Lung-RADS v2022, ...). */
  source: z.string(),
})
export type FollowUp = z.infer<typeof FollowUpSchema>

export const GlossaryTermSchema = z.object({
  /** Stable (`chest.ground-glass-nodule`): links and the app's cache keep it. */
  id: z.string(),
  term: z.string(),
  aliases: z.array(z.string()),
  category: GlossaryCategorySchema,
  categoryLabel: z.string(),
  /** Plain Chinese, a few sentences: what it is, whether it is usually worrying, what follows. */
  explanation: z.string(),
  followUp: z.nullable(FollowUpSchema),
})
export type GlossaryTerm = z.infer<typeof GlossaryTermSchema>

export const TermSpanSchema = z.object({
  /** UTF-16 code units, inclusive. */
  start: z.number(),
  /** UTF-16 code units, exclusive. */
  end: z.number(),
  termId: z.string(),
})
export type TermSpan = z.infer<typeof TermSpanSchema>

export const TermIdSchema = z
  .string()
  .check(
    z.minLength(1, KNOWLEDGE_MESSAGES.termNotFound),
    z.maxLength(80, KNOWLEDGE_MESSAGES.termNotFound),
  )

export const analyseText = defineEndpoint({
  service: 'knowledge',
  method: 'POST',
  path: '/analysis',
  input: z.object({
    text: z
      .string({ error: KNOWLEDGE_MESSAGES.textMissing })
      .check(z.maxLength(KNOWLEDGE_TEXT_MAX, KNOWLEDGE_MESSAGES.textTooLong)),
  }),
  output: z.object({
    spans: z.array(TermSpanSchema),
    /** Only the terms found, by id. */
    terms: z.record(z.string(), GlossaryTermSchema),
  }),
  auth: true,
  summary: '通俗解释：找出文字中的医学术语及其解释（报告详情、专家意见）',
})

export const getGlossaryTerm = defineEndpoint({
  service: 'knowledge',
  method: 'GET',
  path: '/terms/:termId',
  input: z.object({ termId: TermIdSchema }),
  output: GlossaryTermSchema,
  auth: true,
  summary: '通俗解释：一个术语的解释',
})
