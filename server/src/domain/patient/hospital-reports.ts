import { sql } from 'kysely'
import type { ExamSummary } from '@contract/main/records'
import {
  FILM_READY_AFTER_HOURS,
  HOSPITAL_REPORT_STATE_LABELS,
  type HospitalReportState,
  type HospitalReports,
} from '@contract/scan/hospital-reports'
import type { DB } from '../../db'
import { findHospitalRoom } from '../hospitals'
import { visibleTo } from '../records'
import { notIndexed, type PatientScope, summariseExams, summaryRowsInOrder } from './lists'

/*
 * 院内报告: after scanning a room code, the person's exams at that hospital and where each report
 * stands, from what the hospital pushed (the study, the FHIR DiagnosticReport's status). The same
 * visibility as 我的影像 (visibleTo, 当前就诊人 through the scope); only the hospital's own pushes,
 * never uploads that merely name it.
 */

/** The most exams the page lists (newest first); a hospital visited more often shows its latest. */
export const HOSPITAL_REPORTS_LIMIT = 100

const WRITING = new Set(['registered', 'partial', 'preliminary'])
const RELEASED = new Set(['final', 'amended', 'corrected', 'appended'])
const HOUR_MS = 3_600_000

/**
 * An exam's state from its newest report: none (or a withdrawn one) is 已检查, a report being written
 * 报告中, a released one 已出报告, and 可取片 once released FILM_READY_AFTER_HOURS ago (the films are
 * printed after the report; hospitals push no separate signal).
 */
export function hospitalReportState(exam: ExamSummary, now: Date): HospitalReportState {
  const report = exam.report
  if (!report) return 'examined'
  if (WRITING.has(report.status)) return 'reporting'
  if (!RELEASED.has(report.status)) return 'examined'
  const issued = report.issuedAt ? Date.parse(report.issuedAt) : Number.NaN
  if (Number.isFinite(issued) && now.getTime() - issued >= FILM_READY_AFTER_HOURS * HOUR_MS) {
    return 'filmReady'
  }
  return 'reported'
}

export async function listHospitalReports(
  db: DB,
  scope: PatientScope,
  input: { hospitalId: string; roomId?: string | undefined },
  now: Date,
): Promise<HospitalReports> {
  const { hospital, room } = await findHospitalRoom(db, input.hospitalId, input.roomId)
  const rows = await db
    .selectFrom('exams')
    .select('exams.id')
    .where(visibleTo(scope.caller, scope.identity))
    .where('exams.source', '=', 'hospital')
    .where(notIndexed('exams.hospital_id'), '=', hospital.id)
    .orderBy(sql`coalesce(exams.study_date, substr(exams.created_at, 1, 10))`, 'desc')
    .orderBy('exams.created_at', 'desc')
    .orderBy('exams.id', 'desc')
    .limit(HOSPITAL_REPORTS_LIMIT)
    .execute()
  const exams = await summariseExams(
    db,
    scope.userId,
    await summaryRowsInOrder(
      db,
      rows.map((row) => row.id),
    ),
  )
  const counts = { total: exams.length, examined: 0, reporting: 0, reported: 0, filmReady: 0 }
  const items = exams.map((exam) => {
    const state = hospitalReportState(exam, now)
    counts[state] += 1
    return { state, stateLabel: HOSPITAL_REPORT_STATE_LABELS[state], exam }
  })
  return { hospital, room, counts, items }
}
