export type { WalletContext } from './context'
export { getOverview } from './overview'
export { getTrade, listTrades } from './trades'
export {
  cancelWithdrawal,
  confirmWithdrawal,
  createWithdrawal,
  getWithdrawal,
  listWithdrawals,
  quoteWithdrawal,
  syncWithdrawal,
} from './withdrawals'
export { applyTransferResult } from './settle'
export { decideWithdrawal, operatorListWithdrawals } from './operator'
export { setWalletLimits, walletLimits, type WalletLimits } from './settings'
export { listReconciliations, reconcileDay } from './reconcile'
export { incomeReportCsv } from './income-report'
export { walletTransferJob, type WalletContextForJobs } from './jobs'
export { seedDemoWallet, DEMO_WALLET_MARKER } from './demo'
