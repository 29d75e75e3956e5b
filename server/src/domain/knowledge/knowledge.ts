import {
  GLOSSARY_CATEGORY_LABELS,
  type GlossaryTerm,
  KNOWLEDGE_MESSAGES,
  type TermSpan,
} from '@contract/knowledge/analysis'
import { notFound } from '../../http/errors'
import { GLOSSARY, type GlossaryEntry } from './glossary'
import { buildMatcher, type Matcher } from './matcher'

/*
 * The knowledge service's analysis (contract/knowledge/analysis.ts): which glossary terms a text
 * holds, where, and what they mean. No database: the glossary ships with the server, and the
 * automaton is built once, on first use.
 */

const byId = new Map<string, GlossaryEntry>(GLOSSARY.map((entry) => [entry.id, entry]))

let matcher: Matcher | null = null

/** The automaton over every term and alias, built on first use and kept. */
export function glossaryMatcher(): Matcher {
  matcher ??= buildMatcher(
    GLOSSARY.map((entry) => ({ id: entry.id, keys: [entry.term, ...entry.aliases] })),
  )
  return matcher
}

export function toGlossaryTerm(entry: GlossaryEntry): GlossaryTerm {
  return {
    id: entry.id,
    term: entry.term,
    aliases: [...entry.aliases],
    category: entry.category,
    categoryLabel: GLOSSARY_CATEGORY_LABELS[entry.category],
    explanation: entry.explanation,
    followUp: entry.followUp ?? null,
  }
}

export interface Analysis {
  spans: TermSpan[]
  terms: Record<string, GlossaryTerm>
}

/** The terms in `text` (spans sorted, never overlapping) and the explanation of each one found. */
export function analyseText(text: string): Analysis {
  const spans = glossaryMatcher()
    .match(text)
    .map(({ start, end, id }) => ({ start, end, termId: id }))
  const terms: Record<string, GlossaryTerm> = {}
  for (const { termId } of spans) terms[termId] ??= toGlossaryTerm(byId.get(termId)!)
  return { spans, terms }
}

export function getGlossaryTerm(termId: string): GlossaryTerm {
  const entry = byId.get(termId)
  if (!entry) throw notFound(KNOWLEDGE_MESSAGES.termNotFound)
  return toGlossaryTerm(entry)
}
