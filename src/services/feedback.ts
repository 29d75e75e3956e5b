import { z } from 'zod/mini'
import { SERVICES } from '@contract/services'
import type { InputOf } from '@contract/endpoint'
import { envelope } from '@contract/envelope'
import {
  addFeedback as addFeedbackEndpoint,
  FEEDBACK_IMAGES_PATH,
  FEEDBACK_TYPE_LABELS,
  FEEDBACK_TYPES,
  type Feedback,
  FeedbackImageSchema,
  type FeedbackType,
  listMyFeedback as listMyFeedbackEndpoint,
} from '@contract/main/feedback'
import { showToast } from '@/platform/ui'
import { callEndpoint, DRIFT_MESSAGE, ResponseDriftError } from './api'
import { hostOf } from './hosts'
import { http } from './http'

/** 意见反馈 (contract/main/feedback.ts). */

export type { Feedback, FeedbackType }
export { FEEDBACK_TYPE_LABELS, FEEDBACK_TYPES }

export function addFeedback(input: InputOf<typeof addFeedbackEndpoint>): Promise<Feedback> {
  return callEndpoint(addFeedbackEndpoint, input)
}

export function listMyFeedback(page: number, pageSize: number) {
  return callEndpoint(listMyFeedbackEndpoint, { page, pageSize }, { loading: false })
}

/** One picture (uploadFile sends one file per request); answers its id for addFeedback. */
export async function uploadFeedbackImage(filePath: string): Promise<{ id: string; path: string }> {
  const body = await http.upload<unknown>({
    baseUrl: hostOf('main'),
    // The contract's path is the reference server's; the main host already carries /main.
    url: FEEDBACK_IMAGES_PATH.slice(SERVICES.main.length),
    filePath,
    name: 'file',
    loading: false,
  })
  const parsed = z.safeParse(envelope(FeedbackImageSchema), body)
  if (!parsed.success) {
    showToast(DRIFT_MESSAGE)
    throw new ResponseDriftError('POST feedback image', parsed.error.issues)
  }
  return parsed.data.data as { id: string; path: string }
}
