import {
  createExamRequest as createExamRequestEndpoint,
  type ExamRequest,
  type ExamRequestForm,
  getExamRequest as getExamRequestEndpoint,
} from '@contract/main/exam-requests'
import { callEndpoint, type CallOptions } from './api'

/** 检查申请单: the expert's suggestion in a consultation (contract/main/exam-requests.ts). */

export type { ExamRequest, ExamRequestForm }

// The page draws its own loading and error states.
const QUIET: CallOptions = { loading: false }

export function createExamRequest(
  body: ExamRequestForm & { consultationId: string; clientId: string },
): Promise<ExamRequest> {
  return callEndpoint(createExamRequestEndpoint, body, QUIET)
}

export function getExamRequest(examRequestId: string): Promise<ExamRequest> {
  return callEndpoint(getExamRequestEndpoint, { examRequestId }, QUIET)
}
