import { type Kysely, type Migration, sql } from 'kysely'

/*
 * ingest_jobs.reason: why a job ended, for code (contract/reasons.ts), beside `message`, which is
 * for people. STOW-RS answers 507 when the storage filled up while its job ran; it used to find
 * that out by comparing the job's Chinese message with the text it expected. Null for every other
 * ending. Jobs that ended for a full store before this migration get the reason from that text
 * (written out here, as it was then, so a later change of wording cannot change this migration).
 */
const STORAGE_FULL_TEXT_THEN = '存储空间已满，请稍后再试或联系管理员'

export const jobReasons: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('ingest_jobs').addColumn('reason', 'text').execute()
    await sql`update ingest_jobs set reason = 'storage.full' where message = ${STORAGE_FULL_TEXT_THEN}`.execute(
      db,
    )
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('ingest_jobs').dropColumn('reason').execute()
  },
}
