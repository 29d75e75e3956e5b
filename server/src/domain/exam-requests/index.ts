export { createExamRequest, readExamRequest } from './exam-requests'
