export { withoutPatientIdentity } from './dicom-identity'
export { shareSessionReader } from './shares'
export { noteView } from './views'
