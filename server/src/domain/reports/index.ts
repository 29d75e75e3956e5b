export { announceFoundReports } from './report-notices'
export { fhirDoctorNames, fhirFindings, renderReport, resolveKeyImages } from './reports'
