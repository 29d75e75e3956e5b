import type { FastifyInstance, FastifyRequest } from 'fastify'
import {
  getExamDetail,
  listSeriesInstances,
  getHospitalDetail,
  getReportDetail,
  hideReport,
  isFlagSet,
  listMyHospitals,
  listMyImages,
  listPersonalReports,
  listYsReports,
  markReportsRead,
  restoreReport,
  sendReportUnlockCode,
  setReportArchived,
  setReportPrivacy,
  unlockReports,
} from '@contract/main/records'
import { findUserById, issueSmsCode, maskMobile, SESSION_EXPIRED } from '../../domain/identity'
import { createListCache } from '../../domain/patient/list-cache'
import * as lists from '../../domain/patient/lists'
import * as patient from '../../domain/patient/patient'
import { currentUser } from '../../http/auth'
import { badRequest, unauthorized } from '../../http/errors'
import { route } from '../../http/route'

/**
 * Main service, hospitals-and-reports family, patient side (contract/main/records.ts). Every call
 * resolves the caller's scope once and leaves visibility to domain/records/access.ts.
 */
export default async function mainRecordsRoutes(app: FastifyInstance): Promise<void> {
  // personId (当前就诊人) only on the lists; a single record is found through access.ts's reach.
  const scopeOf = (request: FastifyRequest, personId?: string) =>
    lists.patientScope(app.db, app.personalCipher, currentUser(request), personId)
  const sessionOf = (request: FastifyRequest): patient.SessionRef => {
    const user = currentUser(request)
    return { userId: user.id, sessionId: user.sessionId }
  }
  // 我的报告 and 我的影像 are asked for on every visit and change rarely (list-cache.ts).
  const cache = createListCache(app.db)

  route(app, listPersonalReports, async (input, { request }) => {
    const scope = await scopeOf(request, input.personId)
    const filter = {
      page: input.page,
      pageSize: input.pageSize,
      hospitalId: input.hospitalId,
      dateFrom: input.dateFrom,
      dateTo: input.dateTo,
      includePrivate: isFlagSet(input.includePrivate),
      unreadOnly: isFlagSet(input.unreadOnly),
      archivedOnly: isFlagSet(input.archivedOnly),
    }
    return cache.get('reports', scope, filter, () =>
      lists.listPersonalReports(app.db, scope, filter),
    )
  })

  route(app, listYsReports, async (input, { request }) =>
    lists.listYsReports(app.db, await scopeOf(request, input.personId), input),
  )

  route(app, listMyImages, async (input, { request }) => {
    const scope = await scopeOf(request, input.personId)
    const options = { hospitalIds: lists.parseHospitalIds(input.hospitalIds) }
    return cache.get('images', scope, options, () => lists.listMyImages(app.db, scope, options))
  })

  route(app, getExamDetail, async ({ examId }, { request }) =>
    patient.examDetail(app.db, app.personalCipher, await scopeOf(request), examId),
  )

  route(app, listSeriesInstances, async ({ examId, seriesId }, { request }) =>
    patient.seriesInstances(app.db, app.personalCipher, await scopeOf(request), examId, seriesId),
  )

  route(app, getReportDetail, async (input, { request }) =>
    patient.reportDetail(
      app.db,
      app.personalCipher,
      await scopeOf(request),
      sessionOf(request),
      input,
      app.now(),
    ),
  )

  route(app, markReportsRead, async (input, { request }) =>
    patient.markReportsRead(app.db, await scopeOf(request), input, app.now()),
  )

  // The code goes to the account's own phone, which the app only knows masked.
  route(app, sendReportUnlockCode, async (_input, { request }) => {
    const user = await findUserById(app.db, currentUser(request).id)
    if (!user) throw unauthorized(SESSION_EXPIRED)
    if (!user.mobile) throw badRequest(patient.UNLOCK_NO_MOBILE)
    const sent = await issueSmsCode(app.db, app.providers.sms, {
      mobile: user.mobile,
      purpose: 'report-unlock',
      ip: request.ip,
      now: app.now(),
    })
    return { ...sent, mobileMasked: maskMobile(user.mobile) }
  })

  route(app, unlockReports, async (input, { request }) =>
    patient.unlockReports(app.db, sessionOf(request), input, app.now(), request.ip),
  )

  route(app, setReportPrivacy, async (input, { request }) =>
    patient.setReportPrivacy(
      app.db,
      app.personalCipher,
      await scopeOf(request),
      sessionOf(request),
      input,
      app.now(),
    ),
  )

  route(app, setReportArchived, async (input, { request }) =>
    patient.setReportArchived(app.db, app.personalCipher, await scopeOf(request), input, app.now()),
  )

  route(app, hideReport, async ({ reportId }, { request }) =>
    patient.setReportHidden(
      app.db,
      app.personalCipher,
      await scopeOf(request),
      reportId,
      true,
      app.now(),
    ),
  )

  route(app, restoreReport, async ({ reportId }, { request }) =>
    patient.setReportHidden(
      app.db,
      app.personalCipher,
      await scopeOf(request),
      reportId,
      false,
      app.now(),
    ),
  )

  route(app, listMyHospitals, async ({ personId }, { request }) =>
    patient.listMyHospitals(app.db, await scopeOf(request, personId)),
  )

  route(app, getHospitalDetail, async ({ hospitalId }) =>
    patient.hospitalDetail(app.db, hospitalId),
  )
}
