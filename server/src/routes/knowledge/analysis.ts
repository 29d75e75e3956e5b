import type { FastifyInstance } from 'fastify'
import { analyseText, getGlossaryTerm } from '@contract/knowledge/analysis'
import * as knowledge from '../../domain/knowledge'
import { route } from '../../http/route'

/**
 * Knowledge service, 通俗解释 (contract/knowledge/analysis.ts): the glossary's terms in a report's
 * or an opinion's text, and one term's explanation. Signed-in callers only, like the records they
 * explain; the glossary itself is public knowledge, so nothing is checked beyond the token.
 */
export default async function knowledgeAnalysisRoutes(app: FastifyInstance): Promise<void> {
  route(app, analyseText, ({ text }) => knowledge.analyseText(text))
  route(app, getGlossaryTerm, ({ termId }) => knowledge.getGlossaryTerm(termId))
}
