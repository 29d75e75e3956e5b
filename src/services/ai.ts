import {
  AI_ANALYSIS_STATE_LABELS,
  AI_MESSAGES,
  type AiAnalysisState,
  type AiAnalysisStatus,
  type AiAnalysisView,
  type AiService,
  applyAiAnalysis as applyAiAnalysisEndpoint,
  expertAiDrafts as expertAiDraftsEndpoint,
  getAiAnalysis as getAiAnalysisEndpoint,
} from '@contract/main/ai'
import type { AiDraft } from '@contract/main/opinions'
import { callEndpoint } from './api'

/**
 * 申请AI分析 (contract/main/ai.ts): the patient asks and reads the request's state, never its
 * result (that is a draft for the consultation's expert only).
 */

export type { AiDraft, AiAnalysisState, AiAnalysisStatus, AiAnalysisView, AiService }
export { AI_ANALYSIS_STATE_LABELS, AI_MESSAGES }

export function getAiAnalysis(examId: string): Promise<AiAnalysisView> {
  return callEndpoint(getAiAnalysisEndpoint, { examId }, { loading: false })
}

export function applyAiAnalysis(examId: string): Promise<AiAnalysisStatus> {
  return callEndpoint(applyAiAnalysisEndpoint, { examId })
}

/**
 * The expert's side: the AI drafts of a consultation (finished analyses of the exams its grant
 * shares), for the 影像会诊 template on the expert's report page. 403 授权已失效 once the patient
 * revoked the grant (errorReason: REASONS.grantEnded).
 */
export function getExpertAiDrafts(consultationId: string): Promise<AiDraft[]> {
  return callEndpoint(expertAiDraftsEndpoint, { consultationId }, { loading: false })
}
