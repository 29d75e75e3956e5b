import { type Kysely, type Migration, sql } from 'kysely'

/*
 * `ledger_statement_lines`: one row per expert and per ledger transfer that touches any of that
 * expert's accounts (expert-pending, expert-available, expert-withdrawing), with the transfer's
 * change to each of the three and what 交易记录 shows of the transfer (kind, time, consultation,
 * withdrawal). postTransfer writes them with the entries, in the same transaction, and never changes
 * them (domain/ledger/statement.ts); `ledger:check` proves they equal the entries.
 *
 * Why: 交易记录 (domain/wallet/trades.ts) cut its page from the expert's entries grouped per
 * transfer, so every request read every entry the expert ever had (10,000 entries: 28 requests a
 * second on PostgreSQL). A page is now a range of `ledger_statement_lines_time_idx` (by kind:
 * `ledger_statement_lines_kind_idx`; a China month is a range of created_at in either), and its
 * total a count on the same index.
 *
 * Transfers posted before this migration get their lines here, from their entries on the expert
 * accounts (the account's kind and owner as ledger_accounts has them; the kinds written out, as they
 * are now, so a later change of the code cannot change this migration).
 */
export const statementLines: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('ledger_statement_lines')
      .addColumn('owner_id', 'text', (col) => col.notNull())
      .addColumn('transfer_id', 'text', (col) => col.notNull())
      .addColumn('kind', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('pending_change', 'bigint', (col) => col.notNull())
      .addColumn('available_change', 'bigint', (col) => col.notNull())
      .addColumn('withdrawing_change', 'bigint', (col) => col.notNull())
      .addColumn('consultation_id', 'text')
      .addColumn('withdrawal_id', 'text')
      .addPrimaryKeyConstraint('ledger_statement_lines_pkey', ['owner_id', 'transfer_id'])
      .execute()
    await db.schema
      .createIndex('ledger_statement_lines_time_idx')
      .on('ledger_statement_lines')
      .columns(['owner_id', 'created_at desc', 'transfer_id desc'])
      .execute()
    await db.schema
      .createIndex('ledger_statement_lines_kind_idx')
      .on('ledger_statement_lines')
      .columns(['owner_id', 'kind', 'created_at desc', 'transfer_id desc'])
      .execute()

    const change = (kind: string) => sql`sum(case when a.kind = ${kind} then e.amount else 0 end)`
    await sql`
      insert into ledger_statement_lines (owner_id, transfer_id, kind, created_at, pending_change,
        available_change, withdrawing_change, consultation_id, withdrawal_id)
      select a.owner_id, t.id, t.kind, t.created_at, ${change('expert-pending')},
        ${change('expert-available')}, ${change('expert-withdrawing')}, t.consultation_id,
        t.withdrawal_id
      from ledger_entries e
      join ledger_accounts a on a.id = e.account_id
      join ledger_transfers t on t.id = e.transfer_id
      where a.kind in (${sql.join(['expert-pending', 'expert-available', 'expert-withdrawing'])})
        and a.owner_id is not null
      group by a.owner_id, t.id, t.kind, t.created_at, t.consultation_id, t.withdrawal_id
    `.execute(db)
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('ledger_statement_lines').execute()
  },
}
