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
export { opinionPdf, setCjkFont } from './pdf'
export { BUILT_IN_TEMPLATES, checkValues, sentencesOf, templateById } from './templates'
export { deleteVariant, listTemplates, saveVariant } from './variants'
