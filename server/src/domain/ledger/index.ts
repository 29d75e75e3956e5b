export {
  ACCOUNTS,
  type AccountRef,
  balanceOf,
  type Entry,
  LedgerRefused,
  postTransfer,
  type TransferResult,
} from './transfers'
export { checkLedger, lastLedgerCheck, type LedgerCheck, runAndRecordLedgerCheck } from './check'
