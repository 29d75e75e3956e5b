import type { Kysely, Migration } from 'kysely'

// Only portable column types (text, integer) so the same migration runs on SQLite and PostgreSQL.
export const foundation: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('policy_documents')
      .addColumn('kind', 'text', (col) => col.notNull())
      .addColumn('software_name', 'text', (col) => col.notNull())
      .addColumn('version', 'text', (col) => col.notNull())
      .addColumn('title', 'text', (col) => col.notNull())
      .addColumn('content', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('policy_documents_pk', ['kind', 'software_name', 'version'])
      .execute()
    await db.schema
      .createIndex('policy_documents_current_idx')
      .on('policy_documents')
      .columns(['kind', 'software_name', 'updated_at'])
      .execute()

    await db.schema
      .createTable('seed_runs')
      .addColumn('name', 'text', (col) => col.primaryKey())
      .addColumn('ran_at', 'text', (col) => col.notNull())
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('seed_runs').execute()
    await db.schema.dropTable('policy_documents').execute()
  },
}
