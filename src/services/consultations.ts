import { z } from 'zod/mini'
import type { InputOf, OutputOf } from '@contract/endpoint'
import { envelope } from '@contract/envelope'
import {
  acceptConsultation as acceptEndpoint,
  adoptConsultation as adoptEndpoint,
  answerConsultation as answerEndpoint,
  cancelConsultation as cancelEndpoint,
  complainConsultation as complainEndpoint,
  confirmDemoPayment as confirmDemoPaymentEndpoint,
  countExpertConsultations as countExpertEndpoint,
  createConsultation as createEndpoint,
  declineConsultation as declineEndpoint,
  deleteConsultation as deleteEndpoint,
  getConsultation as getEndpoint,
  getConsultQuote as getQuoteEndpoint,
  listConsultMessages as listMessagesEndpoint,
  listConsultPeople as listPeopleEndpoint,
  listExpertConsultations as listExpertEndpoint,
  listMyConsultations as listMyEndpoint,
  listPublicQuestions as listPublicEndpoint,
  markConsultRead as markReadEndpoint,
  payConsultation as payEndpoint,
  publishConsultation as publishEndpoint,
  rateConsultation as rateEndpoint,
  sendConsultMessage as sendEndpoint,
  syncConsultPayment as syncPaymentEndpoint,
  type ConsultPicture,
  ConsultPictureSchema,
  uploadConsultPicture as uploadPictureEndpoint,
} from '@contract/main/consultations'
import { showToast } from '@/platform/ui'
import { callEndpoint, type CallOptions, DRIFT_MESSAGE, ResponseDriftError } from './api'
import { hostOf } from './hosts'
import { http } from './http'

/*
 * Consultations (contract/main/consultations.ts): the patient's application, payment and 我的咨询,
 * the conversation both sides share, and the expert's 患者咨询. One verb-noun function per call;
 * amounts stay integer fen (the screens format them with yuanOf).
 */

export * from '@contract/main/consultations'
export { CONSULT_SERVICES, type ConsultService } from '@contract/main/expert-profiles'

export type ConsultQuote = OutputOf<typeof getQuoteEndpoint>
export type ConsultPeople = OutputOf<typeof listPeopleEndpoint>['items']
export type ConsultPage = OutputOf<typeof listMyEndpoint>
export type ExpertConsultPage = OutputOf<typeof listExpertEndpoint>
export type PayStart = OutputOf<typeof payEndpoint>
export type MessagePage = OutputOf<typeof listMessagesEndpoint>
export type SendMessageInput = InputOf<typeof sendEndpoint>
export type AnswerInput = InputOf<typeof answerEndpoint>
export type RatingInput = InputOf<typeof rateEndpoint>
export type PublicQuestionPage = OutputOf<typeof listPublicEndpoint>

// Lists and pages draw their own loading state; forms show their own busy button.
const QUIET: CallOptions = { loading: false }

export const getConsultQuote = (input: InputOf<typeof getQuoteEndpoint>) =>
  callEndpoint(getQuoteEndpoint, input, QUIET)
export const listConsultPeople = () => callEndpoint(listPeopleEndpoint, {}, QUIET)
export const createConsultation = (input: InputOf<typeof createEndpoint>) =>
  callEndpoint(createEndpoint, input, QUIET)
export const payConsultation = (input: InputOf<typeof payEndpoint>) =>
  callEndpoint(payEndpoint, input, QUIET)
export const confirmDemoPayment = (consultationId: string, token: string) =>
  callEndpoint(confirmDemoPaymentEndpoint, { consultationId, token }, QUIET)
export const syncConsultPayment = (consultationId: string) =>
  callEndpoint(syncPaymentEndpoint, { consultationId }, QUIET)
export const cancelConsultation = (consultationId: string) =>
  callEndpoint(cancelEndpoint, { consultationId }, QUIET)
export const listMyConsultations = (input: InputOf<typeof listMyEndpoint>) =>
  callEndpoint(listMyEndpoint, input, QUIET)
export const getConsultation = (consultationId: string) =>
  callEndpoint(getEndpoint, { consultationId }, QUIET)
export const listConsultMessages = (input: InputOf<typeof listMessagesEndpoint>) =>
  callEndpoint(listMessagesEndpoint, input, { loading: false, quietOffline: true })
export const sendConsultMessage = (input: SendMessageInput) =>
  callEndpoint(sendEndpoint, input, QUIET)
export const markConsultRead = (consultationId: string, seq: number) =>
  callEndpoint(markReadEndpoint, { consultationId, seq }, { loading: false, quietOffline: true })
export const adoptConsultation = (consultationId: string) =>
  callEndpoint(adoptEndpoint, { consultationId }, QUIET)
export const rateConsultation = (input: RatingInput) => callEndpoint(rateEndpoint, input, QUIET)
export const complainConsultation = (consultationId: string, text: string) =>
  callEndpoint(complainEndpoint, { consultationId, text }, QUIET)
export const publishConsultation = (consultationId: string, visible: boolean) =>
  callEndpoint(publishEndpoint, { consultationId, public: visible }, QUIET)
export const deleteConsultation = (consultationId: string) =>
  callEndpoint(deleteEndpoint, { consultationId }, QUIET)
/**
 * One picture of the application (门诊病历, 出院小结, an outside exam) or of a message: uploadFile
 * sends one file per request; answers the id createConsultation takes and the bearer-read url.
 */
export async function uploadConsultPicture(filePath: string): Promise<ConsultPicture> {
  const body = await http.upload<unknown>({
    baseUrl: hostOf('main'),
    // The descriptor's path is under its service; the main host already carries /main.
    url: uploadPictureEndpoint.path,
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

export const listPublicQuestions = (input: InputOf<typeof listPublicEndpoint>) =>
  callEndpoint(listPublicEndpoint, input, QUIET)

// --- The expert's side ---
export const listExpertConsultations = (input: InputOf<typeof listExpertEndpoint>) =>
  callEndpoint(listExpertEndpoint, input, QUIET)
export const countExpertConsultations = () =>
  callEndpoint(countExpertEndpoint, {}, { loading: false, quietOffline: true })
export const acceptConsultation = (consultationId: string) =>
  callEndpoint(acceptEndpoint, { consultationId }, QUIET)
export const declineConsultation = (consultationId: string, reason: string) =>
  callEndpoint(declineEndpoint, { consultationId, reason }, QUIET)
export const answerConsultation = (input: AnswerInput) => callEndpoint(answerEndpoint, input, QUIET)
