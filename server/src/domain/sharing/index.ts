export { withoutPatientIdentity } from './dicom-identity'
export { shareSessionReader } from './shares'
export { noteView } from './views'
export {
  checkConsultationRecords,
  describeConsultGrant,
  endConsultationGrant,
  insertConsultationGrant,
} from './consultation-grants'
