import type { Kysely, Migration } from 'kysely'

/**
 * The profile side of accounts: ID cards (encrypted), notice settings, the analytics event log, QR
 * login requests, uploaded-file metadata, account merges, and the hospital/department directory. Portable types
 * only: text, integer (booleans are 0/1 so SQLite and PostgreSQL read back the same values).
 */
export const profile: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('id_cards')
      .addColumn('id', 'text', (col) => col.primaryKey())
      // One card per account; the unique key also serialises two concurrent binds of one account.
      .addColumn('user_id', 'text', (col) =>
        col.notNull().unique().references('users.id').onDelete('cascade'),
      )
      .addColumn('holder_encrypted', 'text', (col) => col.notNull())
      .addColumn('number_encrypted', 'text', (col) => col.notNull())
      // Keyed digest of the number: one number may be bound to one account only.
      .addColumn('number_hash', 'text', (col) => col.notNull().unique())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute()

    await db.schema
      .createTable('notice_settings')
      .addColumn('user_id', 'text', (col) =>
        col.primaryKey().references('users.id').onDelete('cascade'),
      )
      .addColumn('consult_reply', 'integer', (col) => col.notNull())
      .addColumn('report_ready', 'integer', (col) => col.notNull())
      .addColumn('system_notice', 'integer', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute()

    await db.schema
      .createTable('tracks')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) => col.references('users.id').onDelete('set null'))
      .addColumn('event', 'text', (col) => col.notNull())
      .addColumn('page', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute()
    await db.schema.createIndex('tracks_user_idx').on('tracks').column('user_id').execute()
    await db.schema.createIndex('tracks_created_idx').on('tracks').column('created_at').execute()

    await db.schema
      .createTable('qr_logins')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('poll_secret_hash', 'text', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('user_id', 'text', (col) => col.references('users.id').onDelete('set null'))
      .addColumn('browser', 'text', (col) => col.notNull())
      .addColumn('ip_masked', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('expires_at', 'text', (col) => col.notNull())
      .addColumn('scanned_at', 'text')
      .addColumn('answered_at', 'text')
      .addColumn('session_delivered_at', 'text')
      .execute()
    await db.schema
      .createIndex('qr_logins_expires_idx')
      .on('qr_logins')
      .column('expires_at')
      .execute()
    await db.schema.createIndex('qr_logins_user_idx').on('qr_logins').column('user_id').execute()

    await db.schema
      .createTable('files')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) => col.references('users.id').onDelete('set null'))
      .addColumn('kind', 'text', (col) => col.notNull())
      // Relative to UPLOAD_DIR, e.g. avatars/3f9c….png; served at /uploads/<storage_key>.
      .addColumn('storage_key', 'text', (col) => col.notNull().unique())
      .addColumn('mime_type', 'text', (col) => col.notNull())
      .addColumn('size_bytes', 'integer', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute()
    await db.schema.createIndex('files_user_idx').on('files').column('user_id').execute()

    // Account merges (sso mergeUser): which account went into which, so both histories stay traceable.
    await db.schema
      .createTable('user_merges')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('from_user_id', 'text', (col) => col.notNull().references('users.id'))
      .addColumn('into_user_id', 'text', (col) => col.notNull().references('users.id'))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute()

    await db.schema
      .createTable('hospitals')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('level', 'text', (col) => col.notNull())
      .addColumn('province', 'text', (col) => col.notNull())
      .addColumn('city', 'text', (col) => col.notNull())
      .addColumn('address', 'text', (col) => col.notNull())
      .addColumn('sort_order', 'integer', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute()

    await db.schema
      .createTable('departments')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('hospital_id', 'text', (col) =>
        col.notNull().references('hospitals.id').onDelete('cascade'),
      )
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('sort_order', 'integer', (col) => col.notNull())
      .execute()
    await db.schema
      .createIndex('departments_hospital_idx')
      .on('departments')
      .column('hospital_id')
      .execute()
  },
  async down(db: Kysely<unknown>) {
    for (const table of [
      'departments',
      'hospitals',
      'user_merges',
      'files',
      'qr_logins',
      'tracks',
      'notice_settings',
      'id_cards',
    ]) {
      await db.schema.dropTable(table).execute()
    }
  },
}
