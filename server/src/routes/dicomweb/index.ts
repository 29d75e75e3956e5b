import type { FastifyInstance } from 'fastify'
import qidoRoutes from './qido'
import stowRoutes from './stow'
import wadoRoutes from './wado'

/**
 * DICOMweb under /dicomweb (PS3.18): QIDO-RS and WADO-RS for patients (their access token) and
 * hospital systems (their API key), STOW-RS for hospital systems. One plugin per service.
 */
export default async function dicomwebRoutes(app: FastifyInstance): Promise<void> {
  await app.register(qidoRoutes)
  await app.register(wadoRoutes)
  await app.register(stowRoutes)
}
