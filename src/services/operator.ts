import { z } from 'zod/mini'
import { SERVICES } from '@contract/services'
import type { InputOf } from '@contract/endpoint'
import { envelope } from '@contract/envelope'
import * as contract from '@contract/main/operator'
import { showToast } from '@/platform/ui'
import { callEndpoint, DRIFT_MESSAGE, ResponseDriftError } from './api'
import { hostOf } from './hosts'
import { http } from './http'

/**
 * 运营后台 (contract/main/operator.ts): H5 only. Every call answers 403 仅运营人员可以使用此功能 to
 * anyone but an operator; the pages show that message rather than hide the reason.
 */

export type OperatorArticle = z.infer<typeof contract.OperatorArticleSchema>
export type OperatorVideo = z.infer<typeof contract.OperatorVideoSchema>
export type OperatorFeature = z.infer<typeof contract.OperatorFeatureSchema>
export type OperatorHospital = z.infer<typeof contract.OperatorHospitalSchema>
export type HospitalKey = z.infer<typeof contract.HospitalKeySchema>
export type OperatorAction = z.infer<typeof contract.OperatorActionSchema>
export type OperatorFileKind = (typeof contract.OPERATOR_FILE_KINDS)[number]
export type OperatorFile = z.infer<typeof contract.OperatorFileSchema>

const quiet = { loading: false } as const

export const operatorApi = {
  articleTypes: () => callEndpoint(contract.operatorListArticleTypes, {}, quiet),
  articles: (page: number, pageSize: number) =>
    callEndpoint(contract.operatorListArticles, { page, pageSize }, quiet),
  article: (articleId: string) => callEndpoint(contract.operatorGetArticle, { articleId }),
  saveArticle: (input: InputOf<typeof contract.operatorSaveArticle>) =>
    callEndpoint(contract.operatorSaveArticle, input),
  setArticleState: (articleId: string, state: 'published' | 'unpublished') =>
    callEndpoint(contract.operatorSetArticleState, { articleId, state }),
  videos: (page: number, pageSize: number) =>
    callEndpoint(contract.operatorListVideos, { page, pageSize }, quiet),
  saveVideo: (input: InputOf<typeof contract.operatorSaveVideo>) =>
    callEndpoint(contract.operatorSaveVideo, input),
  setVideoState: (videoId: string, state: 'published' | 'unpublished') =>
    callEndpoint(contract.operatorSetVideoState, { videoId, state }),
  feedback: (page: number, pageSize: number) =>
    callEndpoint(contract.operatorListFeedback, { page, pageSize }, quiet),
  replyFeedback: (feedbackId: string, text: string, adopted: boolean) =>
    callEndpoint(contract.operatorReplyFeedback, { feedbackId, text, adopted }),
  features: () => callEndpoint(contract.operatorListFeatures, {}, quiet),
  setFeature: (key: string, enabled: boolean) =>
    callEndpoint(contract.operatorSetFeature, { key, enabled }),
  hospitals: () => callEndpoint(contract.operatorListHospitals, {}, quiet),
  saveHospital: (input: InputOf<typeof contract.operatorSaveHospital>) =>
    callEndpoint(contract.operatorSaveHospital, input),
  hospitalKeys: (hospitalId: string) =>
    callEndpoint(contract.operatorListHospitalKeys, { hospitalId }, quiet),
  issueKey: (hospitalId: string) => callEndpoint(contract.operatorIssueHospitalKey, { hospitalId }),
  revokeKey: (hospitalId: string, keyId: string) =>
    callEndpoint(contract.operatorRevokeHospitalKey, { hospitalId, keyId }),
  actions: (page: number, pageSize: number) =>
    callEndpoint(contract.operatorListActions, { page, pageSize }, quiet),
}

/** A cover, a poster or a video, by a path uploadFile can send; answers its id. */
export async function uploadOperatorFile(
  kind: OperatorFileKind,
  filePath: string,
): Promise<OperatorFile> {
  const body = await http.upload<unknown>({
    baseUrl: hostOf('main'),
    url: `${contract.OPERATOR_FILES_PATH.slice(SERVICES.main.length)}?kind=${kind}`,
    filePath,
    name: 'file',
  })
  const parsed = z.safeParse(envelope(contract.OperatorFileSchema), body)
  if (!parsed.success) {
    showToast(DRIFT_MESSAGE)
    throw new ResponseDriftError('POST operator file', parsed.error.issues)
  }
  return parsed.data.data as OperatorFile
}
