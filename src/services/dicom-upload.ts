import { z } from 'zod/mini'
import {
  cancelDicomUpload as cancelDicomUploadEndpoint,
  deleteDicomInstance as deleteDicomInstanceEndpoint,
  deleteDicomReport as deleteDicomReportEndpoint,
  deleteReportPhoto as deleteReportPhotoEndpoint,
  dicomUploadChunkPath,
  finishDicomUpload as finishDicomUploadEndpoint,
  getDicomUpload as getDicomUploadEndpoint,
  getStorageQuota as getStorageQuotaEndpoint,
  reportPhotoPath,
  reportPhotosPath,
  ReportPhotosSchema,
  saveDicomReport as saveDicomReportEndpoint,
  startDicomUpload as startDicomUploadEndpoint,
  UploadStateSchema,
  type ReportPhotos,
  type StorageQuota,
  type UploadState,
} from '@contract/main/dicom-upload'
import type { InputOf } from '@contract/endpoint'
import { envelope } from '@contract/envelope'
import {
  listYsReports as listYsReportsEndpoint,
  type ExamFile,
  type YsReportItem,
} from '@contract/main/records'
import { SERVICES } from '@contract/services'
import { showToast } from '@/platform/ui'
import { DRIFT_MESSAGE, ResponseDriftError, callEndpoint, type CallOptions } from './api'
import { hostOf } from './hosts'
import { http, type HttpResponse } from './http'
import { downloadAuthorisedImage, type AuthorisedImage } from './records'

/**
 * The patient's own DICOM uploads (contract/main/dicom-upload.ts): typed calls, the chunk and photo
 * uploads (multipart through the http wrapper's upload, which both platforms' uploadFile speak), and
 * the list of uploads (contract/main/records.ts listYsReports).
 */

export type { ExamFile, ReportPhotos, StorageQuota, UploadState, YsReportItem }
export type SaveDicomReportInput = InputOf<typeof saveDicomReportEndpoint>

// Polling and chunk calls draw their own progress: no "请求中..." mask over the page.
const QUIET: CallOptions = { loading: false }

export function listYsReports(page: number, pageSize: number) {
  return callEndpoint(listYsReportsEndpoint, { page, pageSize }, QUIET)
}

/** Starts a zip upload, or (with `files`) several DICOM files whose bytes follow one another. */
export function startDicomUpload(
  fileName: string,
  size: number,
  files?: { name: string; size: number }[],
): Promise<UploadState> {
  return callEndpoint(startDicomUploadEndpoint, { fileName, size, ...(files ? { files } : {}) })
}

export function getDicomUpload(uploadId: string): Promise<UploadState> {
  return callEndpoint(getDicomUploadEndpoint, { uploadId }, { ...QUIET, quietOffline: true })
}

export function finishDicomUpload(uploadId: string): Promise<UploadState> {
  return callEndpoint(finishDicomUploadEndpoint, { uploadId }, QUIET)
}

export function cancelDicomUpload(uploadId: string): Promise<{ ok: true }> {
  return callEndpoint(cancelDicomUploadEndpoint, { uploadId }, QUIET)
}

export function getStorageQuota(): Promise<StorageQuota> {
  return callEndpoint(getStorageQuotaEndpoint, {}, QUIET)
}

export function saveDicomReport(input: SaveDicomReportInput): Promise<{ ok: true }> {
  return callEndpoint(saveDicomReportEndpoint, input)
}

export function deleteDicomReport(examId: string): Promise<{ ok: true }> {
  return callEndpoint(deleteDicomReportEndpoint, { examId })
}

export function deleteDicomInstance(examId: string, instanceId: string): Promise<{ ok: true }> {
  return callEndpoint(deleteDicomInstanceEndpoint, { examId, instanceId })
}

export function deleteReportPhoto(fileId: string): Promise<{ ok: true }> {
  return callEndpoint(deleteReportPhotoEndpoint, { fileId })
}

/** Paths of the contract are the reference server's; the main host already carries /main. */
const onMainHost = (path: string) => path.slice(SERVICES.main.length)

function checked<T>(schema: z.ZodMiniType<T>, what: string, body: unknown): T {
  const parsed = z.safeParse(envelope(schema), body)
  if (!parsed.success) {
    showToast(DRIFT_MESSAGE)
    throw new ResponseDriftError(what, parsed.error.issues)
  }
  return (parsed.data as { data: T }).data
}

/**
 * Sends one chunk (a file path the platform's uploadFile can read: a temp file on weapp, a blob: URL
 * of the slice on H5) at `offset`. Quiet on the network: the upload session retries and resumes.
 */
export async function uploadDicomChunk(
  uploadId: string,
  offset: number,
  filePath: string,
): Promise<UploadState> {
  const body = await http.upload<unknown>({
    baseUrl: hostOf('main'),
    url: onMainHost(dicomUploadChunkPath(uploadId, offset)),
    filePath,
    name: 'file',
    loading: false,
    quietOffline: true,
    // Refusals reject without a toast: the session decides (a 409 only means "resume elsewhere").
    // A 401 still goes through the wrapper's renew-then-relogin rule.
    hooks: {
      response: (response: HttpResponse) =>
        response.statusCode === 200 || response.statusCode === 401 ? undefined : false,
    },
  })
  return checked(UploadStateSchema, 'POST dicom-upload chunk', body)
}

/** One photo of the paper report (uploadFile sends one file per request). */
export async function uploadReportPhoto(examId: string, filePath: string): Promise<ExamFile[]> {
  const body = await http.upload<unknown>({
    baseUrl: hostOf('main'),
    url: onMainHost(reportPhotosPath(examId)),
    filePath,
    name: 'file',
  })
  return checked(ReportPhotosSchema, 'POST report photos', body).files
}

/** A photo of the paper report, fetched with the bearer token (an <Image> cannot send it on weapp). */
export function downloadReportPhoto(fileId: string): Promise<AuthorisedImage> {
  return downloadAuthorisedImage(reportPhotoPath(fileId))
}
