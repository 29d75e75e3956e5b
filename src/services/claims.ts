import {
  confirmClaim as confirmClaimEndpoint,
  issueExamQrCode as issueExamQrCodeEndpoint,
  lookupExamClaim as lookupExamClaimEndpoint,
  sendClaimCode as sendClaimCodeEndpoint,
  type ClaimedExam,
  type ClaimStart,
} from '@contract/main/claims'
import {
  getReportDetail as getReportDetailEndpoint,
  type ReportDetail,
} from '@contract/main/records'
import {
  getScanReportCount as getScanReportCountEndpoint,
  getScanReportInfo as getScanReportInfoEndpoint,
  listScanRooms as listScanRoomsEndpoint,
  scanQrCode as scanQrCodeEndpoint,
  type ScanResult,
} from '@contract/scan/codes'
import {
  listHospitalReports as listHospitalReportsEndpoint,
  type HospitalReports,
} from '@contract/scan/hospital-reports'
import { pageHospitals as pageHospitalsEndpoint } from '@contract/sso/directory'
import type { OutputOf } from '@contract/endpoint'
import { callEndpoint, type CallOptions } from './api'

/** 影像查询, film-bag codes and the owner's exam QR code (contract/main/claims.ts, contract/scan). */

export type { ClaimedExam, ClaimStart, HospitalReports, ReportDetail, ScanResult }
export type HospitalPage = OutputOf<typeof pageHospitalsEndpoint>
export type ExamQrCode = OutputOf<typeof issueExamQrCodeEndpoint>

/** The hospitals to pick from (search by name), page by page. */
export function searchHospitals(
  keyword: string,
  page = 1,
  options?: CallOptions,
): Promise<HospitalPage> {
  const trimmed = keyword.trim()
  return callEndpoint(
    pageHospitalsEndpoint,
    { page, pageSize: 20, ...(trimmed ? { keyword: trimmed } : {}) },
    options,
  )
}

export function lookupExamClaim(input: {
  hospitalId: string
  examNumber: string
  name: string
}): Promise<ClaimStart> {
  return callEndpoint(lookupExamClaimEndpoint, input)
}

export function sendClaimCode(ticket: string): Promise<OutputOf<typeof sendClaimCodeEndpoint>> {
  return callEndpoint(sendClaimCodeEndpoint, { ticket })
}

export function confirmClaim(ticket: string, code: string): Promise<ClaimedExam> {
  return callEndpoint(confirmClaimEndpoint, { ticket, code })
}

/** The owner's 5-minute code; quiet offline (the sheet says so itself). */
export function issueExamQrCode(examId: string, options?: CallOptions): Promise<ExamQrCode> {
  return callEndpoint(issueExamQrCodeEndpoint, { examId }, options)
}

export function scanQrCode(content: string): Promise<ScanResult> {
  return callEndpoint(scanQrCodeEndpoint, { content })
}

export function getScanReportInfo(code: string, options?: CallOptions): Promise<ScanResult> {
  return callEndpoint(getScanReportInfoEndpoint, { code }, options)
}

export function getScanReportCount(
  code: string,
  options?: CallOptions,
): Promise<OutputOf<typeof getScanReportCountEndpoint>> {
  return callEndpoint(getScanReportCountEndpoint, { code }, options)
}

export function listScanRooms(
  code: string,
  options?: CallOptions,
): Promise<OutputOf<typeof listScanRoomsEndpoint>> {
  return callEndpoint(listScanRoomsEndpoint, { code }, options)
}

/** The report of a claimed exam, from the records family (read-only view of detail2). */
export function getClaimedReport(reportId: string, options?: CallOptions): Promise<ReportDetail> {
  return callEndpoint(getReportDetailEndpoint, { reportId }, options)
}

/** 院内报告: the person's exams at the hospital of a scanned room code, with their report states. */
export function listHospitalReports(
  input: { hospitalId: string; roomId?: string; personId?: string },
  options?: CallOptions,
): Promise<HospitalReports> {
  return callEndpoint(listHospitalReportsEndpoint, input, options)
}
