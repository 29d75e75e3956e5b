import type { Kysely, Migration } from 'kysely'

/*
 * ingest_jobs.reason: why a job ended, for code (contract/reasons.ts), beside `message`, which is
 * for people. STOW-RS answers 507 when the storage filled up while its job ran; it used to find
 * that out by comparing the job's Chinese message with the text it expected. Null for every other
 * ending.
 */
export const jobReasons: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('ingest_jobs').addColumn('reason', 'text').execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('ingest_jobs').dropColumn('reason').execute()
  },
}
