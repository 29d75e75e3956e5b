import type { Kysely, Migration } from 'kysely'

/*
 * Accounts, sessions, SMS codes and the bookkeeping of their limits. Portable types only (text,
 * integer), timestamps are ISO strings made by the app. Nullable unique columns (mobile, wechat_openid)
 * allow many NULLs on both SQLite and PostgreSQL, so a deleted account can release its phone number.
 */
export const identity: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('mobile', 'text', (col) => col.unique())
      .addColumn('nickname', 'text', (col) => col.notNull())
      .addColumn('avatar_url', 'text')
      .addColumn('gender', 'text', (col) => col.notNull())
      .addColumn('role', 'text', (col) => col.notNull())
      .addColumn('password_hash', 'text')
      .addColumn('wechat_openid', 'text', (col) => col.unique())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .addColumn('deleted_at', 'text')
      .execute()

    // Deleting a user row takes its sessions and consents with it (account deletion, user merge).
    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) =>
        col.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('access_hash', 'text', (col) => col.notNull().unique())
      .addColumn('refresh_hash', 'text', (col) => col.notNull().unique())
      .addColumn('access_expires_at', 'text', (col) => col.notNull())
      .addColumn('refresh_expires_at', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('revoked_at', 'text')
      .execute()
    await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute()

    await db.schema
      .createTable('sms_codes')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('mobile', 'text', (col) => col.notNull())
      .addColumn('purpose', 'text', (col) => col.notNull())
      .addColumn('code_hash', 'text', (col) => col.notNull())
      .addColumn('attempts', 'integer', (col) => col.notNull())
      .addColumn('expires_at', 'text', (col) => col.notNull())
      .addColumn('consumed_at', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('ip_hash', 'text', (col) => col.notNull())
      .execute()
    await db.schema
      .createIndex('sms_codes_mobile_idx')
      .on('sms_codes')
      .columns(['mobile', 'created_at'])
      .execute()

    await db.schema
      .createTable('sms_outbox')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('mobile', 'text', (col) => col.notNull())
      .addColumn('purpose', 'text', (col) => col.notNull())
      .addColumn('code', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute()
    await db.schema
      .createIndex('sms_outbox_mobile_idx')
      .on('sms_outbox')
      .columns(['mobile', 'created_at'])
      .execute()

    await db.schema
      .createTable('login_failures')
      .addColumn('mobile', 'text', (col) => col.primaryKey())
      .addColumn('failures', 'integer', (col) => col.notNull())
      .addColumn('locked_until', 'text')
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute()

    await db.schema
      .createTable('rate_events')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('bucket', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute()
    await db.schema
      .createIndex('rate_events_bucket_idx')
      .on('rate_events')
      .columns(['bucket', 'created_at'])
      .execute()

    // Which versions of the user agreement and privacy policy a person accepted, and when.
    await db.schema
      .createTable('consents')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) =>
        col.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('kind', 'text', (col) => col.notNull())
      .addColumn('version', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute()
    await db.schema.createIndex('consents_user_idx').on('consents').column('user_id').execute()

    // Single-use proof that a phone received a code (validateCode), for multi-step forms.
    await db.schema
      .createTable('code_tickets')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('ticket_hash', 'text', (col) => col.notNull().unique())
      .addColumn('mobile', 'text', (col) => col.notNull())
      .addColumn('purpose', 'text', (col) => col.notNull())
      .addColumn('expires_at', 'text', (col) => col.notNull())
      .addColumn('used_at', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute()
  },
  async down(db: Kysely<unknown>) {
    for (const table of [
      'code_tickets',
      'consents',
      'rate_events',
      'login_failures',
      'sms_outbox',
      'sms_codes',
      'sessions',
      'users',
    ]) {
      await db.schema.dropTable(table).execute()
    }
  },
}
