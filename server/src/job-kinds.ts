import { aiAnalysisJob } from './domain/ai'
import { consultRefundJob, consultTimerJob, type ContextForJobs } from './domain/consultations'
import { dataExportJob, type DataExportJobContext } from './domain/data-export'
import { stowJob } from './domain/ingest'
import { uploadJob } from './domain/uploads'
import { walletTransferJob, type WalletContextForJobs } from './domain/wallet'
import type { JobKind } from './jobs/runner'
import type { AiAnalysisProvider } from './providers/ai'

/**
 * Every kind of background job the app runs, in one table handed to the job runner at start
 * (app.ts → createAppJobRunner). A new kind is added here, never registered by importing a module.
 */
export const JOB_KINDS: readonly JobKind[] = [stowJob, uploadJob]

/**
 * The app's kinds: ingest, the consultations' timers and refunds, the wallet's transfers, AI
 * analyses and data exports (which need the app's providers and settings).
 */
export function appJobKinds(
  consult: ContextForJobs,
  wallet: WalletContextForJobs,
  ai: () => AiAnalysisProvider,
  dataExport: () => DataExportJobContext,
): readonly JobKind[] {
  return [
    ...JOB_KINDS,
    consultTimerJob(consult),
    consultRefundJob(consult),
    walletTransferJob(wallet),
    aiAnalysisJob(ai),
    dataExportJob(dataExport),
  ]
}
