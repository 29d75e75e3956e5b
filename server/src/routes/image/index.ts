import type { FastifyInstance } from 'fastify'
import {
  getAreaData,
  getCurrentLocation,
  getDefaultArea,
  listAiHospitals,
  listImageHospitals,
} from '@contract/image/areas'
import { listExams } from '@contract/image/exams'
import { isFlagSet } from '@contract/main/records'
import * as areas from '../../domain/hospitals/areas'
import { createListCache } from '../../domain/patient/list-cache'
import * as lists from '../../domain/patient/lists'
import { currentUser } from '../../http/auth'
import { route } from '../../http/route'

/**
 * The personal image service (contract/image): region cascade, hospital lookups, current location
 * and the exam info list. Region data is public; anything about the caller's exams goes through
 * domain/records/access.ts.
 */
export default async function imageRoutes(app: FastifyInstance): Promise<void> {
  route(app, getAreaData, async () => areas.areaData(app.db))

  route(app, listImageHospitals, async (input) =>
    areas.listImageHospitals(app.db, { ...input, aiOnly: isFlagSet(input.aiOnly) }),
  )

  route(app, listAiHospitals, async (input) => areas.listAiHospitals(app.db, input))

  route(app, getDefaultArea, async (_input, { request }) =>
    areas.defaultArea(
      app.db,
      await lists.patientScope(app.db, app.personalCipher, currentUser(request)),
    ),
  )

  route(app, getCurrentLocation, async (input) => areas.currentLocation(app.db, input))

  // 院内查询 pages are asked for again on every return from a detail (list-cache.ts).
  const cache = createListCache(app.db)
  route(app, listExams, async (input, { request }) => {
    const scope = await lists.patientScope(
      app.db,
      app.personalCipher,
      currentUser(request),
      input.personId,
    )
    return cache.get('exams', scope, input, () => lists.listExams(app.db, scope, input))
  })
}
