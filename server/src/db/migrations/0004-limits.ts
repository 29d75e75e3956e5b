import type { Kysely, Migration } from 'kysely'

/**
 * Limits that hold under concurrency (src/domain/limits.ts): one counter row per limited thing, taken
 * with an atomic upsert before the work it guards. The window end is indexed for the purge.
 */
export const limits: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('limit_counters')
      .addColumn('key', 'text', (col) => col.primaryKey())
      .addColumn('count', 'integer', (col) => col.notNull())
      .addColumn('window_ends_at', 'text', (col) => col.notNull())
      .execute()
    await db.schema
      .createIndex('limit_counters_window_idx')
      .on('limit_counters')
      .column('window_ends_at')
      .execute()
    // The scheduled purge deletes expired codes and sessions by these columns.
    await db.schema
      .createIndex('sms_codes_expires_idx')
      .on('sms_codes')
      .column('expires_at')
      .execute()
    await db.schema
      .createIndex('code_tickets_expires_idx')
      .on('code_tickets')
      .column('expires_at')
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('code_tickets_expires_idx').execute()
    await db.schema.dropIndex('sms_codes_expires_idx').execute()
    await db.schema.dropTable('limit_counters').execute()
  },
}
