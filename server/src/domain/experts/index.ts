export {
  parseList as parseSpecialities,
  addPhoto,
  getMyApplication,
  readPhoto,
  removePhoto,
  saveDraft,
  submit,
  withdraw,
} from './applications'
export { decide, type Decision, getApplication, listApplications } from './review'
export { getExpertFilters, listExperts } from './directory'
export {
  CARD_COLUMNS,
  type CardRow,
  expertLine,
  expertMatches,
  expertPhoto,
  favouriteCountOf,
  fillExpertNames,
  getExpertProfile,
  isCertifiedExpert,
  publicExperts,
  TITLE_RANK,
  toExpertCard,
} from './profiles'
export { getMyExpertSettings, updateMyExpertProfile, updateMyExpertServices } from './settings'
export { assertExpertTakesConsultations, operatorListExperts, setSuspension } from './suspension'
export { DEMO_APPLICANT_ID, DEMO_EXPERTS, removeDemoExperts, seedDemoExperts } from './demo'
export { createRequest, listMyRequests, listRequests, settleRequest } from './hospital-requests'
export { forgetExpertOf, purgeDeletedApplicants } from './account-deletion'
