export { withoutPatientIdentity } from './dicom-identity'
export { shareSessionReader } from './shares'
