import type { Kysely, Migration } from 'kysely'

/**
 * Audit events are purged by age (src/domain/purge.ts, AUDIT_RETENTION_MS): the purge deletes by
 * `created_at` alone, across all accounts, which the (user_id, created_at) index cannot serve.
 */
export const auditRetention: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('audit_events_created_idx')
      .on('audit_events')
      .column('created_at')
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('audit_events_created_idx').execute()
  },
}
