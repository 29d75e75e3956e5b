export {
  addPhoto,
  getMyApplication,
  readPhoto,
  removePhoto,
  saveDraft,
  submit,
  withdraw,
} from './applications'
export { decide, getApplication, listApplications } from './review'
export { createRequest, listMyRequests, listRequests, settleRequest } from './hospital-requests'
export { forgetExpertOf, purgeDeletedApplicants } from './account-deletion'
