export { removeDemoRecords } from './remove'
export { SAMPLE_BOUNDARY, writeSampleStudy } from './sample'
