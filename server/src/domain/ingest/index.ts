export { type IngestContext, ingestFiles, type IngestResult } from './ingest'
export { stowJob } from './stow'
