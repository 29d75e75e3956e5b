import type { FastifyInstance } from 'fastify'
import { getAgreement, getPolicyVersion } from '@contract/main/app'
import { findCurrentPolicy } from '../../domain/policies'
import { notFound } from '../../http/errors'
import { route } from '../../http/route'

/** Main service, app family: what the app needs at launch (policy version) and the policy texts. */
export default async function mainAppRoutes(app: FastifyInstance): Promise<void> {
  route(app, getPolicyVersion, async ({ softwareName }) => {
    const policy = await findCurrentPolicy(app.db, 'privacy', softwareName)
    if (!policy) throw notFound('暂未发布隐私政策')
    return { softwareName, version: policy.version, updatedAt: policy.updatedAt }
  })

  route(app, getAgreement, async ({ kind, softwareName }) => {
    const policy = await findCurrentPolicy(app.db, kind, softwareName)
    if (!policy) throw notFound('该协议暂未发布')
    return {
      kind: policy.kind,
      title: policy.title,
      version: policy.version,
      content: policy.content,
      updatedAt: policy.updatedAt,
    }
  })
}
