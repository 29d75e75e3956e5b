import type { DB } from '../../db'
import { ACCOUNTS, LedgerRefused, postTransfer } from '../ledger'
import type { WithdrawalRow } from './model'
import { expertDayKey, platformDayKey, takeFromDayTotal } from './settings'

/*
 * A withdrawal's money in the ledger (domain/ledger): each function posts one transfer keyed by
 * the withdrawal, inside the caller's transaction (the one that changes the withdrawal's state).
 *
 *   hold  expert-available → expert-withdrawing (gross)               key withdraw-hold:<id>
 *   paid  expert-withdrawing → payout:<provider> (net)                key withdraw-paid:<id>
 *   tax   expert-withdrawing → tax-payable (tax; none when 0)         key withdraw-tax:<id>
 *   void  expert-withdrawing → expert-available (gross)               key withdraw-void:<id>
 *
 * Paid and tax are two transfers of one transaction, so 交易记录 shows the net paid out and the tax
 * withheld as their own lines; together they empty the hold (net + tax = gross, checked by
 * ledger:check). Paid and void exclude each other: both run only on the state change out of an
 * in-flight state, under the withdrawal's row lock.
 */

/** Takes the gross amount out of the available balance; LedgerRefused when it is not there. */
export async function holdWithdrawal(trx: DB, row: WithdrawalRow, now: Date): Promise<void> {
  const gross = Number(row.gross_fen)
  const result = await postTransfer(
    trx,
    {
      eventKey: `withdraw-hold:${row.id}`,
      kind: 'withdraw-hold',
      withdrawalId: row.id,
      entries: [
        { account: ACCOUNTS.expertAvailable(row.expert_user_id), amount: -gross },
        { account: ACCOUNTS.expertWithdrawing(row.expert_user_id), amount: gross },
      ],
    },
    now,
  )
  if (result !== 'posted') throw new LedgerRefused(`withdrawal ${row.id} was held before`)
}

/** SUCCESS: the hold leaves to the provider (net) and the tax payable (tax). */
export async function postPaid(trx: DB, row: WithdrawalRow, now: Date): Promise<void> {
  const net = Number(row.net_fen)
  const tax = Number(row.tax_fen)
  const withdrawing = ACCOUNTS.expertWithdrawing(row.expert_user_id)
  const paid = await postTransfer(
    trx,
    {
      eventKey: `withdraw-paid:${row.id}`,
      kind: 'withdraw-paid',
      withdrawalId: row.id,
      entries: [
        { account: withdrawing, amount: -net },
        { account: ACCOUNTS.payout(row.provider), amount: net },
      ],
    },
    now,
  )
  if (paid !== 'posted') throw new LedgerRefused(`withdrawal ${row.id} was paid before`)
  if (tax > 0) {
    await postTransfer(
      trx,
      {
        eventKey: `withdraw-tax:${row.id}`,
        kind: 'withdraw-tax',
        withdrawalId: row.id,
        entries: [
          { account: withdrawing, amount: -tax },
          { account: ACCOUNTS.taxPayable(), amount: tax },
        ],
      },
      now,
    )
  }
}

/** FAIL, CANCELLED or rejected: the hold goes back to the available balance and the day's totals. */
export async function voidHold(trx: DB, row: WithdrawalRow, now: Date): Promise<void> {
  const gross = Number(row.gross_fen)
  const result = await postTransfer(
    trx,
    {
      eventKey: `withdraw-void:${row.id}`,
      kind: 'withdraw-void',
      withdrawalId: row.id,
      entries: [
        { account: ACCOUNTS.expertWithdrawing(row.expert_user_id), amount: -gross },
        { account: ACCOUNTS.expertAvailable(row.expert_user_id), amount: gross },
      ],
    },
    now,
  )
  if (result !== 'posted') throw new LedgerRefused(`withdrawal ${row.id} was voided before`)
  await takeFromDayTotal(trx, expertDayKey(row.expert_user_id, row.day), gross, now)
  await takeFromDayTotal(trx, platformDayKey(row.day), gross, now)
}
