import {
  analyseText as analyseTextEndpoint,
  getGlossaryTerm as getGlossaryTermEndpoint,
  KNOWLEDGE_MESSAGES,
  KNOWLEDGE_TEXT_MAX,
  type FollowUp,
  type GlossaryTerm,
  type TermSpan,
} from '@contract/knowledge/analysis'
import type { OutputOf } from '@contract/endpoint'
import { callEndpoint, type CallOptions } from './api'

/** 通俗解释: the glossary's terms in a text, and one term (contract/knowledge/analysis.ts). */

export type { FollowUp, GlossaryTerm, TermSpan }
export { KNOWLEDGE_MESSAGES, KNOWLEDGE_TEXT_MAX }

export type TextAnalysis = OutputOf<typeof analyseTextEndpoint>

// Explanations are an extra on a page that already shows its text: no 请求中..., and no toast
// when the network is away (the text simply stays plain).
const QUIET: CallOptions = { loading: false, quietOffline: true }

export function analyseText(text: string): Promise<TextAnalysis> {
  return callEndpoint(analyseTextEndpoint, { text }, QUIET)
}

export function getGlossaryTerm(termId: string): Promise<GlossaryTerm> {
  return callEndpoint(getGlossaryTermEndpoint, { termId }, QUIET)
}
