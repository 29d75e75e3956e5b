import type { FastifyInstance } from 'fastify'
import {
  getDeployedBuild,
  getPoints,
  listFeatures,
  listOptions,
  listWebOrigins,
} from '@contract/main/apps'
import { SPECIALITY_OPTIONS } from '@contract/main/experts'
import { FEEDBACK_TYPE_LABELS, FEEDBACK_TYPES } from '@contract/main/feedback'
import { FAMILY_RELATION_LABELS, FAMILY_RELATIONS } from '@contract/main/family'
import * as features from '../../domain/apps/features'
import { listPoints } from '../../domain/points'
import { currentUser } from '../../http/auth'
import { failure } from '../../http/envelope'
import { route } from '../../http/route'

const GENDER_OPTIONS = [
  { value: 'male', label: '男' },
  { value: 'female', label: '女' },
  { value: 'unknown', label: '未知' },
]

/**
 * Main service: features, points, option dictionaries, web-view origins, the deployed build
 * (contract/main/apps.ts). Issue 10.
 */
export default async function mainAppsRoutes(app: FastifyInstance): Promise<void> {
  route(app, listFeatures, async () => features.listEnabledFeatures(app.db))

  route(app, getPoints, async (input, { request }) =>
    listPoints(app.db, currentUser(request).id, input),
  )

  route(app, listOptions, async ({ dictionary }) => {
    switch (dictionary) {
      case 'gender':
        return GENDER_OPTIONS
      case 'relation':
        return FAMILY_RELATIONS.map((value) => ({ value, label: FAMILY_RELATION_LABELS[value] }))
      case 'feedbackType':
        return FEEDBACK_TYPES.map((value) => ({ value, label: FEEDBACK_TYPE_LABELS[value] }))
      case 'speciality':
        return SPECIALITY_OPTIONS.map((value) => ({ value, label: value }))
      case 'articleType': {
        const rows = await app.db
          .selectFrom('article_types')
          .select(['id', 'name'])
          .orderBy('sort_order')
          .orderBy('id')
          .execute()
        return rows.map((row) => ({ value: row.id, label: row.name }))
      }
    }
  })

  route(app, listWebOrigins, async () => features.listWebOrigins(app.db))

  route(app, getDeployedBuild, async () => ({
    h5Build: features.deployedH5Build(app.config.webRoot),
    serverVersion: app.config.version,
  }))

  // The apps page's built-in icons: small SVGs that ship with the server, cached for a day.
  app.get<{ Params: { name: string } }>('/media/icons/:name', async (request, reply) => {
    const key = request.params.name.replace(/\.svg$/, '')
    const icon = features.readFeatureIcon(key)
    if (!icon) return reply.code(404).send(failure(404, '图标不存在'))
    return reply
      .header('content-type', 'image/svg+xml')
      .header('cache-control', 'public, max-age=86400')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
      .send(icon)
  })
}
