export { releaseStorage } from './uploads'
export { uploadJob } from './uploads'
