import { z } from 'zod/mini'
import { envelope } from '@contract/envelope'
import {
  type ConsultPicture,
  ConsultPictureSchema,
  uploadConsultPicture as uploadEndpoint,
} from '@contract/main/consultations'
import { showToast } from '@/platform/ui'
import { DRIFT_MESSAGE, ResponseDriftError } from '@/services/api'
import { hostOf } from '@/services/hosts'
import { http } from '@/services/http'

/**
 * One picture for the conversation (multipart `file`; the server sniffs and re-encodes it).
 *
 * Local until `uploadConsultPicture` lands in services/consultations.ts (another engineer adds it
 * for the application's pictures); then this file goes and the hook imports that one. Built like
 * services/feedback.ts `uploadFeedbackImage`: uploadFile, then the contract's schema on the answer.
 */
export async function uploadConversationPicture(filePath: string): Promise<ConsultPicture> {
  const body = await http.upload<unknown>({
    baseUrl: hostOf(uploadEndpoint.service),
    url: uploadEndpoint.path,
    filePath,
    name: 'file',
    loading: false,
  })
  const parsed = z.safeParse(envelope(ConsultPictureSchema), body)
  if (!parsed.success) {
    showToast(DRIFT_MESSAGE)
    throw new ResponseDriftError('POST consultation picture', parsed.error.issues)
  }
  return parsed.data.data as ConsultPicture
}
