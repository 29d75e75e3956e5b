import type { FollowUp, GlossaryCategory } from '@contract/knowledge/analysis'

/** One term of the glossary, as written and reviewed (REVIEW.md). */
export interface GlossaryEntry {
  /** `<category>.<kebab-name>`; never renamed once shipped (the app and links keep it). */
  id: string
  /** As Chinese reports write it. */
  term: string
  /** Other spellings of the same thing (毛玻璃结节, GGO); Latin ones match in any case. */
  aliases: readonly string[]
  category: GlossaryCategory
  /** 2–4 plain sentences: what it is, whether it is usually worrying, what usually follows. */
  explanation: string
  /** Only where a named guideline gives the interval; left out rather than guessed. */
  followUp?: FollowUp
}

type Written = Omit<GlossaryEntry, 'category'>

/** The entries of one body system, each given that category. */
export function inCategory(
  category: GlossaryCategory,
  entries: readonly Written[],
): GlossaryEntry[] {
  return entries.map((entry) => ({ ...entry, category }))
}
