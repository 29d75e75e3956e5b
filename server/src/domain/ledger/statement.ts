import type { AccountRef, Entry } from './transfers'

/*
 * Statement lines (`ledger_statement_lines`, migration 0026): one row per expert and per transfer
 * that touches any of that expert's accounts (expert-pending, expert-available, expert-withdrawing),
 * with the transfer's change to each of the three. postTransfer writes them with the transfer's
 * entries, in the same transaction; like the entries they are never updated or deleted, and
 * `ledger:check` proves they equal the entries. They exist for 交易记录 (domain/wallet/trades.ts): a
 * page of an expert's statement is an index range scan on (owner, time), where grouping the expert's
 * entries per transfer read every one of them on every request.
 */

/** The account kinds that have statement lines, and the line's column for each. */
export const STATEMENT_ACCOUNT_KINDS = {
  'expert-pending': 'pending_change',
  'expert-available': 'available_change',
  'expert-withdrawing': 'withdrawing_change',
} as const

type StatementKind = keyof typeof STATEMENT_ACCOUNT_KINDS
export type StatementChange = (typeof STATEMENT_ACCOUNT_KINDS)[StatementKind]

const isStatementAccount = (
  account: AccountRef,
): account is AccountRef & { kind: StatementKind; ownerId: string } =>
  Object.hasOwn(STATEMENT_ACCOUNT_KINDS, account.kind) && account.ownerId !== null

/** A transfer's lines: per owner of an expert account it touches, its change to each account. */
export function statementLines(
  entries: readonly Entry[],
): { ownerId: string; changes: Record<StatementChange, number> }[] {
  const byOwner = new Map<string, Record<StatementChange, number>>()
  for (const { account, amount } of entries) {
    if (!isStatementAccount(account)) continue
    let changes = byOwner.get(account.ownerId)
    if (!changes) {
      changes = { pending_change: 0, available_change: 0, withdrawing_change: 0 }
      byOwner.set(account.ownerId, changes)
    }
    changes[STATEMENT_ACCOUNT_KINDS[account.kind]] += amount
  }
  return [...byOwner].map(([ownerId, changes]) => ({ ownerId, changes }))
}
