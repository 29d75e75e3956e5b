export type { ArchiveContext, ArchiveSummary } from './archive'
/**
 * The archive writer loads archiver and pdfkit's report layout only when a job builds an archive,
 * not at every server start (the ingest's memory budget counts what a server loads).
 */
export const writeArchive: typeof import('./archive').writeArchive = async (...args) =>
  (await import('./archive')).writeArchive(...args)
export { consentHistory } from './consents'
export {
  DATA_EXPORT_JOB_KIND,
  downloadLink,
  expireExport,
  expireOverdueExports,
  hashToken,
  listDataExports,
  requestDataExport,
  takeDownload,
} from './exports'
export { type DataExportJobContext, dataExportJob } from './job'
