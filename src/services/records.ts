import Taro from '@tarojs/taro'
import {
  getAreaData as getAreaDataEndpoint,
  getCurrentLocation as getCurrentLocationEndpoint,
  getDefaultArea as getDefaultAreaEndpoint,
  listImageHospitals as listImageHospitalsEndpoint,
  type AreaNode,
  type AreaRef,
  type ImageHospital,
} from '@contract/image/areas'
import { listExams as listExamsEndpoint } from '@contract/image/exams'
import {
  getExamDetail as getExamDetailEndpoint,
  getReportDetail as getReportDetailEndpoint,
  hideReport as hideReportEndpoint,
  listMyHospitals as listMyHospitalsEndpoint,
  listMyImages as listMyImagesEndpoint,
  listPersonalReports as listPersonalReportsEndpoint,
  listSeriesInstances as listSeriesInstancesEndpoint,
  markReportsRead as markReportsReadEndpoint,
  restoreReport as restoreReportEndpoint,
  sendReportUnlockCode as sendReportUnlockCodeEndpoint,
  setReportArchived as setReportArchivedEndpoint,
  setReportPrivacy as setReportPrivacyEndpoint,
  unlockReports as unlockReportsEndpoint,
  type ExamDetail,
  type ExamSummary,
  type ImageGroup,
  type MyHospital,
  type ReportBrief,
  type ReportDetail,
  type ReportListItem,
  type RecordOwner,
  type ReportVersion,
  type SeriesInstance,
  type SeriesSummary,
} from '@contract/main/records'
import type { InputOf, OutputOf } from '@contract/endpoint'
import { callEndpoint, type CallOptions } from './api'
import { apiOrigin } from './hosts'
import { http, isAbsoluteUrl, type HttpResponse } from './http'
import { shareBearerHeader } from './share-bearer'

/**
 * Images and reports of the signed-in person (contract/main/records.ts, contract/image/*): one
 * verb-noun function per call, plus the authorised image download the thumbnails need.
 */

export type {
  AreaNode,
  AreaRef,
  ExamDetail,
  ExamSummary,
  ImageGroup,
  ImageHospital,
  MyHospital,
  RecordOwner,
  ReportBrief,
  ReportDetail,
  ReportListItem,
  ReportVersion,
  SeriesInstance,
  SeriesSummary,
}
export type ReportListQuery = InputOf<typeof listPersonalReportsEndpoint>
export type ReportListPage = OutputOf<typeof listPersonalReportsEndpoint>
export type ExamListQuery = InputOf<typeof listExamsEndpoint>
export type ExamListPage = OutputOf<typeof listExamsEndpoint>
export type HospitalQuery = InputOf<typeof listImageHospitalsEndpoint>
export type HospitalPage = OutputOf<typeof listImageHospitalsEndpoint>
export type UnlockInput = InputOf<typeof unlockReportsEndpoint>
export type LocatedArea = OutputOf<typeof getCurrentLocationEndpoint>

// Lists draw their own loading state: a mask over them would block pull-to-refresh.
const QUIET: CallOptions = { loading: false }

export function listPersonalReports(query: ReportListQuery): Promise<ReportListPage> {
  return callEndpoint(listPersonalReportsEndpoint, query, QUIET)
}

/** `personId`: 当前就诊人 when a family member (absent: the caller). */
export function listMyImages(
  hospitalIds?: readonly string[],
  personId?: string,
): Promise<ImageGroup[]> {
  const input = {
    ...(hospitalIds && hospitalIds.length > 0 ? { hospitalIds: hospitalIds.join(',') } : {}),
    ...(personId ? { personId } : {}),
  }
  return callEndpoint(listMyImagesEndpoint, input, QUIET)
}

export function listExams(query: ExamListQuery): Promise<ExamListPage> {
  return callEndpoint(listExamsEndpoint, query, QUIET)
}

export function listMyHospitals(personId?: string): Promise<MyHospital[]> {
  return callEndpoint(listMyHospitalsEndpoint, personId ? { personId } : {}, QUIET)
}

export function getExamDetail(examId: string): Promise<ExamDetail> {
  return callEndpoint(getExamDetailEndpoint, { examId }, QUIET)
}

/** The files (DICOM instances) of one series, in instance number order. */
export function listSeriesInstances(examId: string, seriesId: string): Promise<SeriesInstance[]> {
  return callEndpoint(listSeriesInstancesEndpoint, { examId, seriesId }, QUIET)
}

/** A private report answers `locked: true` without a ticket from unlockReports. */
export function getReportDetail(reportId: string, ticket?: string): Promise<ReportDetail> {
  return callEndpoint(getReportDetailEndpoint, ticket ? { reportId, ticket } : { reportId }, QUIET)
}

export function markReportsRead(reportIds: string[]): Promise<{ marked: number }> {
  return callEndpoint(markReportsReadEndpoint, { reportIds })
}

export function markAllReportsRead(): Promise<{ marked: number }> {
  return callEndpoint(markReportsReadEndpoint, { all: true })
}

export function sendReportUnlockCode(): Promise<OutputOf<typeof sendReportUnlockCodeEndpoint>> {
  return callEndpoint(sendReportUnlockCodeEndpoint, {})
}

export function unlockReports(input: UnlockInput): Promise<OutputOf<typeof unlockReportsEndpoint>> {
  return callEndpoint(unlockReportsEndpoint, input)
}

export function setReportPrivacy(
  reportId: string,
  makePrivate: boolean,
  ticket?: string,
): Promise<ReportBrief> {
  return callEndpoint(setReportPrivacyEndpoint, {
    reportId,
    private: makePrivate,
    ...(ticket ? { ticket } : {}),
  })
}

export function setReportArchived(
  reportId: string,
  archived: boolean,
): Promise<{ archived: boolean }> {
  return callEndpoint(setReportArchivedEndpoint, { reportId, archived })
}

export function hideReport(reportId: string): Promise<{ ok: true }> {
  return callEndpoint(hideReportEndpoint, { reportId })
}

export function restoreReport(reportId: string): Promise<{ ok: true }> {
  return callEndpoint(restoreReportEndpoint, { reportId })
}

export function getAreaData(): Promise<AreaNode[]> {
  return callEndpoint(getAreaDataEndpoint, {}, QUIET)
}

export function getDefaultArea(): Promise<AreaRef | null> {
  return callEndpoint(getDefaultAreaEndpoint, {}, QUIET)
}

export function listImageHospitals(query: HospitalQuery): Promise<HospitalPage> {
  return callEndpoint(listImageHospitalsEndpoint, query, QUIET)
}

/** The region of our hospitals nearest to where the phone says it is. */
export function locateArea(latitude: number, longitude: number): Promise<LocatedArea> {
  return callEndpoint(getCurrentLocationEndpoint, { latitude, longitude }, QUIET)
}

/**
 * 选择地区或医院 opened to pick (`navigate('hospitalPicker', { pick: 1 })`, e.g. by 影像查询) hands the
 * chosen hospital back through this event, then goes back; the opener listens with
 * `onHospitalPicked` before navigating. Features cannot import each other, so the handoff lives here.
 */
export const HOSPITAL_PICKED_EVENT = 'records:hospital-picked'

export function emitHospitalPicked(hospital: ImageHospital): void {
  Taro.eventCenter.trigger(HOSPITAL_PICKED_EVENT, hospital)
}

/** Listens for the next pick; answers the function that stops listening. */
export function onHospitalPicked(listener: (hospital: ImageHospital) => void): () => void {
  const handler = (hospital: ImageHospital) => listener(hospital)
  Taro.eventCenter.on(HOSPITAL_PICKED_EVENT, handler)
  return () => Taro.eventCenter.off(HOSPITAL_PICKED_EVENT, handler)
}

/** A picture fetched with the session's bearer token, ready for an <Image src>. */
export interface AuthorisedImage {
  /** weapp: a temporary file path; H5: a blob: object URL. */
  src: string
  /** Frees what the platform holds for it (the object URL on H5); safe to call twice. */
  release: () => void
}

/**
 * Fetches an image that needs the bearer token (WADO-RS thumbnails), which an <Image src> cannot send
 * on weapp: WeChat's image component takes no headers. The http wrapper's download sends them on
 * both platforms and answers a temp file (weapp) or an object URL (H5).
 *
 * Quiet by design: a grid of thumbnails must not flash 请求中... or toast once per picture, so
 * failures reject without a toast and the caller shows its own placeholder. A 401 still goes through
 * the wrapper's renew-then-relogin rule.
 */
export async function downloadAuthorisedImage(
  url: string,
  accept = 'image/jpeg',
): Promise<AuthorisedImage> {
  const file = await http.download({
    // WADO paths sit at the server's root, not under a service prefix: the base is the origin
    // ('' on H5, the page's own), never the main service the wrapper would otherwise prefix.
    url,
    baseUrl: isAbsoluteUrl(url) ? undefined : apiOrigin(),
    // A link visitor's share token while a shared page shows (issue 9); else the login's, as usual.
    header: { Accept: accept, ...shareBearerHeader() },
    loading: false,
    quietOffline: true,
    hooks: {
      response: (response: HttpResponse) =>
        response.statusCode === 200 || response.statusCode === 401 ? undefined : false,
    },
  })
  const src = file.tempFilePath
  let released = false
  return {
    src,
    release: () => {
      if (released) return
      released = true
      if (src.startsWith('blob:') && typeof URL !== 'undefined' && URL.revokeObjectURL) {
        URL.revokeObjectURL(src)
      }
    },
  }
}
