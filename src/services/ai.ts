import {
  AI_ANALYSIS_STATE_LABELS,
  AI_MESSAGES,
  type AiAnalysisState,
  type AiAnalysisStatus,
  type AiAnalysisView,
  type AiReportHospital,
  type AiService,
  aiReportHospitals as aiReportHospitalsEndpoint,
  applyAiAnalysis as applyAiAnalysisEndpoint,
  getAiAnalysis as getAiAnalysisEndpoint,
} from '@contract/main/ai'
import { callEndpoint } from './api'

/**
 * 申请AI分析 (contract/main/ai.ts): the patient asks and reads the request's state, never its
 * result (that is a draft for the consultation's expert only).
 */

export type { AiAnalysisState, AiAnalysisStatus, AiAnalysisView, AiReportHospital, AiService }
export { AI_ANALYSIS_STATE_LABELS, AI_MESSAGES }

export function getAiAnalysis(examId: string): Promise<AiAnalysisView> {
  return callEndpoint(getAiAnalysisEndpoint, { examId }, { loading: false })
}

export function applyAiAnalysis(examId: string): Promise<AiAnalysisStatus> {
  return callEndpoint(applyAiAnalysisEndpoint, { examId })
}

export function listAiReportHospitals(): Promise<{
  service: AiService
  hospitals: AiReportHospital[]
}> {
  return callEndpoint(aiReportHospitalsEndpoint, {}, { loading: false })
}
