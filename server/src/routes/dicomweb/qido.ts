import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { boundIdentity } from '../../domain/records/access'
import {
  type QidoResult,
  type QidoScope,
  searchInstances,
  searchSeries,
  searchStudies,
} from '../../domain/records/qido'
import { parseQidoQuery, pathUid, type QidoLevel } from '../../domain/records/qido-query'
import { visibleStudyExams } from '../../domain/records/retrieve'
import { recordsCaller, recordsCallerAuth } from '../../http/records-caller'
import { requireJsonAccepted } from './negotiate'

/*
 * QIDO-RS (PS3.18 10.6): search studies, series and instances the caller may see, answered as
 * application/dicom+json. A study named in the path that the caller may not see is a 404, like one
 * that does not exist.
 */

type Params = { study?: string; series?: string }

export function dicomwebBaseUrl(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}/dicomweb`
}

export default async function qidoRoutes(app: FastifyInstance): Promise<void> {
  const options = { onRequest: recordsCallerAuth, schema: { hide: true } }

  const search =
    (
      level: QidoLevel,
      run: (scope: QidoScope, query: ReturnType<typeof parseQidoQuery>) => Promise<QidoResult>,
    ) =>
    async (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) => {
      requireJsonAccepted(request)
      const { study, series } = request.params
      const studyUid = study === undefined ? undefined : pathUid(study, 'study')
      const seriesUid = series === undefined ? undefined : pathUid(series, 'series')
      const query = parseQidoQuery(request.query as Record<string, unknown>, level)
      const caller = recordsCaller(request)
      const { db, personalCipher } = app
      if (studyUid) await visibleStudyExams(db, personalCipher, caller, studyUid)
      const identity =
        caller.kind === 'user' ? await boundIdentity(db, personalCipher, caller.userId) : undefined
      const scope: QidoScope = {
        caller,
        identity,
        baseUrl: dicomwebBaseUrl(request),
        ...(studyUid ? { studyUid } : {}),
        ...(seriesUid ? { seriesUid } : {}),
      }
      const result = await run(scope, query)
      const warnings = [...query.warnings]
      if (result.more) {
        // PS3.18 8.3.4.6: a cut answer says so; the client pages on with offset.
        warnings.push('299 yingxiang "There are additional results that can be requested"')
      }
      if (warnings.length > 0) reply.header('warning', warnings.join(', '))
      return reply
        .type('application/dicom+json')
        .header('cache-control', 'private, no-cache')
        .header('vary', 'Accept, Authorization')
        .send(JSON.stringify(result.rows))
    }

  app.get<{ Params: Params }>(
    '/dicomweb/studies',
    options,
    search('study', (s, q) => searchStudies(app.db, s, q)),
  )
  app.get<{ Params: Params }>(
    '/dicomweb/series',
    options,
    search('series', (s, q) => searchSeries(app.db, s, q)),
  )
  app.get<{ Params: Params }>(
    '/dicomweb/studies/:study/series',
    options,
    search('series', (s, q) => searchSeries(app.db, s, q)),
  )
  app.get<{ Params: Params }>(
    '/dicomweb/instances',
    options,
    search('instance', (s, q) => searchInstances(app.db, s, q)),
  )
  app.get<{ Params: Params }>(
    '/dicomweb/studies/:study/instances',
    options,
    search('instance', (s, q) => searchInstances(app.db, s, q)),
  )
  app.get<{ Params: Params }>(
    '/dicomweb/studies/:study/series/:series/instances',
    options,
    search('instance', (s, q) => searchInstances(app.db, s, q)),
  )
}
