import { type Kysely, type Migration, sql } from 'kysely'

/*
 * The expert's wallet (issue 22, contract/main/wallet.ts, domain/wallet).
 *
 * - `withdrawals`: one row per withdrawal. `out_bill_no` is our bill number at the transfer
 *   provider, made once and sent unchanged on every retry. `client_id` is unique per expert (a
 *   retried request answers the same withdrawal). `active_key` holds the expert's id while the
 *   withdrawal is in flight and null once it is final: unique, so an expert has at most one
 *   withdrawal in flight, whatever the number of parallel requests and processes. Gross, tax and
 *   net are integer fen; `tax_json` is how the tax was computed (contract WalletTaxSchema), with
 *   `tax_year` and `tax_month` (China time) for the next withdrawal's cumulative computation.
 * - `wallet_day_totals`: what was withdrawn per China day, per expert and for the platform, raised
 *   by one conditional statement (the limits hold under concurrency) and lowered when a withdrawal
 *   is voided.
 * - `wallet_reconciliations`: the last comparison of the provider's daily statement with ours.
 * - `demo_transfer_bills`: the 演示提现 provider's own bills (providers/transfers/demo.ts), kept in
 *   the database so the demo walks the same way on every process and after a restart.
 * - `ledger_transfers.withdrawal_id`: the withdrawal a transfer belongs to (交易记录's detail);
 *   `ledger_entries_account_cover_idx`: 交易记录's pages read from the index alone.
 * - `app_settings` row `wallet-limits`: the limits, as JSON (domain/wallet/settings.ts).
 */
export const wallet: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('withdrawals')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('expert_user_id', 'text', (col) => col.notNull())
      .addColumn('client_id', 'text', (col) => col.notNull())
      .addColumn('out_bill_no', 'text', (col) => col.notNull().unique())
      .addColumn('active_key', 'text', (col) => col.unique())
      .addColumn('gross_fen', 'bigint', (col) => col.notNull())
      .addColumn('tax_fen', 'bigint', (col) => col.notNull())
      .addColumn('net_fen', 'bigint', (col) => col.notNull())
      .addColumn('tax_json', 'text', (col) => col.notNull())
      .addColumn('tax_year', 'integer', (col) => col.notNull())
      .addColumn('tax_month', 'text', (col) => col.notNull())
      .addColumn('day', 'text', (col) => col.notNull())
      .addColumn('state', 'text', (col) => col.notNull())
      .addColumn('reason', 'text')
      .addColumn('target_label', 'text', (col) => col.notNull())
      .addColumn('provider', 'text', (col) => col.notNull())
      .addColumn('provider_state', 'text')
      .addColumn('provider_code', 'text')
      .addColumn('provider_bill_no', 'text')
      .addColumn('package_info', 'text')
      .addColumn('polls', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .addColumn('sent_at', 'text')
      .addColumn('paid_at', 'text')
      .addColumn('finished_at', 'text')
      .addColumn('reviewed_by', 'text')
      .addColumn('reviewed_at', 'text')
      .addUniqueConstraint('withdrawals_client_key', ['expert_user_id', 'client_id'])
      .execute()
    for (const [name, columns] of [
      ['withdrawals_expert_idx', ['expert_user_id', 'created_at']],
      ['withdrawals_tax_idx', ['expert_user_id', 'tax_year', 'state']],
      ['withdrawals_state_idx', ['state', 'created_at']],
      ['withdrawals_finished_idx', ['finished_at']],
    ] as const) {
      await db.schema
        .createIndex(name)
        .on('withdrawals')
        .columns([...columns])
        .execute()
    }

    await db.schema
      .createTable('wallet_day_totals')
      .addColumn('key', 'text', (col) => col.primaryKey())
      .addColumn('total_fen', 'bigint', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute()

    await db.schema
      .createTable('wallet_reconciliations')
      .addColumn('date', 'text', (col) => col.primaryKey())
      .addColumn('provider', 'text', (col) => col.notNull())
      .addColumn('checked_at', 'text', (col) => col.notNull())
      .addColumn('provider_count', 'integer', (col) => col.notNull())
      .addColumn('ledger_count', 'integer', (col) => col.notNull())
      .addColumn('difference_count', 'integer', (col) => col.notNull())
      .addColumn('differences_json', 'text', (col) => col.notNull())
      .execute()
    await db.schema
      .createIndex('wallet_reconciliations_diff_idx')
      .on('wallet_reconciliations')
      .columns(['difference_count', 'date'])
      .execute()

    await db.schema
      .createTable('demo_transfer_bills')
      .addColumn('out_bill_no', 'text', (col) => col.primaryKey())
      .addColumn('bill_no', 'text', (col) => col.notNull())
      .addColumn('amount_fen', 'bigint', (col) => col.notNull())
      .addColumn('needs_confirm', 'integer', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('confirmed_at', 'text')
      .addColumn('cancelled_at', 'text')
      .execute()

    // 交易记录 pages an expert's entries grouped per transfer from this index alone.
    await db.schema
      .createIndex('ledger_entries_account_cover_idx')
      .on('ledger_entries')
      .columns(['account_id', 'created_at', 'transfer_id', 'amount'])
      .execute()
    await db.schema.alterTable('ledger_transfers').addColumn('withdrawal_id', 'text').execute()
    await db.schema
      .createIndex('ledger_transfers_withdrawal_idx')
      .on('ledger_transfers')
      .columns(['withdrawal_id'])
      .execute()

    await sql`insert into app_settings (key, value, updated_by, updated_at) values (${'wallet-limits'}, ${JSON.stringify(
      {
        perTransferFen: 2_000_000,
        perDayFen: 2_000_000,
        platformPerDayFen: 10_000_000,
        reviewAboveFen: 200_000,
      },
    )}, ${null}, ${new Date().toISOString()}) on conflict (key) do nothing`.execute(db)
  },
  async down(db: Kysely<unknown>) {
    await sql`delete from app_settings where key = ${'wallet-limits'}`.execute(db)
    await db.schema.dropIndex('ledger_transfers_withdrawal_idx').execute()
    await db.schema.dropIndex('ledger_entries_account_cover_idx').execute()
    await db.schema.alterTable('ledger_transfers').dropColumn('withdrawal_id').execute()
    for (const table of [
      'demo_transfer_bills',
      'wallet_reconciliations',
      'wallet_day_totals',
      'withdrawals',
    ]) {
      await db.schema.dropTable(table).execute()
    }
  },
}
