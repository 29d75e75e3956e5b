import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import type { DB } from '../../db'
import { statementLines } from './statement'

/*
 * The ledger: integer fen, double-entry, append-only (README.md here). Every movement of money is
 * one transfer whose entries sum to zero, keyed by the outside event that caused it (a payment's
 * transaction id, a refund number, a consultation's state change), so it applies once: a second
 * transfer with the same key is refused by the unique index and answers 'duplicate'.
 *
 * Each account keeps a cached balance, changed only here, by one conditional UPDATE that refuses to
 * take an account that must not go negative below zero (concurrent transfers cannot both pass the
 * check: the row update is atomic and locks the row). `ledger:check` proves the cache equals the
 * sum of the entries. Call postTransfer inside the transaction that makes the state change it pays
 * for, so both commit or neither does.
 *
 * With the entries it writes the transfer's statement lines (statement.ts): one per expert whose
 * accounts it touches, with its change to each of them, for 交易记录. Append-only like the entries.
 */

/** An account by its id and what kind of account it is (created on first use). */
export interface AccountRef {
  id: string
  kind: string
  ownerId: string | null
  /** Only outside counterparties (the payment provider) may go below zero. */
  allowNegative: boolean
}

export const ACCOUNTS = {
  /** What the payment provider holds for us: goes negative as payers pay (money came in). */
  provider: (name: string): AccountRef => ({
    id: `provider:${name}`,
    kind: 'provider',
    ownerId: null,
    allowNegative: true,
  }),
  /** A consultation's money held until it ends. */
  escrow: (consultationId: string): AccountRef => ({
    id: `escrow:${consultationId}`,
    kind: 'escrow',
    ownerId: consultationId,
    allowNegative: false,
  }),
  /** Refunds of a consultation on their way back to the payer (the provider is working on them). */
  refund: (consultationId: string): AccountRef => ({
    id: `refund:${consultationId}`,
    kind: 'refund',
    ownerId: consultationId,
    allowNegative: false,
  }),
  /** An expert's income not yet settled (inside the 投诉 window). */
  expertPending: (userId: string): AccountRef => ({
    id: `expert-pending:${userId}`,
    kind: 'expert-pending',
    ownerId: userId,
    allowNegative: false,
  }),
  /** An expert's settled income, which the wallet (issue 22) pays out. */
  expertAvailable: (userId: string): AccountRef => ({
    id: `expert-available:${userId}`,
    kind: 'expert-available',
    ownerId: userId,
    allowNegative: false,
  }),
  /**
   * An expert's withdrawal in flight (issue 22): held out of expert-available while it is reviewed
   * and paid; emptied to the payout and the tax payable on SUCCESS, back to available otherwise.
   */
  expertWithdrawing: (userId: string): AccountRef => ({
    id: `expert-withdrawing:${userId}`,
    kind: 'expert-withdrawing',
    ownerId: userId,
    allowNegative: false,
  }),
  /** Individual income tax withheld from experts' withdrawals: owed to the tax bureau. */
  taxPayable: (): AccountRef => ({
    id: 'tax-payable',
    kind: 'tax-payable',
    ownerId: null,
    allowNegative: false,
  }),
  /**
   * What the transfer provider paid out for us (商家转账 to experts' 零钱): an outside counterparty,
   * it grows as withdrawals are paid (the mirror of `provider`, which goes negative as payers pay).
   */
  payout: (name: string): AccountRef => ({
    id: `payout:${name}`,
    kind: 'payout',
    ownerId: null,
    allowNegative: true,
  }),
  /** The platform's share of completed consultations. */
  platformRevenue: (): AccountRef => ({
    id: 'platform-revenue',
    kind: 'platform-revenue',
    ownerId: null,
    allowNegative: false,
  }),
} as const

export interface Entry {
  account: AccountRef
  /** Signed integer fen: positive adds to the account. */
  amount: number
}

export type TransferResult = 'posted' | 'duplicate'

/** A transfer the ledger refuses: it would not balance, or would take an account below zero. */
export class LedgerRefused extends Error {
  override name = 'LedgerRefused'
}

export async function postTransfer(
  trx: DB,
  transfer: {
    eventKey: string
    kind: string
    consultationId?: string | null
    /** The withdrawal it belongs to (wallet transfers). */
    withdrawalId?: string | null
    entries: Entry[]
  },
  now: Date,
): Promise<TransferResult> {
  const entries = transfer.entries.filter((entry) => entry.amount !== 0)
  if (entries.some((entry) => !Number.isSafeInteger(entry.amount))) {
    throw new LedgerRefused(`transfer ${transfer.eventKey}: amounts must be integer fen`)
  }
  if (entries.reduce((sum, entry) => sum + entry.amount, 0) !== 0) {
    throw new LedgerRefused(`transfer ${transfer.eventKey} does not sum to zero`)
  }
  const at = now.toISOString()
  const id = randomUUID()
  const inserted = await trx
    .insertInto('ledger_transfers')
    .values({
      id,
      event_key: transfer.eventKey,
      kind: transfer.kind,
      consultation_id: transfer.consultationId ?? null,
      withdrawal_id: transfer.withdrawalId ?? null,
      created_at: at,
    })
    .onConflict((oc) => oc.column('event_key').doNothing())
    .returning('id')
    .executeTakeFirst()
  if (!inserted) return 'duplicate'
  // One order for every transfer's row locks (by account id): two transfers touching the same
  // accounts never wait on each other in opposite orders (no deadlock on PostgreSQL).
  const sorted = [...entries].sort((a, b) => (a.account.id < b.account.id ? -1 : 1))
  for (const entry of sorted) {
    await trx
      .insertInto('ledger_accounts')
      .values({
        id: entry.account.id,
        kind: entry.account.kind,
        owner_id: entry.account.ownerId,
        allow_negative: entry.account.allowNegative ? 1 : 0,
        balance: 0,
        created_at: at,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute()
    const updated = await trx
      .updateTable('ledger_accounts')
      .set({ balance: sql<number>`balance + ${entry.amount}` })
      .where('id', '=', entry.account.id)
      .where((eb) =>
        eb.or([eb('allow_negative', '=', 1), eb(sql<number>`balance + ${entry.amount}`, '>=', 0)]),
      )
      .executeTakeFirst()
    if (Number(updated.numUpdatedRows) !== 1) {
      throw new LedgerRefused(
        `transfer ${transfer.eventKey} would take ${entry.account.id} below zero`,
      )
    }
    await trx
      .insertInto('ledger_entries')
      .values({
        id: randomUUID(),
        transfer_id: id,
        account_id: entry.account.id,
        amount: entry.amount,
        created_at: at,
      })
      .execute()
  }
  for (const line of statementLines(entries)) {
    await trx
      .insertInto('ledger_statement_lines')
      .values({
        owner_id: line.ownerId,
        transfer_id: id,
        kind: transfer.kind,
        created_at: at,
        ...line.changes,
        consultation_id: transfer.consultationId ?? null,
        withdrawal_id: transfer.withdrawalId ?? null,
      })
      .execute()
  }
  return 'posted'
}

/** The balance of an account now (0 when it has no entries). */
export async function balanceOf(db: DB, account: AccountRef): Promise<number> {
  const row = await db
    .selectFrom('ledger_accounts')
    .select('balance')
    .where('id', '=', account.id)
    .executeTakeFirst()
  return Number(row?.balance ?? 0)
}
