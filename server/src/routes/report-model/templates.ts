import type { FastifyInstance, FastifyRequest } from 'fastify'
import {
  deleteTemplateVariant,
  listReportTemplates,
  saveTemplateVariant,
} from '@contract/report-model/templates'
import * as opinions from '../../domain/opinions'
import { currentUser } from '../../http/auth'
import { route } from '../../http/route'

/**
 * The report model service (contract/report-model/templates.ts): the built-in report templates and
 * an expert's own variants. Experts only (checked before the input is read).
 */
export default async function reportModelTemplatesRoutes(app: FastifyInstance): Promise<void> {
  const me = (request: FastifyRequest) => currentUser(request).id
  route(app, listReportTemplates, async (_input, { request }) => ({
    templates: await opinions.listTemplates(app.db, me(request)),
  }))
  route(app, saveTemplateVariant, async (input, { request }) =>
    opinions.saveVariant(app.db, me(request), input, app.now()),
  )
  route(app, deleteTemplateVariant, async ({ variantId }, { request }) => {
    await opinions.deleteVariant(app.db, me(request), variantId)
    return { ok: true as const }
  })
}
