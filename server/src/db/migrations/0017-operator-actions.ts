import type { Kysely, Migration } from 'kysely'

/*
 * The operators' audit log (issue 10): every change an operator makes (an article published, a
 * feedback answered, a feature switched, a hospital key issued) is one row with who, when, what
 * and on which thing. Rows are never updated or deleted by the app; operators read them in
 * 运营后台 → 操作记录. `detail` is short and never holds a secret (a key's prefix, never the key).
 * content_files.duration_seconds: a video's length, read from its MP4 header at upload, so saving
 * the video never reads the file again. hospitals.latitude / longitude: for 导航.
 */
export const operatorActions: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('operator_actions')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('operator_user_id', 'text', (col) => col.notNull())
      // contract OPERATOR_ACTIONS
      .addColumn('action', 'text', (col) => col.notNull())
      .addColumn('target_id', 'text', (col) => col.notNull())
      .addColumn('detail', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute()
    await db.schema
      .createIndex('operator_actions_by_time')
      .on('operator_actions')
      .columns(['created_at', 'id'])
      .execute()
    await db.schema.alterTable('content_files').addColumn('duration_seconds', 'real').execute()
    // Where a hospital is (GCJ-02, what WeChat's map and Chinese map apps take): 导航 opens the
    // map there. Null until an operator enters it; the page then shows the address to search.
    await db.schema.alterTable('hospitals').addColumn('latitude', 'real').execute()
    await db.schema.alterTable('hospitals').addColumn('longitude', 'real').execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('hospitals').dropColumn('longitude').execute()
    await db.schema.alterTable('hospitals').dropColumn('latitude').execute()
    await db.schema.alterTable('content_files').dropColumn('duration_seconds').execute()
    await db.schema.dropTable('operator_actions').execute()
  },
}
