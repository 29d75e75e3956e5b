export {
  type AiDraftSource,
  formatVerifyCode,
  type OpinionContext,
  readOpinion,
  saveDraft,
  sign,
  verify,
  workspace,
} from './opinions'
export { setCjkFont } from './cjk-font'
/** pdfkit and its font engine load with the first PDF, not at every server start. */
export const opinionPdf: typeof import('./pdf').opinionPdf = async (...args) =>
  (await import('./pdf')).opinionPdf(...args)
export { BUILT_IN_TEMPLATES, checkValues, sentencesOf, templateById } from './templates'
export { deleteVariant, listTemplates, saveVariant } from './variants'
