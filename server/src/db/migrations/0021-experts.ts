import { type Kysely, type Migration, sql } from 'kysely'

/*
 * Expert certification (issue 20, contract/main/experts.ts). One row per application; a person has at
 * most one open one (draft or pending): a partial unique index, which SQLite (3.8+) and PostgreSQL
 * both build from the same statement. Certificate numbers are stored encrypted with the field cipher,
 * like ID numbers. Photos are private objects named by storage key. `experts` is the certified
 * profile: it changes only when an operator approves an application, so a certified expert's new
 * application leaves it as it is until then.
 */
export const experts: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('expert_applications')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) =>
        col.notNull().references('users.id').onDelete('cascade'),
      )
      // contract EXPERT_APPLICATION_STATUSES
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('hospital_id', 'text')
      .addColumn('department', 'text')
      .addColumn('title', 'text')
      .addColumn('practice_cert_encrypted', 'text')
      .addColumn('qualification_cert_encrypted', 'text')
      .addColumn('practice_category', 'text')
      .addColumn('practice_scope', 'text')
      // JSON array of strings
      .addColumn('specialities', 'text', (col) => col.notNull())
      .addColumn('introduction', 'text', (col) => col.notNull())
      .addColumn('agreement_version', 'text')
      .addColumn('reject_reason', 'text')
      .addColumn('submitted_at', 'text')
      .addColumn('decided_at', 'text')
      .addColumn('decided_by', 'text')
      .addColumn('version', 'integer', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute()
    await sql`create unique index expert_applications_open_uq on expert_applications (user_id) where status in ('draft', 'pending')`.execute(
      db,
    )
    // The operators' queue: oldest pending first.
    await db.schema
      .createIndex('expert_applications_queue_idx')
      .on('expert_applications')
      .columns(['status', 'submitted_at'])
      .execute()
    await db.schema
      .createIndex('expert_applications_user_idx')
      .on('expert_applications')
      .columns(['user_id', 'created_at'])
      .execute()

    await db.schema
      .createTable('expert_application_photos')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('application_id', 'text', (col) =>
        col.notNull().references('expert_applications.id').onDelete('cascade'),
      )
      // contract EXPERT_PHOTO_KINDS
      .addColumn('kind', 'text', (col) => col.notNull())
      .addColumn('storage_key', 'text', (col) => col.notNull())
      .addColumn('mime_type', 'text', (col) => col.notNull())
      .addColumn('size_bytes', 'integer', (col) => col.notNull())
      .addColumn('width', 'integer', (col) => col.notNull())
      .addColumn('height', 'integer', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute()
    await db.schema
      .createIndex('expert_application_photos_app_idx')
      .on('expert_application_photos')
      .columns(['application_id', 'kind'])
      .execute()

    await db.schema
      .createTable('experts')
      .addColumn('user_id', 'text', (col) =>
        col.primaryKey().references('users.id').onDelete('cascade'),
      )
      .addColumn('application_id', 'text', (col) => col.notNull())
      .addColumn('hospital_id', 'text', (col) => col.notNull())
      .addColumn('department', 'text', (col) => col.notNull())
      .addColumn('title', 'text', (col) => col.notNull())
      // JSON array of strings
      .addColumn('specialities', 'text', (col) => col.notNull())
      .addColumn('introduction', 'text', (col) => col.notNull())
      .addColumn('certified_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .addColumn('suspended_at', 'text')
      .addColumn('suspended_reason', 'text')
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('experts').execute()
    await db.schema.dropTable('expert_application_photos').execute()
    await db.schema.dropTable('expert_applications').execute()
  },
}
