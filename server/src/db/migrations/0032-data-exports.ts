import type { Kysely, Migration } from 'kysely'

/*
 * 导出我的数据 (issue 24, domain/data-export): one row per request for a copy of a person's data.
 *
 * - `person_user_id` is whose data; `requested_by_user_id` who asked (the person, or the family
 *   manager of a 亲情卡 member) and whose phone the link goes to.
 * - `job_id` is the ingest_jobs row that builds the archive; `archive_key` the object it wrote.
 * - `token_hash` is the SHA-256 of the one-use link's token (the token itself only ever travels in
 *   the SMS); `expires_at` 24 h after it was sent; `downloaded_at` set by the one download.
 * - `link_origin`: the origin the link names (PUBLIC_URL, or outside production the origin the
 *   request came to), fixed at the request because the job that sends it has no request.
 * - `state`: 'building' | 'sent' | 'downloaded' | 'expired' | 'failed'.
 */
export const dataExports: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('data_exports')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('person_user_id', 'text', (col) => col.notNull())
      .addColumn('requested_by_user_id', 'text', (col) => col.notNull())
      .addColumn('job_id', 'text')
      .addColumn('state', 'text', (col) => col.notNull())
      .addColumn('archive_key', 'text')
      .addColumn('size_bytes', 'bigint')
      .addColumn('token_hash', 'text', (col) => col.unique())
      .addColumn('expires_at', 'text')
      .addColumn('downloaded_at', 'text')
      .addColumn('message', 'text')
      .addColumn('link_origin', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute()
    await db.schema
      .createIndex('data_exports_person')
      .on('data_exports')
      .columns(['person_user_id', 'created_at'])
      .execute()
    await db.schema
      .createIndex('data_exports_requester')
      .on('data_exports')
      .columns(['requested_by_user_id', 'created_at'])
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('data_exports').execute()
  },
}
