import type { Kysely, Migration } from 'kysely'

/*
 * Bookmarks (issue 8): slices a patient marks in the viewer, with a note, to find again from the
 * report page. Each row points at the instance itself (not only its UIDs), so deleting the exam or
 * one file of an upload deletes the bookmarks on it (cascade), and none is left pointing at nothing.
 *
 * bookmark_counts is one row per person and exam that an add locks (UPDATE) before counting and
 * inserting, so a burst of adds cannot pass the cap: a bare COUNT before the insert would let
 * concurrent requests all see room. `count` is what the last add or delete left, recounted under the
 * lock each time, so bookmarks that a file delete cascaded away never make it drift.
 */
export const bookmarks: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('bookmarks')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) =>
        col.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('exam_id', 'text', (col) =>
        col.notNull().references('exams.id').onDelete('cascade'),
      )
      .addColumn('instance_id', 'text', (col) =>
        col.notNull().references('instances.id').onDelete('cascade'),
      )
      .addColumn('series_uid', 'text', (col) => col.notNull())
      .addColumn('sop_instance_uid', 'text', (col) => col.notNull())
      // 1-based frame of the instance.
      .addColumn('frame', 'integer', (col) => col.notNull())
      .addColumn('note', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute()
    await db.schema
      .createIndex('bookmarks_user_exam_idx')
      .on('bookmarks')
      .columns(['user_id', 'exam_id', 'created_at'])
      .execute()
    // The cascade from instances looks bookmarks up by instance.
    await db.schema
      .createIndex('bookmarks_instance_idx')
      .on('bookmarks')
      .column('instance_id')
      .execute()

    await db.schema
      .createTable('bookmark_counts')
      .addColumn('user_id', 'text', (col) =>
        col.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('exam_id', 'text', (col) =>
        col.notNull().references('exams.id').onDelete('cascade'),
      )
      .addColumn('count', 'integer', (col) => col.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('bookmark_counts_pk', ['user_id', 'exam_id'])
      .execute()
    await db.schema
      .createIndex('bookmark_counts_exam_idx')
      .on('bookmark_counts')
      .column('exam_id')
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('bookmark_counts').execute()
    await db.schema.dropTable('bookmarks').execute()
  },
}
