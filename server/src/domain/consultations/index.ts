export { afterCommit, type ConsultContext } from './context'
export {
  applyPaymentResult,
  cancelConsultation,
  confirmDemoPayment,
  createConsultation,
  getQuote,
  listPeople,
  paymentError,
  startPayment,
  syncPayment,
} from './orders'
export { readDetail } from './transition'
export {
  acceptConsultation,
  adoptConsultation,
  complain,
  decideComplaint,
  declineConsultation,
  publish,
  rate,
  removeFromList,
  runTimer,
} from './lifecycle'
export {
  answer,
  listMessages,
  markRead,
  readPicture,
  sendExamRequestMessage,
  sendMessage,
  uploadPicture,
} from './conversation'
export { expertCounts, listForExpert, listForOperator, listMine, listPublic } from './queries'
export { consultRefundJob, consultTimerJob, type ContextForJobs } from './jobs'
export { platformShareBp, setPlatformShareBp } from './settings'
export { finishRefund } from './money'
export type { ConsultSignal } from './model'
export { DEMO_CONSULTATIONS_MARKER, seedDemoConsultations } from './demo'
