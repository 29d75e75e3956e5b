import type { FastifyInstance } from 'fastify'
import { applyAiAnalysis, expertAiDrafts, getAiAnalysis } from '@contract/main/ai'
import * as ai from '../../domain/ai'
import { currentUser } from '../../http/auth'
import { route } from '../../http/route'

/**
 * Main service, 申请AI分析 (contract/main/ai.ts). The patient's calls answer a state only; the
 * drafts go to the consultation's expert (role expert, checked before the input is read).
 */
export default async function mainAiRoutes(app: FastifyInstance): Promise<void> {
  const context = (): ai.AiContext => ({
    db: app.db,
    cipher: app.personalCipher,
    jobs: app.jobs,
    provider: app.providers.ai,
    now: app.now,
  })

  route(app, getAiAnalysis, async ({ examId }, { request }) =>
    ai.analysisView(context(), currentUser(request).id, examId),
  )

  route(app, applyAiAnalysis, async ({ examId }, { request }) =>
    ai.applyAnalysis(context(), currentUser(request).id, examId),
  )

  route(app, expertAiDrafts, async ({ consultationId }, { request }) =>
    ai.expertDrafts(app.db, currentUser(request).id, consultationId, app.now()),
  )
}
