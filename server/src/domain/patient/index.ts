export { type PatientScope } from './lists'
export { examDetail, REPORT_NOT_VISIBLE, toReportDetail } from './patient'
export { hospitalReportState, listHospitalReports } from './hospital-reports'
