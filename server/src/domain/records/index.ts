export {
  assertPersonInReach,
  boundIdentity,
  cardIdentity,
  EXAM_NOT_FOUND,
  findVisibleExam,
  findVisibleStudy,
  identityDigests,
  managedPeople,
  nameDigest,
  normaliseIdNumber,
  normalisePatientName,
  type PatientIdentity,
  privateToMember,
  reachableBy,
  reachableDirectly,
  type ReachedExam,
  reachExam,
  reachStudy,
  type RecordsCaller,
  type SearchReach,
  visibleTo,
} from './access'
export {
  examTitle,
  type Executor,
  mobileIn,
  modalityList,
  type PushedPatient,
  refreshExamCounts,
  residentIdAmong,
  upsertHospitalExam,
  upsertUploadExam,
} from './exams'
export {
  type InstanceRow,
  pickThumbnail,
  previewKeyPrefix,
  type ThumbnailCandidate,
  warmDetailThumbnails,
} from './images'
export { reachedOwner, recordOwner } from './owner'
export { personLabels, sharerText } from './people'
