export { type ArchiveContext, type ArchiveSummary, writeArchive } from './archive'
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
