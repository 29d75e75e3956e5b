export { announceFoundReports } from './report-notices'
export { fhirDoctorNames, fhirFindings, resolveKeyImages } from './reports'
