import Taro from '@tarojs/taro'
import { z } from 'zod/mini'
import { SERVICES } from '@contract/services'
import { envelope } from '@contract/envelope'
import {
  deleteExpertPhoto as deleteExpertPhotoEndpoint,
  EXPERT_PHOTO_UPLOAD_PATH,
  type ExpertApplication,
  ExpertApplicationSchema,
  type ExpertDraft,
  type ExpertPhotoKind,
  getMyExpertApplication as getMyExpertApplicationEndpoint,
  saveExpertDraft as saveExpertDraftEndpoint,
  submitExpertApplication as submitExpertApplicationEndpoint,
  withdrawExpertApplication as withdrawExpertApplicationEndpoint,
} from '@contract/main/experts'
import {
  createHospitalRequest as createHospitalRequestEndpoint,
  type HospitalRequest,
  type HospitalRequestInput,
  listMyHospitalRequests as listMyHospitalRequestsEndpoint,
} from '@contract/main/hospital-requests'
import { showToast } from '@/platform/ui'
import { callEndpoint, type CallOptions, DRIFT_MESSAGE, ResponseDriftError } from './api'
import { hostOf } from './hosts'
import { http } from './http'
import type { DirectoryHospital } from './hospital-directory'

/** 专家认证, the applicant's side (contract/main/experts.ts, issue 20). */

export type {
  ExpertApplication,
  ExpertDraft,
  ExpertPhotoKind,
  HospitalRequest,
  HospitalRequestInput,
}

/** The latest application, or null when the person never applied. */
export function getMyExpertApplication(options?: CallOptions): Promise<ExpertApplication | null> {
  return callEndpoint(getMyExpertApplicationEndpoint, {}, options)
}

export function saveExpertDraft(draft: ExpertDraft): Promise<ExpertApplication> {
  return callEndpoint(saveExpertDraftEndpoint, draft)
}

export function submitExpertApplication(agreementVersion: string): Promise<ExpertApplication> {
  return callEndpoint(submitExpertApplicationEndpoint, { agreementVersion })
}

export function withdrawExpertApplication(): Promise<ExpertApplication> {
  return callEndpoint(withdrawExpertApplicationEndpoint, {})
}

export function deleteExpertPhoto(photoId: string): Promise<ExpertApplication> {
  return callEndpoint(deleteExpertPhotoEndpoint, { photoId }, { loading: false })
}

const applicationEnvelope = envelope(ExpertApplicationSchema)

/** One certificate photo (uploadFile sends one file a request); answers the application with it. */
export async function uploadExpertPhoto(
  kind: ExpertPhotoKind,
  filePath: string,
): Promise<ExpertApplication> {
  const body = await http.upload<unknown>({
    baseUrl: hostOf('main'),
    // The contract's path is the reference server's; the main host already carries /main.
    url: `${EXPERT_PHOTO_UPLOAD_PATH.slice(SERVICES.main.length)}?kind=${kind}`,
    filePath,
    name: 'file',
    loading: false,
  })
  const parsed = z.safeParse(applicationEnvelope, body)
  if (!parsed.success) {
    showToast(DRIFT_MESSAGE)
    throw new ResponseDriftError(`POST ${EXPERT_PHOTO_UPLOAD_PATH}`, parsed.error.issues)
  }
  return parsed.data.data as ExpertApplication
}

/**
 * 找不到我的医院？ asks for the hospital to be added; asking again for a name still waiting answers
 * the same request. A name already in the directory is refused with HOSPITAL_REQUEST_MESSAGES.alreadyListed.
 */
export function createHospitalRequest(input: HospitalRequestInput): Promise<HospitalRequest> {
  return callEndpoint(createHospitalRequestEndpoint, input)
}

/** My requests, newest first. */
export function listMyHospitalRequests(options?: CallOptions): Promise<HospitalRequest[]> {
  return callEndpoint(listMyHospitalRequestsEndpoint, {}, options)
}

/** What 选择医院 hands back: a hospital of the directory, or my request to add one. */
export type ExpertHospitalChoice =
  { kind: 'hospital'; hospital: DirectoryHospital } | { kind: 'request'; request: HospitalRequest }

/**
 * 选择医院 hands the choice back to the certification form through this event, then goes back;
 * the form listens with `onExpertHospitalPicked` before it navigates. Taro's event centre lives in
 * the shared runtime, so it works on H5 and across the mini-program's packages alike.
 */
export const EXPERT_HOSPITAL_PICKED_EVENT = 'experts:hospital-picked'

export function emitExpertHospitalPicked(choice: ExpertHospitalChoice): void {
  Taro.eventCenter.trigger(EXPERT_HOSPITAL_PICKED_EVENT, choice)
}

/** Listens for picks; answers the function that stops listening. */
export function onExpertHospitalPicked(
  listener: (choice: ExpertHospitalChoice) => void,
): () => void {
  const handler = (choice: ExpertHospitalChoice) => listener(choice)
  Taro.eventCenter.on(EXPERT_HOSPITAL_PICKED_EVENT, handler)
  return () => Taro.eventCenter.off(EXPERT_HOSPITAL_PICKED_EVENT, handler)
}
