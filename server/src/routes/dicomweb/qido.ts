import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { EXAM_NOT_FOUND, reachStudy, searchReach } from '../../domain/records/access'
import {
  type QidoResult,
  type QidoScope,
  searchInstances,
  searchSeries,
  searchStudies,
} from '../../domain/dicomweb/qido'
import { parseQidoQuery, pathUid, type QidoLevel } from '../../domain/dicomweb/qido-query'
import { notFound } from '../../http/errors'
import { noteGrantViews, recordsCaller, recordsCallerAuth } from '../records-caller'
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

  /**
   * A search's answer is a read of the studies it names (patient, date, modality): those reached
   * through a grant are logged as views of their exams, one per session and exam (views.ts), as
   * WADO's reads are. Own and family studies are not: only grants keep a log.
   */
  const logViewsThroughGrants = async (
    request: FastifyRequest,
    result: QidoResult,
    now: Date,
    pathStudyUid: string | undefined,
  ): Promise<void> => {
    const caller = recordsCaller(request)
    if (caller.kind !== 'share' && caller.kind !== 'user') return
    if (caller.kind === 'user') {
      const grant = await app.db
        .selectFrom('grants')
        .select('id')
        .where('grantee_user_id', '=', caller.userId)
        .where('audience', '=', 'account')
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now.toISOString())
        .executeTakeFirst()
      if (!grant) return
    }
    const uids = new Set(
      result.rows.flatMap((row) => {
        const value = row['0020000D']?.Value?.[0]
        return typeof value === 'string' ? [value] : []
      }),
    )
    // /studies/{uid}/series and …/instances leave the study's UID out of their rows.
    if (pathStudyUid && result.rows.length > 0) uids.add(pathStudyUid)
    for (const uid of uids) {
      const reach = await reachStudy(app.db, app.personalCipher, caller, uid, now)
      // Their own copy of a study a grant also gave them is still a view of the granted exams.
      if (reach.alsoGranted) {
        await noteGrantViews(request, reach.alsoGranted.grantId, reach.alsoGranted.examIds, now)
      }
      if (!reach.grantId) continue
      await noteGrantViews(
        request,
        reach.grantId,
        reach.exams.map((exam) => exam.id),
        now,
      )
    }
  }

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
      const now = app.now()
      if (studyUid) {
        // As WADO: own, a member's, or through a grant (an ended grant's holder: 授权已失效).
        const reach = await reachStudy(db, personalCipher, caller, studyUid, now)
        if (reach.exams.length === 0) throw notFound(EXAM_NOT_FOUND)
      }
      const scope: QidoScope = {
        reach: await searchReach(db, personalCipher, caller, now),
        baseUrl: dicomwebBaseUrl(request),
        ...(studyUid ? { studyUid } : {}),
        ...(seriesUid ? { seriesUid } : {}),
      }
      const result = await run(scope, query)
      // Rows from exams reached through a grant were masked when built (records/qido.ts).
      await logViewsThroughGrants(request, result, now, studyUid)
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
