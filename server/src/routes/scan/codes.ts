import type { FastifyInstance, FastifyRequest } from 'fastify'
import {
  getScanReportCount,
  getScanReportInfo,
  issueFilmCode,
  listScanRooms,
  resolveExamQrCode,
  scanQrCode,
} from '@contract/scan/codes'
import { issueRoomCode, listHospitalReports } from '@contract/scan/hospital-reports'
import { listDepartments } from '../../domain/hospitals/directory'
import * as claims from '../../domain/claims/claims'
import * as rooms from '../../domain/claims/rooms'
import { patientScope } from '../../domain/patient/lists'
import * as hospitalReports from '../../domain/patient/hospital-reports'
import { currentUser } from '../../http/auth'
import { ApiError } from '../../http/errors'
import { hospitalAuth } from '../hospital-auth'
import { route } from '../../http/route'

/** The hospital calling a hospital-key route (set by hospitalAuth in that context). */
function hospitalOf(request: FastifyRequest): { id: string } {
  if (!request.hospital) throw new ApiError(401, '缺少医院 API 密钥')
  return request.hospital
}

/**
 * Scan service: film-bag codes (a hospital issues one for its exam; a patient scans it), the report
 * behind a code, its report count, a hospital's rooms, and hospital terminals reading a patient's
 * 5-minute exam QR code; rooms' codes and 院内报告 (the patient's exams at the hospital of a room code).
 */
export default async function scanCodesRoutes(app: FastifyInstance): Promise<void> {
  const context = () => ({ db: app.db, cipher: app.personalCipher, now: app.now() })

  route(app, scanQrCode, async ({ content }, { request }) =>
    claims.scanFilmCode(context(), { content, userId: currentUser(request).id }),
  )

  route(app, getScanReportInfo, async ({ code }, { request }) =>
    claims.filmReportInfo(context(), { code, userId: currentUser(request).id }),
  )

  route(app, getScanReportCount, async ({ code }) => claims.filmReportCount(app.db, code))

  route(app, listScanRooms, async (input) => {
    const hospitalId = await claims.hospitalOfRooms(app.db, input)
    const rooms = await listDepartments(app.db, hospitalId)
    return rooms.map((room) => ({ id: room.id, name: room.name }))
  })

  // 院内报告: the caller's (or 当前就诊人's) exams at the hospital of a scanned room code.
  route(app, listHospitalReports, async ({ hospitalId, roomId, personId }, { request }) => {
    const scope = await patientScope(app.db, app.personalCipher, currentUser(request), personId)
    return hospitalReports.listHospitalReports(app.db, scope, { hospitalId, roomId }, app.now())
  })

  // Hospital systems, with their API key: a context of their own whose every route checks it.
  await app.register(async (hospitals) => {
    hospitals.addHook('preHandler', hospitalAuth())

    route(hospitals, issueFilmCode, async (input, { request }) =>
      claims.issueFilmCode(app.db, {
        hospitalId: hospitalOf(request).id,
        // The origin the hospital reached us at is the one patients' phones reach too.
        origin: `${request.protocol}://${request.host}`,
        studyInstanceUid: input.studyInstanceUid,
        accessionNumber: input.accessionNumber,
      }),
    )

    route(hospitals, issueRoomCode, async ({ roomId }, { request }) =>
      rooms.issueRoomCode(app.db, {
        hospitalId: hospitalOf(request).id,
        roomId,
        origin: `${request.protocol}://${request.host}`,
      }),
    )

    route(hospitals, resolveExamQrCode, async ({ content }, { request }) =>
      claims.resolveExamQr(context(), { hospitalId: hospitalOf(request).id, content }),
    )
  })
}
