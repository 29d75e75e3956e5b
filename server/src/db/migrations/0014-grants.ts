import { type Kysely, type Migration } from 'kysely'

/*
 * Grants (授权记录, issue 9): who may see which of a person's records, until when, and every view.
 *
 * grants: made for `person_user_id` (whose records they are; a manager may make one for a member,
 * and it stays the member's: created_by is only the trace). `account` grants name the grantee;
 * `link` grants keep the SHA-256 of a 128-bit token and, with a 提取码, its keyed hash. `opens`
 * counts link openings with the right code (what max_views limits), raised by one atomic UPDATE.
 * `first_viewed_at` is set once, by the first view, which also writes the owner's message.
 * grant_records: what a grant covers (an exam's images, or a report by its id) with the exam it
 * hangs on, so deleting an exam removes it from every grant.
 * grant_views: one row per (grant, viewer session, record): the first read inserts, later reads
 * move last_at (at most once a minute). place is city level at most.
 * share_sessions: a link visitor's `yxs_` bearer token (SHA-256), valid until the earlier of the
 * grant's expiry and SHARE_SESSION_SECONDS after the opening.
 */
export const grants: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('grants')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('person_user_id', 'text', (col) =>
        col.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('created_by_user_id', 'text', (col) =>
        col.references('users.id').onDelete('set null'),
      )
      // 'account' | 'link'
      .addColumn('audience', 'text', (col) => col.notNull())
      .addColumn('grantee_user_id', 'text', (col) => col.references('users.id').onDelete('cascade'))
      .addColumn('token_hash', 'text', (col) => col.unique())
      .addColumn('pickup_hash', 'text')
      .addColumn('max_views', 'integer')
      .addColumn('opens', 'integer', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('expires_at', 'text', (col) => col.notNull())
      .addColumn('revoked_at', 'text')
      .addColumn('first_viewed_at', 'text')
      .execute()
    await db.schema
      .createIndex('grants_person_idx')
      .on('grants')
      .columns(['person_user_id', 'created_at'])
      .execute()
    await db.schema
      .createIndex('grants_grantee_idx')
      .on('grants')
      .columns(['grantee_user_id', 'expires_at'])
      .execute()

    await db.schema
      .createTable('grant_records')
      .addColumn('grant_id', 'text', (col) =>
        col.notNull().references('grants.id').onDelete('cascade'),
      )
      // 'exam' | 'report'
      .addColumn('kind', 'text', (col) => col.notNull())
      .addColumn('record_id', 'text', (col) => col.notNull())
      .addColumn('exam_id', 'text', (col) =>
        col.notNull().references('exams.id').onDelete('cascade'),
      )
      // The report was private when shared (ticked itself).
      .addColumn('private', 'integer', (col) => col.notNull())
      .addPrimaryKeyConstraint('grant_records_pk', ['grant_id', 'kind', 'record_id'])
      .execute()
    await db.schema
      .createIndex('grant_records_exam_idx')
      .on('grant_records')
      .columns(['exam_id', 'grant_id'])
      .execute()

    await db.schema
      .createTable('grant_views')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('grant_id', 'text', (col) =>
        col.notNull().references('grants.id').onDelete('cascade'),
      )
      // The grantee's login session id or the share session id.
      .addColumn('viewer_session', 'text', (col) => col.notNull())
      .addColumn('viewer_user_id', 'text', (col) => col.references('users.id').onDelete('set null'))
      .addColumn('record_kind', 'text', (col) => col.notNull())
      .addColumn('record_id', 'text', (col) => col.notNull())
      .addColumn('exam_id', 'text', (col) =>
        col.notNull().references('exams.id').onDelete('cascade'),
      )
      .addColumn('place', 'text', (col) => col.notNull())
      .addColumn('first_at', 'text', (col) => col.notNull())
      .addColumn('last_at', 'text', (col) => col.notNull())
      .execute()
    await db.schema
      .createIndex('grant_views_uq')
      .on('grant_views')
      .columns(['grant_id', 'viewer_session', 'record_kind', 'record_id'])
      .unique()
      .execute()
    await db.schema
      .createIndex('grant_views_exam_idx')
      .on('grant_views')
      .columns(['exam_id', 'last_at'])
      .execute()

    await db.schema
      .createTable('share_sessions')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('grant_id', 'text', (col) =>
        col.notNull().references('grants.id').onDelete('cascade'),
      )
      .addColumn('token_hash', 'text', (col) => col.notNull().unique())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('expires_at', 'text', (col) => col.notNull())
      .execute()
    await db.schema
      .createIndex('share_sessions_grant_idx')
      .on('share_sessions')
      .column('grant_id')
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('share_sessions').execute()
    await db.schema.dropTable('grant_views').execute()
    await db.schema.dropTable('grant_records').execute()
    await db.schema.dropTable('grants').execute()
  },
}
